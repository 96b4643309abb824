#include "netcube/sim/ray.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace netcube::sim {
namespace {

constexpr double kTurn = 65536.0;

// Where the ray enters the target's square, as a distance along the ray, if it does within range: the
// slab method (the ray is inside the square on both axes between the entry and exit distances).
std::optional<double> EntryDistance(const Ray& ray, double dx, double dy, const RayTarget& target) noexcept {
  double enter = 0.0;
  double leave = ray.range;
  const auto slab = [&](double origin, double direction, double centre) {
    const double lo = centre - kCubeHalf;
    const double hi = centre + kCubeHalf;
    if (direction == 0.0) return origin >= lo && origin <= hi;
    double t0 = (lo - origin) / direction;
    double t1 = (hi - origin) / direction;
    if (t0 > t1) std::swap(t0, t1);
    enter = std::max(enter, t0);
    leave = std::min(leave, t1);
    return enter <= leave;
  };
  if (!slab(ray.x, dx, target.x) || !slab(ray.y, dy, target.y)) return std::nullopt;
  return enter;
}

double PointToSquare(double px, double py, const RayTarget& t) noexcept {
  const double ox = std::max(0.0, std::abs(px - t.x) - kCubeHalf);
  const double oy = std::max(0.0, std::abs(py - t.y) - kCubeHalf);
  return std::hypot(ox, oy);
}

double PointToSegment(double px, double py, double ax, double ay, double bx, double by) noexcept {
  const double vx = bx - ax;
  const double vy = by - ay;
  const double length2 = vx * vx + vy * vy;
  const double s = length2 > 0.0 ? std::clamp(((px - ax) * vx + (py - ay) * vy) / length2, 0.0, 1.0) : 0.0;
  return std::hypot(px - (ax + s * vx), py - (ay + s * vy));
}

}  // namespace

Aim AimToward(double dx, double dy) noexcept {
  if (dx == 0.0 && dy == 0.0) return 0;
  double turns = std::atan2(dy, dx) / (2.0 * std::numbers::pi);
  if (turns < 0.0) turns += 1.0;
  return static_cast<Aim>(static_cast<std::uint32_t>(std::lround(turns * kTurn)) & 0xFFFFu);
}

void AimDirection(Aim aim, double& dx, double& dy) noexcept {
  const double angle = static_cast<double>(aim) / kTurn * 2.0 * std::numbers::pi;
  dx = std::cos(angle);
  dy = std::sin(angle);
}

std::optional<RayHit> FirstHit(const Ray& ray, std::span<const RayTarget> targets) noexcept {
  double dx = 0.0;
  double dy = 0.0;
  AimDirection(ray.aim, dx, dy);
  std::optional<RayHit> best;
  for (const RayTarget& target : targets) {
    const std::optional<double> entry = EntryDistance(ray, dx, dy, target);
    if (!entry) continue;
    if (!best || *entry < best->distance || (*entry == best->distance && target.id < best->id)) {
      best = RayHit{target.id, *entry};
    }
  }
  return best;
}

double Clearance(const Ray& ray, const RayTarget& target) noexcept {
  double dx = 0.0;
  double dy = 0.0;
  AimDirection(ray.aim, dx, dy);
  if (EntryDistance(ray, dx, dy, target)) return 0.0;
  // Apart, the nearest points of a segment and a square are an end of the segment or a corner.
  const double ex = ray.x + dx * ray.range;
  const double ey = ray.y + dy * ray.range;
  double best = std::min(PointToSquare(ray.x, ray.y, target), PointToSquare(ex, ey, target));
  for (const double cx : {target.x - kCubeHalf, target.x + kCubeHalf}) {
    for (const double cy : {target.y - kCubeHalf, target.y + kCubeHalf}) {
      best = std::min(best, PointToSegment(cx, cy, ray.x, ray.y, ex, ey));
    }
  }
  return best;
}

}  // namespace netcube::sim
