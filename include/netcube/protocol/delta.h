#pragma once
// Predicted delta snapshots (docs/PROTOCOL.md, "DeltaSnapshot"): each baseline cube predicted by Move from
// the buttons it held, with the turns and residuals the prediction misses. The server's side (TurnLog,
// MakeDelta) and the client's (ApplyDelta), and the prediction they share (PredictCube).
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "netcube/protocol/fixed_vector.h"
#include "netcube/protocol/messages.h"
#include "netcube/sim/move.h"
#include "netcube/sim/world.h"

namespace netcube::protocol {

// The buttons a turn's choice names after `held`, and back: the 15 other values, the ones without
// opposite keys first (a player's usual turns get the 3-bit codes), each group in increasing order.
std::uint8_t ButtonsOfChoice(std::uint8_t held, std::uint8_t choice) noexcept;
std::uint8_t ChoiceOf(std::uint8_t held, std::uint8_t buttons) noexcept;  // buttons != held

// What a cube is predicted to be after `moves` Moves from `baseline`, its buttons turning as `turns` say
// (valid turns: increasing, within `moves`). Bookkeeping (last_input, held_since) is 0: it is not on the
// wire. Its cost does not grow with `moves` (sim::MoveRepeated); `moves_stepped`, when given, counts the
// Moves it ran.
sim::CubeState PredictCube(const sim::CubeState& baseline, int moves, std::span<const Turn> turns,
                           std::uint64_t* moves_stepped = nullptr) noexcept;
// The prediction of a cube that was not said to change: `age` Moves with its baseline buttons.
inline sim::CubeState PredictCube(const sim::CubeState& baseline, int age,
                                  std::uint64_t* moves_stepped = nullptr) noexcept {
  return PredictCube(baseline, age, {}, moves_stepped);
}

class BaselinePrediction;  // baseline_prediction.h
class PredictionCache;

// The server's memory of each player's turns: the last kLoggedRuns runs of buttons of every cube (the
// buttons and the input that began holding them), so that a delta against an old baseline can name every
// turn since (MakeDelta). Fed the world after every tick; a new player's cube (another generation) starts
// afresh. A run that began and ended within one tick is not seen: the residuals carry it.
class TurnLog {
 public:
  static constexpr std::size_t kLoggedRuns = 8;
  void Record(std::span<const sim::PlayerCube> world, std::span<const std::uint32_t> generations) noexcept;
  // The turns of `cube` (of that generation) since `baseline`, the same player's cube `moves` Moves earlier:
  // the logged runs that began after its last input, each at its Move, at most `most` (1..kMaxTurns); the
  // last leaves the cube holding its buttons.
  void TurnsSince(const sim::CubeState& baseline, const sim::PlayerCube& cube, std::uint32_t generation,
                  int moves, std::size_t most, FixedVector<Turn, kMaxTurns>& out) const noexcept;

 private:
  struct Run {
    sim::Seq since = 0;
    std::uint8_t buttons = 0;
  };
  struct Runs {
    std::uint32_t generation = 0;
    std::size_t count = 0;  // runs recorded, the newest at (count - 1) % kLoggedRuns
    std::array<Run, kLoggedRuns> runs{};
  };
  std::array<Runs, kMaxPlayers> cubes_{};
};

// Builds `out` (its ack left as it is): the world at `server_tick` against the baseline world at
// `server_tick - age`. Both lists are in increasing id order with, for each cube, the generation of the
// player that owns it: a baseline cube whose id now has another generation left, and the new one joined.
// False when age is out of [1, kMaxDeltaAge] or the spans' sizes differ. `moves_stepped`, when given,
// counts the Moves its predictions ran: at most a small constant per cube and turn, whatever the age.
// `turns`, when given, names every turn since the baseline; without it a change names the last one only.
// `predicted`, when given (that baseline's, advanced to `server_tick`), gives every prediction instead:
// a change names the Moves and turns it followed (a cube it no longer follows is sent whole), and no
// Move is run. The delta may differ from the one made without it (it rebuilds the same world).
bool MakeDelta(std::uint32_t server_tick, std::span<const sim::PlayerCube> world,
               std::span<const std::uint32_t> world_generations, int age,
               std::span<const sim::PlayerCube> baseline, std::span<const std::uint32_t> baseline_generations,
               DeltaSnapshot& out, std::uint64_t* moves_stepped = nullptr, const TurnLog* turns = nullptr,
               const BaselinePrediction* predicted = nullptr) noexcept;
// Rebuilds the world a delta describes from the baseline it was made against, into `out` (tick and ack
// too). False when the delta does not fit that baseline: another cube count, a value out of range, an id
// twice. Nothing a peer sends is trusted: this is the second half of decoding a DeltaSnapshot. `cache`,
// when given, continues its last predictions against the same baseline instead of predicting again.
bool ApplyDelta(std::span<const sim::PlayerCube> baseline, const DeltaSnapshot& delta, Snapshot& out,
                PredictionCache* cache = nullptr) noexcept;

}  // namespace netcube::protocol
