#pragma once
// Tagging: an instant ray from the shooter's cube, judged against the other cubes. Pure code shared by the
// server (which decides), the client (which draws the ray) and the tests. Positions here are in sub-units
// as doubles, because the server judges against cubes interpolated between ticks.
#include <cstdint>
#include <optional>
#include <span>

#include "netcube/sim/world.h"

namespace netcube::sim {

// How far a tag reaches, from the centre of the shooter's cube: a third of the arena's width.
inline constexpr std::int32_t kTagRange = 20 * kSubUnitsPerUnit;
// The shortest time between two tags of one player (the client waits this long; the server lets a
// little bunching through, see server.h).
inline constexpr int kTagCooldownMs = 250;

// An aim direction as a 16-bit angle: 65536 steps per turn, 0 along +x, growing toward +y (clockwise on a
// screen, where y grows downward).
using Aim = std::uint16_t;
Aim AimToward(double dx, double dy) noexcept;

struct Ray {
  double x = 0.0;  // origin, sub-units
  double y = 0.0;
  Aim aim = 0;
  double range = kTagRange;
};

// A cube as the ray sees it: its centre, sub-units.
struct RayTarget {
  PlayerId id = 0;
  double x = 0.0;
  double y = 0.0;
};

struct RayHit {
  PlayerId id = 0;
  double distance = 0.0;  // along the ray to where it enters the cube, sub-units (0 when it starts inside)
};

// The unit direction of `aim`.
void AimDirection(Aim aim, double& dx, double& dy) noexcept;

// The first cube whose square the ray crosses within its range; ties (two cubes entered at the same
// distance) go to the lower id. Leave the shooter out of `targets`.
std::optional<RayHit> FirstHit(const Ray& ray, std::span<const RayTarget> targets) noexcept;

// How far the ray's segment (origin to range) passes from the target's square, sub-units: 0 when it
// crosses it.
double Clearance(const Ray& ray, const RayTarget& target) noexcept;

}  // namespace netcube::sim
