#include "spawn.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <numeric>

namespace netcube::server {
namespace {

constexpr int kGridSide = 16;  // kGridSide² slots: one for every PlayerId
constexpr std::size_t kSlotCount = kGridSide * kGridSide;
struct Slot {
  std::int32_t x = 0;
  std::int32_t y = 0;
};

// Slot indexes (row by row) in the order they are handed out: by distance from the centre of the grid,
// ties in grid order.
std::array<int, kSlotCount> SlotOrder() noexcept {
  std::array<int, kSlotCount> order{};
  std::iota(order.begin(), order.end(), 0);
  // Twice the distance from the grid's centre (7.5), so that it stays an integer.
  const auto distance_sq = [](int index) {
    const int dx = 2 * (index % kGridSide) - (kGridSide - 1);
    const int dy = 2 * (index / kGridSide) - (kGridSide - 1);
    return dx * dx + dy * dy;
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return distance_sq(a) < distance_sq(b); });
  return order;
}

// A slot's centre: the middle of its grid cell. Cells are at least kMinArenaUnits / 16 = 2 units a side,
// a cube's size, so cubes on distinct slots never overlap (4 x 2.25 units in the standard arena).
Slot SlotAt(int index, const sim::Arena& arena) noexcept {
  const int col = index % kGridSide;
  const int row = index / kGridSide;
  return {(2 * col + 1) * arena.width / (2 * kGridSide), (2 * row + 1) * arena.height / (2 * kGridSide)};
}

// The larger of the x and y distances: below kCubeSize the cubes overlap.
std::int32_t Gap(const Slot& slot, const sim::CubeState& cube) noexcept {
  return std::max(std::abs(slot.x - cube.x), std::abs(slot.y - cube.y));
}

}  // namespace

sim::CubeState SpawnState(std::span<const sim::PlayerCube> world, int spacing_units,
                          const sim::Arena& arena) noexcept {
  static const std::array<int, kSlotCount> kOrder = SlotOrder();
  // While the arena has room, a new cube appears at least `spacing` (along x or y) from every other, so
  // that a first key press does not push into a neighbour.
  const std::int32_t spacing = spacing_units * sim::kSubUnitsPerUnit;
  // The slot nearest the centre among those farthest from every cube, distances counted up to `spacing`.
  Slot chosen = SlotAt(kOrder[0], arena);
  std::int32_t chosen_gap = -1;
  for (const int index : kOrder) {
    const Slot slot = SlotAt(index, arena);
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
