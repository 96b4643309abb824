#pragma once
// Where a new player's cube appears: a deterministic slot that overlaps no cube already in the world.
#include <span>

#include "netcube/sim/world.h"

namespace netcube::server {

// A resting cube for player `id`: its own slot of a 16 x 16 grid (low ids near the arena's centre) if that
// is clear, else the first clear slot after it, else its own slot (the overlap step will separate them).
sim::CubeState SpawnState(std::span<const sim::PlayerCube> world, sim::PlayerId id) noexcept;

}  // namespace netcube::server
