#pragma once
// Where a new player's cube appears: a deterministic slot, well apart from the cubes already in the world.
#include <span>

#include "netcube/sim/world.h"

namespace netcube::server {

// A resting cube on a slot of a 16 x 16 grid over `arena` (of a 32 x 32 one once the world holds 256
// cubes): the slot nearest the centre that is at least `spacing_units` (along x or y) from every cube, or
// while none is, the one farthest from the nearest cube. With fewer than 256 cubes that slot overlaps none.
sim::CubeState SpawnState(std::span<const sim::PlayerCube> world, int spacing_units,
                          const sim::Arena& arena) noexcept;

}  // namespace netcube::server
