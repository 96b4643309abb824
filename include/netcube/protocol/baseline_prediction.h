#pragma once
// A baseline's predictions kept from one tick to the next, so that encoding a delta against it predicts
// nothing: each baseline cube's straight prediction (PredictCube(base, age)) and the prediction that
// follows the cube's own Moves and turns since the baseline (PredictCube(base, moves, turns)), each
// advanced by the Moves of the ticks since, shared by every client on that baseline. MakeDelta given one
// runs no Move: an encode's work no longer depends on its baseline's age, and a tick's is a Move or two per
// cube for each baseline it keeps.
#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "netcube/protocol/delta.h"
#include "netcube/protocol/fixed_vector.h"
#include "netcube/protocol/messages.h"

namespace netcube::protocol {

class BaselinePrediction {
 public:
  // Predicts the baseline world (the world after `baseline_tick`) as it is after `tick` (later), where
  // `world` is: the straight predictions, and each cube followed through the turns `log` gives.
  void Start(std::uint64_t baseline_tick, std::span<const sim::PlayerCube> baseline,
             std::span<const std::uint32_t> baseline_generations, std::uint64_t tick,
             std::span<const sim::PlayerCube> world, std::span<const std::uint32_t> world_generations,
             const TurnLog& log, std::uint64_t* moves_stepped = nullptr) noexcept;
  // Advances the predictions to `tick` (not earlier than the last), where `world` is: each straight one by
  // a Move a tick, each followed one by its cube's Moves since (the inputs its last_input says it had),
  // turning where its held_since says. A cube followed into more than kMaxTurns turns, or gone, is no
  // longer followed.
  void Advance(std::uint64_t tick, std::span<const sim::PlayerCube> world,
               std::span<const std::uint32_t> world_generations,
               std::uint64_t* moves_stepped = nullptr) noexcept;

  std::uint64_t baseline_tick() const noexcept { return baseline_tick_; }
  std::uint64_t tick() const noexcept { return tick_; }
  std::size_t size() const noexcept { return count_; }
  // PredictCube(baseline cube i, tick - baseline_tick).
  const sim::CubeState& Straight(std::size_t i) const noexcept { return cubes_[i].straight; }
  // The Moves and turns cube i was followed through since the baseline, and PredictCube(baseline cube i,
  // moves, turns); none when it is no longer followed.
  struct Path {
    int moves = 0;
    std::span<const Turn> turns;
    const sim::CubeState* state = nullptr;
  };
  std::optional<Path> Followed(std::size_t i) const noexcept;

 private:
  struct Cube {
    sim::PlayerId id = 0;
    std::uint32_t generation = 0;
    bool following = false;
    sim::Seq last_input = 0;  // the followed cube's, when last advanced
    int moves = 0;            // followed: PredictCube(base, moves, turns)
    FixedVector<Turn, kMaxTurns> turns{};
    sim::CubeState followed;
    sim::CubeState straight;
  };
  void Follow(Cube& cube, const sim::CubeState& now, std::uint64_t* moves_stepped) noexcept;

  std::uint64_t baseline_tick_ = 0;
  std::uint64_t tick_ = 0;
  std::size_t count_ = 0;
  std::array<Cube, kMaxPlayers> cubes_{};
};

// The client's side of the same idea: the last prediction ApplyDelta made of each baseline cube, so that
// the next delta against the same baseline (the server gives a client the same kept baseline for several
// snapshots) continues it with the Moves and turns since instead of predicting from the baseline again.
// A prediction is continued only when it was made from the same baseline state and its turns begin the new
// ones: the result is PredictCube's, bit for bit.
class PredictionCache {
 public:
  // PredictCube(base, moves, turns) for baseline cube `i`.
  sim::CubeState Predict(std::size_t i, const sim::CubeState& base, int moves, std::span<const Turn> turns,
                         std::uint64_t* moves_stepped = nullptr) noexcept;

 private:
  struct Entry {
    bool valid = false;
    sim::CubeState base;
    int moves = 0;
    FixedVector<Turn, kMaxTurns> turns{};
    sim::CubeState predicted;
  };
  std::array<Entry, kMaxPlayers> entries_{};
};

}  // namespace netcube::protocol
