#pragma once
// The movement of one cube: pure, deterministic, integer-only. The same code runs on the server, in the
// client's prediction and replay, and in the tests, so a replay equals the server's result bit for bit.
#include <cstdint>

#include "netcube/sim/sequence.h"

namespace netcube::sim {

// Fixed-point: positions in sub-units (1/kSubUnitsPerUnit of a unit), velocities in sub-units per tick.
inline constexpr std::int32_t kSubUnitsPerUnit = 1024;
inline constexpr int kTicksPerSecond = 60;  // one Move is one step of 1/60 s

inline constexpr std::int32_t kCubeSize = 2 * kSubUnitsPerUnit;
inline constexpr std::int32_t kCubeHalf = kCubeSize / 2;

// The walls: a session's arena, chosen by the server and told in the Welcome. Sides are whole units, so a
// side in sub-units is a multiple of kSubUnitsPerUnit.
inline constexpr std::int32_t kMinArenaUnits = 32;    // a spawn grid of 16 × 16 cubes
inline constexpr std::int32_t kMaxArenaUnits = 4096;  // positions stay within 22 bits
struct Arena {
  std::int32_t width = 64 * kSubUnitsPerUnit;  // sub-units
  std::int32_t height = 36 * kSubUnitsPerUnit;

  static constexpr Arena OfUnits(std::int32_t width_units, std::int32_t height_units) noexcept {
    return {width_units * kSubUnitsPerUnit, height_units * kSubUnitsPerUnit};
  }
  constexpr std::int32_t width_units() const noexcept { return width / kSubUnitsPerUnit; }
  constexpr std::int32_t height_units() const noexcept { return height / kSubUnitsPerUnit; }
  // Centre of the cube; it stays inside [min_x, max_x] and [min_y, max_y].
  static constexpr std::int32_t min_x() noexcept { return kCubeHalf; }
  static constexpr std::int32_t min_y() noexcept { return kCubeHalf; }
  constexpr std::int32_t max_x() const noexcept { return width - kCubeHalf; }
  constexpr std::int32_t max_y() const noexcept { return height - kCubeHalf; }
  constexpr bool Contains(std::int32_t x, std::int32_t y) const noexcept {
    return x >= min_x() && x <= max_x() && y >= min_y() && y <= max_y();
  }
  // Whole units within [kMinArenaUnits, kMaxArenaUnits] on both sides.
  constexpr bool Valid() const noexcept {
    const auto side_ok = [](std::int32_t side) {
      return side % kSubUnitsPerUnit == 0 && side >= kMinArenaUnits * kSubUnitsPerUnit &&
             side <= kMaxArenaUnits * kSubUnitsPerUnit;
    };
    return side_ok(width) && side_ok(height);
  }
  friend bool operator==(const Arena&, const Arena&) = default;
};
// 64 × 36 units: what a 16:9 window shows whole.
inline constexpr Arena kStandardArena{};
inline constexpr Arena kLargestArena = Arena::OfUnits(kMaxArenaUnits, kMaxArenaUnits);

inline constexpr std::int32_t kMaxSpeed = 256;     // sub-units/tick: 15 units/s
inline constexpr std::int32_t kAcceleration = 24;  // sub-units/tick²: full speed in ~11 ticks
inline constexpr std::int32_t kFriction = 16;      // sub-units/tick²: to rest in 16 ticks

// Held directions for one step. Screen convention: y grows downward, so Up decreases y.
enum Button : std::uint8_t { kUp = 1, kDown = 2, kLeft = 4, kRight = 8 };
inline constexpr std::uint8_t kButtonMask = kUp | kDown | kLeft | kRight;

struct Input {
  Seq seq = 0;
  std::uint8_t buttons = 0;  // Button bits
  friend bool operator==(const Input&, const Input&) = default;
};

struct CubeState {
  std::int32_t x = kStandardArena.width / 2;
  std::int32_t y = kStandardArena.height / 2;
  std::int32_t vx = 0;
  std::int32_t vy = 0;
  Seq last_input = 0;  // sequence of the last input applied (the UNET tutorial's moveNum)
  // The buttons of the last input applied: what the cube is doing, which a replay needs to go on from a
  // snapshot (Teeworlds sends a character's direction too).
  std::uint8_t buttons = 0;
  friend bool operator==(const CubeState&, const CubeState&) = default;
};

// Advances `state` by one tick under `input`: acceleration toward the held direction (opposite keys
// cancel), speed capped at kMaxSpeed in every direction, friction on an axis with no key held, and the
// arena's walls, which stop the cube.
CubeState Move(const CubeState& state, const Input& input, const Arena& arena) noexcept;
// Move in place: `state = Move(state, ...)` reads back a result written field by field, a stall the loops
// that step a whole world (the server's tick, a client's replay) pay for every Move.
void Advance(CubeState& state, const Input& input, const Arena& arena) noexcept;

// Same position and velocity; `last_input` is bookkeeping, not physics.
constexpr bool SamePhysics(const CubeState& a, const CubeState& b) noexcept {
  return a.x == b.x && a.y == b.y && a.vx == b.vx && a.vy == b.vy;
}

// Same physics and held buttons: all a snapshot carries of a cube.
constexpr bool SameCarried(const CubeState& a, const CubeState& b) noexcept {
  return SamePhysics(a, b) && a.buttons == b.buttons;
}

// 64-bit FNV-1a over the state's fields, for determinism checks.
std::uint64_t HashState(const CubeState& state, std::uint64_t seed = 14695981039346656037ull) noexcept;

}  // namespace netcube::sim
