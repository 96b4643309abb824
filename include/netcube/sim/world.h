#pragma once
// The server's world step: every player's inputs, then player–player overlap resolution. Client-side
// prediction runs only Move, so a push from another cube is a real misprediction it has to correct.
#include <cstdint>
#include <memory>
#include <span>

#include "netcube/sim/move.h"

namespace netcube::sim {

using PlayerId = std::uint16_t;
// Every id is below this (the wire's 10 bits, protocol::kMaxPlayers): what ResolveOverlaps sizes its tables
// by.
inline constexpr int kMaxPlayerIds = 1024;

struct PlayerCube {
  PlayerId id = 0;
  CubeState state;
};

// Pushes overlapping cubes apart along the axis of least penetration, each by half (the whole when the
// other is held by a wall), and stops the pushed velocity component. A pile-up that these pairwise pushes
// do not clear within a bounded number of passes is settled in id order: each cube still overlapping a
// lower id steps to the nearest clear spot. Afterwards no two cubes overlap (guaranteed up to 132 cubes in
// the standard arena, the most that always leave room). Deterministic and independent of the order of
// `cubes`: pairs are resolved in id order. Ids must be unique and below kMaxPlayerIds; every cube inside
// `arena`.
void ResolveOverlaps(std::span<PlayerCube> cubes, const Arena& arena) noexcept;

// ResolveOverlaps for a world that goes on tick after tick (a server's, a client's replays and
// predictions): it keeps where it filed the cubes, so that the next world, whose cubes moved a little,
// costs the few that crossed into another cell rather than a filing of all. Resolve's result is
// ResolveOverlaps' own, whatever world it is given; a copy starts with nothing kept.
class OverlapResolver {
 public:
  OverlapResolver() noexcept;
  ~OverlapResolver();
  OverlapResolver(const OverlapResolver&) noexcept;
  OverlapResolver& operator=(const OverlapResolver&) noexcept;
  OverlapResolver(OverlapResolver&&) noexcept;
  OverlapResolver& operator=(OverlapResolver&&) noexcept;

  void Resolve(std::span<PlayerCube> cubes, const Arena& arena) noexcept;

 private:
  struct Filing;
  std::unique_ptr<Filing> filing_;
};

struct PlayerStep {
  PlayerCube* cube = nullptr;
  std::span<const Input> inputs;  // this tick's inputs for the cube, in sequence order
};

// One server tick: applies each player's inputs with Move, then resolves overlaps among `all`
// (when `collisions` is on) with `resolver`. `steps` point into `all`.
void StepWorld(std::span<PlayerCube> all, std::span<const PlayerStep> steps, bool collisions,
               const Arena& arena, OverlapResolver& resolver) noexcept;

}  // namespace netcube::sim
