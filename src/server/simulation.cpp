#include "simulation.h"

namespace netcube::server {

std::uint64_t Simulation::LastDue(Micros now) noexcept {
  const std::uint64_t last_due = schedule_.LastDueTick(now);
  if (last_due > tick_ && now - schedule_.TimeOf(tick_ + 1) > kMaxTickLag) {
    counters_.ticks_skipped += last_due - tick_ - 1;
    tick_ = last_due - 1;
  }
  return last_due;
}

void Simulation::Step(Players& players, bool collisions, const sim::Arena& arena) {
  std::vector<sim::PlayerCube>& world = players.world();
  RecordArrivals(players);
  steps_.clear();
  std::size_t used = 0;
  for (std::size_t i = 0; i < world.size(); ++i) {
    const std::span<sim::Input, InputQueue::kMaxPerTick> out(inputs_.data() + used, InputQueue::kMaxPerTick);
    // A moving cube is one whose client sends an input every step. One at rest may be holding keys
    // against a wall, or its client may have let go, which it does not send: not known to be streaming.
    const sim::CubeState& cube = world[i].state;
    const bool streaming = cube.vx != 0 || cube.vy != 0;
    const std::size_t count = players.players()[i].inputs.TakeForTick(out, streaming);
    if (count > 0) steps_.push_back({&world[i], std::span<const sim::Input>(out.data(), count)});
    used += count;
  }
  sim::StepWorld(world, steps_, collisions, arena, resolver_);
  ++tick_;
  ++counters_.ticks;
  history_.Record(
      tick_, schedule_.TimeOf(tick_), world, [&players](std::size_t i) { return players.HasAck(i); },
      [&players](std::size_t i) { return players.players()[i].generation; });
}

void Simulation::RecordArrivals(const Players& players) {
  arrivals_.clear();
  std::span<const sim::PlayerCube> last;
  std::span<const std::uint32_t> last_generations;
  if (!history_.WorldOf(tick_, last, last_generations)) last = {};
  // Both lists increase by id.
  std::size_t k = 0;
  const std::vector<sim::PlayerCube>& world = players.world();
  for (std::size_t i = 0; i < world.size(); ++i) {
    while (k < last.size() && last[k].id < world[i].id) ++k;
    const bool was_there = k < last.size() && last[k].id == world[i].id &&
                           last_generations[k] == players.players()[i].generation;
    if (!was_there) arrivals_.push_back(world[i]);
  }
}

}  // namespace netcube::server
