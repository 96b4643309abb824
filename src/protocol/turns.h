#pragma once
// The turns a delta names, from the runs of buttons a cube began since its baseline: private to the
// protocol library (turn_log.cpp makes them; delta.cpp's MakeDelta and TurnLog use them).
#include <cstddef>
#include <span>

#include "netcube/protocol/delta.h"

namespace netcube::protocol {

// The start of a run of buttons: the input that began holding them.
struct RunStart {
  sim::Seq since = 0;
  std::uint8_t buttons = 0;
};

// The turns of a cube from `base` to `actual` (`moves` Moves later) from the runs that began since, oldest
// first: each at its Move, at most `most` (>= 1); the last always leaves the cube holding `actual`'s buttons.
void TurnsOf(const sim::CubeState& base, const sim::CubeState& actual, int moves,
             std::span<const RunStart> runs, std::size_t most, FixedVector<Turn, kMaxTurns>& out) noexcept;

}  // namespace netcube::protocol
