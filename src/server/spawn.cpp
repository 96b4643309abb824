#include "spawn.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <numeric>

#include "netcube/protocol/messages.h"

namespace netcube::server {
namespace {

// Two grids of spawn slots: the first kCoarseSide² cubes spawn onto the coarse one, whose cells are a cube
// or more a side in every arena; a world that already holds as many spawns onto the fine one, with a slot
// for every PlayerId, whose cells in the smallest arenas are smaller than a cube (a cube spawned onto a slot
// next to another's is pushed clear).
constexpr int kCoarseSide = 16;
constexpr int kFineSide = 32;
static_assert(kFineSide * kFineSide >= protocol::kMaxPlayers);
struct Slot {
  std::int32_t x = 0;
  std::int32_t y = 0;
};

// Slot indexes (row by row) of a grid `Side` slots a side, in the order they are handed out: by distance
// from the centre of the grid, ties in grid order.
template <int Side>
std::array<int, std::size_t{Side} * Side> SlotOrder() noexcept {
  std::array<int, std::size_t{Side} * Side> order{};
  std::iota(order.begin(), order.end(), 0);
  // Twice the distance from the grid's centre, so that it stays an integer.
  const auto distance_sq = [](int index) {
    const int dx = 2 * (index % Side) - (Side - 1);
    const int dy = 2 * (index / Side) - (Side - 1);
    return dx * dx + dy * dy;
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return distance_sq(a) < distance_sq(b); });
  return order;
}

// A slot's centre: the middle of its grid cell, inside the arena (a coarse cell is at least
// kMinArenaUnits / 16 = 2 units a side, a cube's size: 4 x 2.25 units in the standard arena).
Slot SlotAt(int index, int side, const sim::Arena& arena) noexcept {
  const int col = index % side;
  const int row = index / side;
  return {std::clamp((2 * col + 1) * arena.width / (2 * side), arena.min_x(), arena.max_x()),
          std::clamp((2 * row + 1) * arena.height / (2 * side), arena.min_y(), arena.max_y())};
}

// The larger of the x and y distances: below kCubeSize the cubes overlap.
std::int32_t Gap(const Slot& slot, const sim::CubeState& cube) noexcept {
  return std::max(std::abs(slot.x - cube.x), std::abs(slot.y - cube.y));
}

}  // namespace

sim::CubeState SpawnState(std::span<const sim::PlayerCube> world, int spacing_units,
                          const sim::Arena& arena) noexcept {
  static const auto kCoarse = SlotOrder<kCoarseSide>();
  static const auto kFine = SlotOrder<kFineSide>();
  const bool coarse = world.size() < kCoarse.size();
  const std::span<const int> order = coarse ? std::span<const int>(kCoarse) : std::span<const int>(kFine);
  const int side = coarse ? kCoarseSide : kFineSide;
  // While the arena has room, a new cube appears at least `spacing` (along x or y) from every other, so
  // that a first key press does not push into a neighbour.
  const std::int32_t spacing = spacing_units * sim::kSubUnitsPerUnit;
  // The slot nearest the centre among those farthest from every cube, distances counted up to `spacing`.
  Slot chosen = SlotAt(order[0], side, arena);
  std::int32_t chosen_gap = -1;
  for (const int index : order) {
    const Slot slot = SlotAt(index, side, arena);
    std::int32_t gap = spacing;
    for (const sim::PlayerCube& p : world) gap = std::min(gap, Gap(slot, p.state));
    if (gap > chosen_gap) {
      chosen = slot;
      chosen_gap = gap;
      if (gap == spacing) break;
    }
  }
  sim::CubeState state;
  state.x = chosen.x;
  state.y = chosen.y;
  return state;
}

}  // namespace netcube::server
