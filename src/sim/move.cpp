#include "netcube/sim/move.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <limits>

namespace netcube::sim {
namespace {

// 1/sqrt(2) in 1/256ths, so a diagonal key pair accelerates no faster than a single key.
constexpr std::int32_t kDiagonalScale = 181;

std::int64_t CeilSqrt(std::int64_t n) noexcept {
  // The integer square root digit by digit (two bits of n per step, no division): exact and identical on
  // every compiler, unlike std::sqrt on doubles, and cheap, since delta snapshots run Move for every cube
  // they predict on both ends. A speed over the cap is below 2^18 squared: about 9 steps.
  if (n <= 0) return 0;
  auto rest = static_cast<std::uint64_t>(n);
  std::uint64_t root = 0;
  std::uint64_t bit = std::uint64_t{1} << (static_cast<int>(std::bit_width(rest) - 1) & ~1);
  for (; bit != 0; bit >>= 2) {
    if (rest >= root + bit) {
      rest -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
  }
  return static_cast<std::int64_t>(rest == 0 ? root : root + 1);
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
    next.vx = ScaleToMaxSpeed(next.vx, speed);
    next.vy = ScaleToMaxSpeed(next.vy, speed);
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

namespace {

// How one axis's velocity changes per Move while it changes linearly: by the acceleration with a key held,
// by friction toward 0 without (linear while the speed is at least the friction), and for how many Moves.
struct AxisRamp {
  std::int32_t step = 0;
  int moves = 0;
};

AxisRamp RampOf(std::int32_t v, std::int32_t dir, std::int32_t accel, int limit) noexcept {
  if (dir != 0) return {dir * accel, limit};
  if (v == 0) return {0, limit};
  return {v > 0 ? -kFriction : kFriction, std::min(limit, std::abs(v) / kFriction)};
}

// The velocity after j Moves on a ramp, and the distance those Moves cover.
std::int64_t RampVelocity(std::int32_t v, std::int32_t step, int j) noexcept {
  return std::int64_t{v} + std::int64_t{j} * step;
}
std::int64_t RampDistance(std::int32_t v, std::int32_t step, int j) noexcept {
  return std::int64_t{j} * v + std::int64_t{step} * j * (j + 1) / 2;
}

// Moves with `input` (whose buttons the cube already holds) in one step, bit for bit what Move gives them
// one at a time, while both velocities change linearly: no speed cap (the squared speed is convex in the
// Move count, so the ends bound it), no velocity changing sign (so the positions are monotone) and no wall
// (so the end bounds them). Returns the Moves taken, at most `left`; 0 when fewer than 2 would do.
int RampSteps(CubeState& s, const Input& input, int left) noexcept {
  const std::uint8_t b = input.buttons;
  const std::int32_t dir_x = ((b & kRight) ? 1 : 0) - ((b & kLeft) ? 1 : 0);
  const std::int32_t dir_y = ((b & kDown) ? 1 : 0) - ((b & kUp) ? 1 : 0);
  const std::int32_t accel =
      (dir_x != 0 && dir_y != 0) ? kAcceleration * kDiagonalScale / 256 : kAcceleration;
  const AxisRamp rx = RampOf(s.vx, dir_x, accel, left);
  const AxisRamp ry = RampOf(s.vy, dir_y, accel, left);
  int k = std::min(rx.moves, ry.moves);
  // Stop before a velocity changes sign.
  const auto before_sign_change = [](std::int32_t v, std::int32_t step) {
    return v != 0 && step != 0 && (v > 0) != (step > 0) ? std::abs(v) / std::abs(step)
                                                        : std::numeric_limits<int>::max();
  };
  k = std::min({k, before_sign_change(s.vx, rx.step), before_sign_change(s.vy, ry.step)});
  const auto speed_sq = [&](int j) {
    const std::int64_t vx = RampVelocity(s.vx, rx.step, j);
    const std::int64_t vy = RampVelocity(s.vy, ry.step, j);
    return vx * vx + vy * vy;
  };
  constexpr std::int64_t kCapSq = std::int64_t{kMaxSpeed} * kMaxSpeed;
  if (k < 2 || speed_sq(1) > kCapSq) return 0;
  if (speed_sq(k) > kCapSq) {
    // The largest k whose speed is within the cap: the squared speed rises past it once.
    int lo = 1;
    int hi = k;
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      (speed_sq(mid) > kCapSq ? hi : lo) = mid;
    }
    k = lo;
  }
  if (k < 2) return 0;
  const std::int64_t x = s.x + RampDistance(s.vx, rx.step, k);
  const std::int64_t y = s.y + RampDistance(s.vy, ry.step, k);
  if (x < kMinX || x > kMaxX || y < kMinY || y > kMaxY) return 0;
  s.x = static_cast<std::int32_t>(x);
  s.y = static_cast<std::int32_t>(y);
  s.vx = static_cast<std::int32_t>(RampVelocity(s.vx, rx.step, k));
  s.vy = static_cast<std::int32_t>(RampVelocity(s.vy, ry.step, k));
  return k;
}

}  // namespace

CubeState MoveRepeated(const CubeState& state, const Input& input, int count,
                       std::uint64_t* moves_stepped) noexcept {
  CubeState s = state;
  int left = count;
  while (left > 0) {
    const std::int32_t vx = s.vx;
    const std::int32_t vy = s.vy;
    // After the first Move (which does the bookkeeping) a velocity changing linearly is taken in one step.
    const int ramp = left < count ? RampSteps(s, input, left) : 0;
    if (ramp > 0) {
      left -= ramp;
    } else {
      s = Move(s, input);
      --left;
    }
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
