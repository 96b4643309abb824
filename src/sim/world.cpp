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
}

void StepWorld(std::span<PlayerCube> all, std::span<const PlayerStep> steps, bool collisions) noexcept {
  for (const PlayerStep& step : steps) {
    for (const Input& input : step.inputs) step.cube->state = Move(step.cube->state, input);
  }
  if (collisions) ResolveOverlaps(all);
}

}  // namespace netcube::sim
