#include "netcube/sim/move.h"

#include <algorithm>
#include <cmath>

namespace netcube::sim {
namespace {

// 1/sqrt(2) in 1/256ths, so a diagonal key pair accelerates no faster than a single key.
constexpr std::int32_t kDiagonalScale = 181;

std::int64_t CeilSqrt(std::int64_t n) noexcept {
  // A double's square root, then made exact: the same integer on every machine however the root rounds.
  if (n <= 0) return 0;
  auto root = static_cast<std::int64_t>(std::sqrt(static_cast<double>(n)));
  while (root * root < n) ++root;
  while ((root - 1) * (root - 1) >= n) --root;
  return root;
}

// v * kMaxSpeed / speed, truncated toward zero. In 32 bits when it fits (a velocity just over the cap
// always does), which divides several times faster than 64 bits, with the same result.
std::int32_t ScaleToMaxSpeed(std::int32_t v, std::int64_t speed) noexcept {
  constexpr std::int32_t kFits = std::int32_t{1} << 22;
  if (v > -kFits && v < kFits && speed <= std::int64_t{kFits} * kMaxSpeed) {
    return v * kMaxSpeed / static_cast<std::int32_t>(speed);
  }
  return static_cast<std::int32_t>(std::int64_t{v} * kMaxSpeed / speed);
}

std::int32_t ApproachZero(std::int32_t v, std::int32_t amount) noexcept {
  if (v > 0) return std::max(0, v - amount);
  return std::min(0, v + amount);
}

// Advances one axis and stops the cube at the walls.
void Integrate(std::int32_t& pos, std::int32_t& vel, std::int32_t lo, std::int32_t hi) noexcept {
  pos += vel;
  if (pos < lo || pos > hi) {
    pos = std::clamp(pos, lo, hi);
    vel = 0;
  }
}

}  // namespace

CubeState Move(const CubeState& state, const Input& input, const Arena& arena) noexcept {
  CubeState next = state;
  Advance(next, input, arena);
  return next;
}

void Advance(CubeState& state, const Input& input, const Arena& arena) noexcept {
  const std::uint8_t b = input.buttons;
  const std::int32_t dir_x = ((b & kRight) ? 1 : 0) - ((b & kLeft) ? 1 : 0);
  const std::int32_t dir_y = ((b & kDown) ? 1 : 0) - ((b & kUp) ? 1 : 0);
  const std::int32_t accel =
      (dir_x != 0 && dir_y != 0) ? kAcceleration * kDiagonalScale / 256 : kAcceleration;

  state.vx = dir_x != 0 ? state.vx + dir_x * accel : ApproachZero(state.vx, kFriction);
  state.vy = dir_y != 0 ? state.vy + dir_y * accel : ApproachZero(state.vy, kFriction);

  const std::int64_t speed_sq = std::int64_t{state.vx} * state.vx + std::int64_t{state.vy} * state.vy;
  if (speed_sq > std::int64_t{kMaxSpeed} * kMaxSpeed) {
    // Rounding the length up keeps the scaled vector within kMaxSpeed.
    const std::int64_t speed = CeilSqrt(speed_sq);
    state.vx = ScaleToMaxSpeed(state.vx, speed);
    state.vy = ScaleToMaxSpeed(state.vy, speed);
  }

  Integrate(state.x, state.vx, arena.min_x(), arena.max_x());
  Integrate(state.y, state.vy, arena.min_y(), arena.max_y());
  state.last_input = input.seq;
  state.buttons = input.buttons & kButtonMask;
}

std::uint64_t HashState(const CubeState& state, std::uint64_t seed) noexcept {
  std::uint64_t h = seed;
  const auto mix = [&h](std::uint32_t value) {
    for (int i = 0; i < 4; ++i) {
      h ^= (value >> (8 * i)) & 0xFFu;
      h *= 1099511628211ull;
    }
  };
  mix(static_cast<std::uint32_t>(state.x));
  mix(static_cast<std::uint32_t>(state.y));
  mix(static_cast<std::uint32_t>(state.vx));
  mix(static_cast<std::uint32_t>(state.vy));
  mix(state.last_input);
  return h;
}

}  // namespace netcube::sim
