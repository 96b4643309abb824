#include "netcube/sim/world.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>

namespace netcube::sim {
namespace {

constexpr int kMaxResolvePasses = 32;
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

// True when a cube centred at (x, y) would overlap `other`.
bool Overlaps(std::int32_t x, std::int32_t y, const CubeState& other) noexcept {
  return std::abs(x - other.x) < kCubeSize && std::abs(y - other.y) < kCubeSize;
}

// The nearest spot (by |dx| + |dy|) for `cube` that overlaps none of `settled`, or false if there is none.
// Some nearest spot has x equal to the cube's own x or an edge of a settled cube, and y likewise among
// the cubes that block that x, so only those candidates are tried; ties go to the first candidate, which
// depends only on the id order of `settled`.
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

  std::int64_t best_cost = std::numeric_limits<std::int64_t>::max();
  for (std::size_t i = 0; i < x_count; ++i) {
    const std::int32_t x = xs[i];
    const std::int64_t cost_x = std::abs(x - cube.x);
    if (cost_x >= best_cost) continue;
    const auto try_y = [&](std::int32_t y) {
      if (y < kMinY || y > kMaxY) return;
      const std::int64_t cost = cost_x + std::abs(y - cube.y);
      if (cost >= best_cost) return;
      for (const CubeState* other : settled) {
        if (Overlaps(x, y, *other)) return;
      }
      best_cost = cost;
      best_x = x;
      best_y = y;
    };
    try_y(cube.y);
    for (const CubeState* other : settled) {
      if (std::abs(x - other->x) >= kCubeSize) continue;  // does not block this column
      try_y(other->y - kCubeSize);
      try_y(other->y + kCubeSize);
    }
  }
  return best_cost != std::numeric_limits<std::int64_t>::max();
}

// Guaranteed separation for what relaxation leaves behind: in id order, each cube that overlaps one
// before it steps to the nearest spot clear of all of them, and its velocity back toward where it was
// stops. Cubes already clear do not move.
void Settle(std::span<CubeState* const> ordered) noexcept {
  for (std::size_t i = 1; i < ordered.size(); ++i) {
    CubeState& cube = *ordered[i];
    const std::span<CubeState* const> settled = ordered.first(i);
    const bool clear = std::none_of(settled.begin(), settled.end(), [&cube](const CubeState* other) {
      return Overlaps(cube.x, cube.y, *other);
    });
    if (clear) continue;
    std::int32_t x = cube.x;
    std::int32_t y = cube.y;
    if (!FindNearestFreeSpot(cube, settled, x, y)) continue;  // no room left in the arena
    if (x != cube.x) StopToward(cube.vx, x > cube.x ? 1 : -1);
    if (y != cube.y) StopToward(cube.vy, y > cube.y ? 1 : -1);
    cube.x = x;
    cube.y = y;
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

  for (int pass = 0; pass < kMaxResolvePasses; ++pass) {
    bool any = false;
    for (std::size_t i = 0; i < count; ++i) {
      for (std::size_t j = i + 1; j < count; ++j) any |= Separate(*ordered[i], *ordered[j]);
    }
    if (!any) return;
  }
  // Pairwise pushes share a pile-up against a wall ever more thinly and can stall a sub-unit short.
  Settle(std::span<CubeState* const>(ordered.data(), count));
}

void StepWorld(std::span<PlayerCube> all, std::span<const PlayerStep> steps, bool collisions) noexcept {
  for (const PlayerStep& step : steps) {
    for (const Input& input : step.inputs) step.cube->state = Move(step.cube->state, input);
  }
  if (collisions) ResolveOverlaps(all);
}

}  // namespace netcube::sim
