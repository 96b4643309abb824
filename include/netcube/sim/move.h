#pragma once
// The movement of one cube: pure, deterministic, integer-only. The same code runs on the server, in the
// client's prediction and replay, and in the tests, so a replay equals the server's result bit for bit.
#include <cstdint>

#include "netcube/sim/sequence.h"

namespace netcube::sim {

// Fixed-point: positions in sub-units (1/kSubUnitsPerUnit of a unit), velocities in sub-units per tick.
inline constexpr std::int32_t kSubUnitsPerUnit = 1024;
inline constexpr int kTicksPerSecond = 60;  // one Move is one step of 1/60 s

inline constexpr std::int32_t kArenaWidth = 64 * kSubUnitsPerUnit;
inline constexpr std::int32_t kArenaHeight = 36 * kSubUnitsPerUnit;
inline constexpr std::int32_t kCubeSize = 2 * kSubUnitsPerUnit;
inline constexpr std::int32_t kCubeHalf = kCubeSize / 2;

inline constexpr std::int32_t kMaxSpeed = 256;     // sub-units/tick: 15 units/s
inline constexpr std::int32_t kAcceleration = 24;  // sub-units/tick²: full speed in ~11 ticks
inline constexpr std::int32_t kFriction = 16;      // sub-units/tick²: to rest in 16 ticks

// Centre of the cube; it stays inside [kCubeHalf, kArenaWidth - kCubeHalf] (and likewise for y).
inline constexpr std::int32_t kMinX = kCubeHalf;
inline constexpr std::int32_t kMaxX = kArenaWidth - kCubeHalf;
inline constexpr std::int32_t kMinY = kCubeHalf;
inline constexpr std::int32_t kMaxY = kArenaHeight - kCubeHalf;

// Held directions for one step. Screen convention: y grows downward, so Up decreases y.
enum Button : std::uint8_t { kUp = 1, kDown = 2, kLeft = 4, kRight = 8 };
inline constexpr std::uint8_t kButtonMask = kUp | kDown | kLeft | kRight;

struct Input {
  Seq seq = 0;
  std::uint8_t buttons = 0;  // Button bits
  friend bool operator==(const Input&, const Input&) = default;
};

struct CubeState {
  std::int32_t x = kArenaWidth / 2;
  std::int32_t y = kArenaHeight / 2;
  std::int32_t vx = 0;
  std::int32_t vy = 0;
  Seq last_input = 0;  // sequence of the last input applied (the UNET tutorial's moveNum)
  // The buttons of the last input applied, and the sequence of the first input that held them: what the
  // cube is doing, which delta snapshots use to predict it (Teeworlds sends a character's direction too).
  std::uint8_t buttons = 0;
  Seq held_since = 0;
  friend bool operator==(const CubeState&, const CubeState&) = default;
};

// Advances `state` by one tick under `input`: acceleration toward the held direction (opposite keys
// cancel), speed capped at kMaxSpeed in every direction, friction on an axis with no key held, and the
// arena's walls, which stop the cube.
CubeState Move(const CubeState& state, const Input& input) noexcept;

// `count` Moves with `input`: bit for bit what calling Move `count` times gives, in far fewer steps. The
// velocity a Move gives depends only on the velocity and the buttons, so once a Move leaves the velocity as
// it was, the cube glides in a straight line until it reaches a wall, and the glide is taken in one step.
// A change of speed settles within about 55 Moves and a held direction meets at most two walls, so the
// cost does not grow with `count`: a delta snapshot's prediction costs the same whatever its baseline's age.
// `moves_stepped`, when given, is increased by the Moves actually run (for tests of that bound).
CubeState MoveRepeated(const CubeState& state, const Input& input, int count,
                       std::uint64_t* moves_stepped = nullptr) noexcept;

// Same position and velocity; `last_input` is bookkeeping, not physics.
constexpr bool SamePhysics(const CubeState& a, const CubeState& b) noexcept {
  return a.x == b.x && a.y == b.y && a.vx == b.vx && a.vy == b.vy;
}

// 64-bit FNV-1a over the state's fields, for determinism checks.
std::uint64_t HashState(const CubeState& state, std::uint64_t seed = 14695981039346656037ull) noexcept;

}  // namespace netcube::sim
