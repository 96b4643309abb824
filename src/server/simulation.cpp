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

void Simulation::Step(Players& players, bool collisions) {
  std::vector<sim::PlayerCube>& world = players.world();
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
  sim::StepWorld(world, steps_, collisions);
  ++tick_;
  ++counters_.ticks;
  history_.Record(
      tick_, schedule_.TimeOf(tick_), world, [&players](std::size_t i) { return players.HasAck(i); },
      [&players](std::size_t i) { return players.players()[i].generation; });
}

}  // namespace netcube::server
