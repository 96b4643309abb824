#include "netcube/sim/move.h"

#include <algorithm>
#include <bit>

namespace netcube::sim {
namespace {

// 1/sqrt(2) in 1/256ths, so a diagonal key pair accelerates no faster than a single key.
constexpr std::int32_t kDiagonalScale = 181;

std::int64_t CeilSqrt(std::int64_t n) noexcept {
  // Integer Newton iteration: exact and identical on every compiler, unlike std::sqrt on doubles. It
  // starts from a power of two at or above the root, so it takes a few steps (delta snapshots run Move
  // for every cube they predict).
  if (n <= 0) return 0;
  std::int64_t r = std::int64_t{1} << ((std::bit_width(static_cast<std::uint64_t>(n)) + 1) / 2);
  std::int64_t next = (r + n / r) / 2;
  while (next < r) {
    r = next;
    next = (r + n / r) / 2;
  }
  return r * r < n ? r + 1 : r;
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

CubeState Move(const CubeState& state, const Input& input) noexcept {
  CubeState next = state;
  const std::uint8_t b = input.buttons;
  const std::int32_t dir_x = ((b & kRight) ? 1 : 0) - ((b & kLeft) ? 1 : 0);
  const std::int32_t dir_y = ((b & kDown) ? 1 : 0) - ((b & kUp) ? 1 : 0);
  const std::int32_t accel =
      (dir_x != 0 && dir_y != 0) ? kAcceleration * kDiagonalScale / 256 : kAcceleration;

  next.vx = dir_x != 0 ? next.vx + dir_x * accel : ApproachZero(next.vx, kFriction);
  next.vy = dir_y != 0 ? next.vy + dir_y * accel : ApproachZero(next.vy, kFriction);

  const std::int64_t speed_sq = std::int64_t{next.vx} * next.vx + std::int64_t{next.vy} * next.vy;
  if (speed_sq > std::int64_t{kMaxSpeed} * kMaxSpeed) {
    // Rounding the length up keeps the scaled vector within kMaxSpeed.
    const std::int64_t speed = CeilSqrt(speed_sq);
    next.vx = static_cast<std::int32_t>(std::int64_t{next.vx} * kMaxSpeed / speed);
    next.vy = static_cast<std::int32_t>(std::int64_t{next.vy} * kMaxSpeed / speed);
  }

  Integrate(next.x, next.vx, kMinX, kMaxX);
  Integrate(next.y, next.vy, kMinY, kMaxY);
  next.last_input = input.seq;
  if ((input.buttons & kButtonMask) != state.buttons) next.held_since = input.seq;
  next.buttons = input.buttons & kButtonMask;
  return next;
}

namespace {

// The Moves a cube at `pos` gliding at `vel` makes before it would pass lo or hi (at most `limit`).
int GlideSteps(std::int32_t pos, std::int32_t vel, std::int32_t lo, std::int32_t hi, int limit) noexcept {
  if (vel > 0) return std::min(limit, (hi - pos) / vel);
  if (vel < 0) return std::min(limit, (pos - lo) / -vel);
  return limit;
}

}  // namespace

CubeState MoveRepeated(const CubeState& state, const Input& input, int count,
                       std::uint64_t* moves_stepped) noexcept {
  CubeState s = state;
  int left = count;
  while (left > 0) {
    const std::int32_t vx = s.vx;
    const std::int32_t vy = s.vy;
    s = Move(s, input);
    --left;
    if (moves_stepped != nullptr) ++*moves_stepped;
    // The velocity held: the next Move starts from the same velocity and buttons, so it gives the same
    // one again. An axis that moved glides on; one stopped at a wall (velocity 0 before and after) was
    // pushed into it and stays. Move has already put the cube inside the arena.
    if (left > 0 && s.vx == vx && s.vy == vy) {
      const int glide =
          std::min(GlideSteps(s.x, s.vx, kMinX, kMaxX, left), GlideSteps(s.y, s.vy, kMinY, kMaxY, left));
      s.x += glide * s.vx;
      s.y += glide * s.vy;
      left -= glide;
    }
  }
  return s;
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
