// The server's memory of every cube's recent runs of buttons, and the turns a delta names from them.
#include <algorithm>
#include <array>

#include "netcube/protocol/delta.h"
#include "turns.h"

namespace netcube::protocol {

void TurnsOf(const sim::CubeState& base, const sim::CubeState& actual, int moves,
             std::span<const RunStart> runs, std::size_t most, FixedVector<Turn, kMaxTurns>& out) noexcept {
  out.clear();
  std::array<std::uint8_t, kMaxTurns + 1> held{};  // held[k]: the buttons after the first k turns
  held[0] = base.buttons;
  for (const RunStart& run : runs) {
    const int at = sim::SeqDiff(run.since, base.last_input) - 1;
    if (at < 0 || at > moves || run.buttons == held[out.size()] || out.size() == most ||
        (!out.empty() && at <= out.back().at)) {
      continue;
    }
    out.push_back({at, ChoiceOf(held[out.size()], run.buttons)});
    held[out.size()] = run.buttons;
  }
  while (held[out.size()] != actual.buttons && !out.empty() &&
         (out.size() == most || out.back().at >= moves)) {
    out.resize(out.size() - 1);
  }
  if (held[out.size()] == actual.buttons) return;
  const int first = out.empty() ? 0 : out.back().at + 1;
  const int at = std::clamp(sim::SeqDiff(actual.held_since, base.last_input) - 1, first, moves);
  out.push_back({at, ChoiceOf(held[out.size()], actual.buttons)});
}

void TurnLog::Record(std::span<const sim::PlayerCube> world,
                     std::span<const std::uint32_t> generations) noexcept {
  for (std::size_t i = 0; i < world.size() && i < generations.size(); ++i) {
    Runs& cube = cubes_[world[i].id];
    const sim::CubeState& s = world[i].state;
    if (cube.generation != generations[i]) cube = Runs{generations[i]};
    const Run& newest = cube.runs[(cube.count + kLoggedRuns - 1) % kLoggedRuns];
    if (cube.count > 0 && newest.since == s.held_since && newest.buttons == s.buttons) continue;
    cube.runs[cube.count % kLoggedRuns] = {s.held_since, s.buttons};
    ++cube.count;
  }
}

void TurnLog::TurnsSince(const sim::CubeState& baseline, const sim::PlayerCube& cube,
                         std::uint32_t generation, int moves, std::size_t most,
                         FixedVector<Turn, kMaxTurns>& out) const noexcept {
  const Runs& logged = cubes_[cube.id];
  std::array<RunStart, kLoggedRuns> runs{};
  std::size_t count = 0;
  if (logged.generation == generation) {
    for (std::size_t k = logged.count - std::min(logged.count, kLoggedRuns); k < logged.count; ++k) {
      const Run& run = logged.runs[k % kLoggedRuns];
      runs[count++] = {run.since, run.buttons};
    }
  }
  TurnsOf(baseline, cube.state, moves, std::span(runs.data(), count), most, out);
}

}  // namespace netcube::protocol
