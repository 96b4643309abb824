#pragma once
// Drawing coordinates. The simulation counts in integer sub-units (sim::kSubUnitsPerUnit per unit); every
// position the client hands to a renderer or a report is in units, as double, so 1.0 is one unit.
#include "netcube/sim/move.h"

namespace netcube::client {

struct Vec2 {
  double x = 0.0;  // units
  double y = 0.0;  // units (y grows downward, like the simulation)
  friend bool operator==(const Vec2&, const Vec2&) = default;
};

constexpr Vec2 operator+(Vec2 a, Vec2 b) noexcept { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2 operator-(Vec2 a, Vec2 b) noexcept { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2 operator*(Vec2 a, double s) noexcept { return {a.x * s, a.y * s}; }

double Length(Vec2 v) noexcept;

// Sub-units to units.
constexpr double ToUnits(std::int32_t sub_units) noexcept {
  return static_cast<double>(sub_units) / sim::kSubUnitsPerUnit;
}
constexpr Vec2 PositionOf(const sim::CubeState& s) noexcept { return {ToUnits(s.x), ToUnits(s.y)}; }

}  // namespace netcube::client
