#include "netcube/sim/world.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace netcube::sim {
namespace {

// Relaxation clears ordinary contacts in a few passes; in a crowded arena a sub-unit overlap can creep along
// a chain of touching cubes for many more, and Settle is cheaper than chasing it.
constexpr int kMaxResolvePasses = 8;
constexpr int kIdCount = std::numeric_limits<PlayerId>::max() + 1;

// Moves `pos` by `delta` within [lo, hi]; returns the part of `delta` the wall refused.
std::int32_t ShiftWithin(std::int32_t& pos, std::int32_t delta, std::int32_t lo, std::int32_t hi) noexcept {
  const std::int32_t target = pos + delta;
  const std::int32_t clamped = std::clamp(target, lo, hi);
  pos = clamped;
  return target - clamped;
}

// Velocity toward the other cube along the push axis is stopped; velocity away from it is kept.
void StopToward(std::int32_t& vel, std::int32_t push_sign) noexcept {
  if (vel * push_sign < 0) vel = 0;
}

// Separates a and b (a has the lower id) along one axis. Returns true if they overlapped.
bool Separate(CubeState& a, CubeState& b) noexcept {
  const std::int32_t dx = b.x - a.x;
  const std::int32_t dy = b.y - a.y;
  const std::int32_t overlap_x = kCubeSize - std::abs(dx);
  const std::int32_t overlap_y = kCubeSize - std::abs(dy);
  if (overlap_x <= 0 || overlap_y <= 0) return false;

  const bool along_x = overlap_x <= overlap_y;
  std::int32_t& pa = along_x ? a.x : a.y;
  std::int32_t& pb = along_x ? b.x : b.y;
  std::int32_t& va = along_x ? a.vx : a.vy;
  std::int32_t& vb = along_x ? b.vx : b.vy;
  const std::int32_t lo = along_x ? kMinX : kMinY;
  const std::int32_t hi = along_x ? kMaxX : kMaxY;
  const std::int32_t overlap = along_x ? overlap_x : overlap_y;
  // b goes toward the side it is already on; exact coincidence sends the higher id the positive way.
  const std::int32_t sign = (along_x ? dx : dy) >= 0 ? 1 : -1;

  const std::int32_t half = overlap / 2;
  std::int32_t refused_a = ShiftWithin(pa, -sign * half, lo, hi);
  std::int32_t refused_b = ShiftWithin(pb, sign * (overlap - half) - refused_a, lo, hi);
  if (refused_b != 0) ShiftWithin(pa, -refused_b, lo, hi);
  StopToward(va, -sign);
  StopToward(vb, sign);
  return true;
}

// The broad phase: cube-sized cells over the arena. Two cubes overlap only when their centres are less than
// a cube apart on both axes, so only cubes in the same or neighbouring cells can; a pass then looks at a
// handful of neighbours per cube instead of every other cube.
constexpr int kGridColumns = kArenaWidth / kCubeSize + 1;
constexpr int kGridRows = kArenaHeight / kCubeSize + 1;

class Grid {
 public:
  // Files every cube (by its index in `cubes`) under the cell of its centre, each cell in index order.
  void Build(std::span<CubeState* const> cubes) noexcept {
    first_.fill(0);
    for (std::size_t i = 0; i < cubes.size(); ++i) {
      column_[i] = static_cast<std::uint8_t>(std::clamp(cubes[i]->x / kCubeSize, 0, kGridColumns - 1));
      row_[i] = static_cast<std::uint8_t>(std::clamp(cubes[i]->y / kCubeSize, 0, kGridRows - 1));
      ++first_[Cell(column_[i], row_[i]) + 1];
    }
    for (std::size_t c = 1; c < first_.size(); ++c)
      first_[c] = static_cast<std::uint16_t>(first_[c] + first_[c - 1]);
    std::array<std::uint16_t, kCells> next{};
    std::copy(first_.begin(), first_.end() - 1, next.begin());
    for (std::size_t i = 0; i < cubes.size(); ++i)
      items_[next[Cell(column_[i], row_[i])]++] = static_cast<std::uint16_t>(i);
  }

  // Calls visit(j) for every cube j other than `i` in i's cell and the cells around it (as filed by Build).
  template <class Visit>
  void ForEachNearby(std::size_t i, Visit&& visit) const noexcept {
    for (int row = std::max(0, row_[i] - 1); row <= std::min(kGridRows - 1, row_[i] + 1); ++row) {
      for (int column = std::max(0, column_[i] - 1); column <= std::min(kGridColumns - 1, column_[i] + 1);
           ++column) {
        const std::size_t cell = Cell(column, row);
        for (std::size_t k = first_[cell]; k < first_[cell + 1]; ++k) {
          if (items_[k] != i) visit(static_cast<std::size_t>(items_[k]));
        }
      }
    }
  }

 private:
  static constexpr std::size_t kCells = static_cast<std::size_t>(kGridColumns) * kGridRows;
  static std::size_t Cell(int column, int row) noexcept {
    return static_cast<std::size_t>(row * kGridColumns + column);
  }

  std::array<std::uint16_t, kCells + 1>
      first_{};  // the cubes of cell c: items_[first_[c]] .. items_[first_[c + 1] - 1]
  std::array<std::uint16_t, kIdCount> items_{};
  std::array<std::uint8_t, kIdCount> column_{};
  std::array<std::uint8_t, kIdCount> row_{};
};

// One relaxation pass: every overlapping pair, found from the positions at the start of the pass, pushed
// apart in id order. A push that makes a new overlap with a cube out of reach is found by the next pass.
bool SeparatePass(std::span<CubeState* const> ordered, Grid& grid) noexcept {
  grid.Build(ordered);
  std::array<std::size_t, kIdCount> later{};
  bool any = false;
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    std::size_t count = 0;
    grid.ForEachNearby(i, [&](std::size_t j) {
      if (j > i) later[count++] = j;
    });
    std::sort(later.begin(), later.begin() + static_cast<std::ptrdiff_t>(count));
    for (std::size_t k = 0; k < count; ++k) any |= Separate(*ordered[i], *ordered[later[k]]);
  }
  return any;
}

// True when a cube centred at (x, y) would overlap `other`.
bool Overlaps(std::int32_t x, std::int32_t y, const CubeState& other) noexcept {
  return std::abs(x - other.x) < kCubeSize && std::abs(y - other.y) < kCubeSize;
}

// The nearest spot (by |dx| + |dy|) for `cube` that overlaps none of `settled`, or false if there is none.
// Some nearest spot has x equal to the cube's own x or an edge of a settled cube, and y likewise among
// the cubes that block that x, so only those candidates are tried, nearest x first. Ties go to the smaller
// |dx|, then the smaller x, then the first y candidate, which depends only on the id order of `settled`.
bool FindNearestFreeSpot(const CubeState& cube, std::span<CubeState* const> settled, std::int32_t& best_x,
                         std::int32_t& best_y) noexcept {
  std::array<std::int32_t, 2 * kIdCount + 1> xs{};
  std::size_t x_count = 0;
  const auto add_x = [&](std::int32_t x) {
    if (x >= kMinX && x <= kMaxX) xs[x_count++] = x;
  };
  add_x(cube.x);
  for (const CubeState* other : settled) {
    add_x(other->x - kCubeSize);
    add_x(other->x + kCubeSize);
  }
  const auto by_distance = [&cube](std::int32_t a, std::int32_t b) {
    const std::int32_t da = std::abs(a - cube.x);
    const std::int32_t db = std::abs(b - cube.x);
    return da != db ? da < db : a < b;
  };
  std::sort(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(x_count), by_distance);

  std::array<const CubeState*, kIdCount> blockers{};  // the settled cubes a cube at this x could overlap
  std::int64_t best_cost = std::numeric_limits<std::int64_t>::max();
  for (std::size_t i = 0; i < x_count; ++i) {
    const std::int32_t x = xs[i];
    const std::int64_t cost_x = std::abs(x - cube.x);
    if (cost_x >= best_cost) break;  // every later x is at least as far
    if (i > 0 && x == xs[i - 1]) continue;
    std::size_t blocker_count = 0;
    for (const CubeState* other : settled) {
      if (std::abs(x - other->x) < kCubeSize) blockers[blocker_count++] = other;
    }
    const std::span<const CubeState* const> column(blockers.data(), blocker_count);
    const auto try_y = [&](std::int32_t y) {
      if (y < kMinY || y > kMaxY) return;
      const std::int64_t cost = cost_x + std::abs(y - cube.y);
      if (cost >= best_cost) return;
      for (const CubeState* other : column) {
        if (Overlaps(x, y, *other)) return;
      }
      best_cost = cost;
      best_x = x;
      best_y = y;
    };
    try_y(cube.y);
    for (const CubeState* other : column) {
      try_y(other->y - kCubeSize);
      try_y(other->y + kCubeSize);
    }
  }
  return best_cost != std::numeric_limits<std::int64_t>::max();
}

// Guaranteed separation for what relaxation leaves behind: in id order, each cube that overlaps one
// before it steps to the nearest spot clear of all of them, and its velocity back toward where it was
// stops. Cubes already clear do not move. The grid, filed before the first step, finds the neighbours
// that have not moved; the few that have are checked from their own list.
void Settle(std::span<CubeState* const> ordered, Grid& grid) noexcept {
  grid.Build(ordered);
  std::array<std::size_t, kIdCount> moved{};
  std::size_t moved_count = 0;
  for (std::size_t i = 1; i < ordered.size(); ++i) {
    CubeState& cube = *ordered[i];
    const std::span<CubeState* const> settled = ordered.first(i);
    bool clear = std::none_of(moved.begin(), moved.begin() + static_cast<std::ptrdiff_t>(moved_count),
                              [&](std::size_t j) { return Overlaps(cube.x, cube.y, *ordered[j]); });
    grid.ForEachNearby(
        i, [&](std::size_t j) { clear = clear && (j > i || !Overlaps(cube.x, cube.y, *ordered[j])); });
    if (clear) continue;
    std::int32_t x = cube.x;
    std::int32_t y = cube.y;
    if (!FindNearestFreeSpot(cube, settled, x, y)) continue;  // no room left in the arena
    if (x != cube.x) StopToward(cube.vx, x > cube.x ? 1 : -1);
    if (y != cube.y) StopToward(cube.vy, y > cube.y ? 1 : -1);
    cube.x = x;
    cube.y = y;
    moved[moved_count++] = i;
  }
}

}  // namespace

void ResolveOverlaps(std::span<PlayerCube> cubes) noexcept {
  // Visiting cubes in id order (not list order) makes the result independent of how they are listed.
  std::array<CubeState*, kIdCount> by_id{};
  for (PlayerCube& cube : cubes) by_id[cube.id] = &cube.state;
  std::array<CubeState*, kIdCount> ordered{};
  std::size_t count = 0;
  for (CubeState* state : by_id) {
    if (state != nullptr) ordered[count++] = state;
  }

  const std::span<CubeState* const> cubes_by_id(ordered.data(), count);
  Grid grid;
  for (int pass = 0; pass < kMaxResolvePasses; ++pass) {
    if (!SeparatePass(cubes_by_id, grid)) return;
  }
  // Pairwise pushes share a pile-up against a wall ever more thinly and can stall a sub-unit short.
  Settle(cubes_by_id, grid);
}

void StepWorld(std::span<PlayerCube> all, std::span<const PlayerStep> steps, bool collisions) noexcept {
  for (const PlayerStep& step : steps) {
    for (const Input& input : step.inputs) step.cube->state = Move(step.cube->state, input);
  }
  if (collisions) ResolveOverlaps(all);
}

}  // namespace netcube::sim
