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

// Slots in the order they are handed out: by distance from the centre of the grid, ties in grid order.
std::array<Slot, kSlotCount> OrderedSlots() noexcept {
  std::array<int, kSlotCount> order{};
  std::iota(order.begin(), order.end(), 0);
  // Twice the distance from the grid's centre (7.5), so that it stays an integer.
  const auto distance_sq = [](int index) {
    const int dx = 2 * (index % kGridSide) - (kGridSide - 1);
    const int dy = 2 * (index / kGridSide) - (kGridSide - 1);
    return dx * dx + dy * dy;
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return distance_sq(a) < distance_sq(b); });
  std::array<Slot, kSlotCount> slots{};
  for (std::size_t i = 0; i < kSlotCount; ++i) {
    const int col = order[i] % kGridSide;
    const int row = order[i] / kGridSide;
    // Slot centres: the middle of each grid cell. Cells are 4 x 2.25 units, wider than a cube both ways.
    slots[i].x = (2 * col + 1) * sim::kArenaWidth / (2 * kGridSide);
    slots[i].y = (2 * row + 1) * sim::kArenaHeight / (2 * kGridSide);
  }
  return slots;
}

bool Overlaps(const Slot& slot, const sim::CubeState& cube) noexcept {
  return std::abs(slot.x - cube.x) < sim::kCubeSize && std::abs(slot.y - cube.y) < sim::kCubeSize;
}

}  // namespace

sim::CubeState SpawnState(std::span<const sim::PlayerCube> world, sim::PlayerId id) noexcept {
  static const std::array<Slot, kSlotCount> kSlots = OrderedSlots();
  const auto is_clear = [&world](const Slot& slot) {
    return std::none_of(world.begin(), world.end(), [&slot](const sim::PlayerCube& p) { return Overlaps(slot, p.state); });
  };
  Slot chosen = kSlots[id];
  for (std::size_t i = 0; i < kSlotCount; ++i) {
    const Slot& candidate = kSlots[(id + i) % kSlotCount];
    if (is_clear(candidate)) {
      chosen = candidate;
      break;
    }
  }
  sim::CubeState state;
  state.x = chosen.x;
  state.y = chosen.y;
  return state;
}

}  // namespace netcube::server
