#include "netcube/sim/ray.h"

#include <gtest/gtest.h>

#include <vector>

namespace netcube::sim {
namespace {

constexpr double kUnit = kSubUnitsPerUnit;

Ray RayFrom(double x, double y, Aim aim) { return Ray{x * kUnit, y * kUnit, aim, kTagRange}; }
RayTarget At(PlayerId id, double x, double y) { return RayTarget{id, x * kUnit, y * kUnit}; }

TEST(Ray, AimTowardQuartersOfATurn) {
  EXPECT_EQ(AimToward(1, 0), 0);
  EXPECT_EQ(AimToward(0, 1), 16384);  // +y is down on a screen: a quarter turn clockwise
  EXPECT_EQ(AimToward(-1, 0), 32768);
  EXPECT_EQ(AimToward(0, -1), 49152);
  EXPECT_EQ(AimToward(1, -1e-9), 0);  // just below a full turn wraps to 0
  double dx = 0, dy = 0;
  AimDirection(16384, dx, dy);
  EXPECT_NEAR(dx, 0.0, 1e-12);
  EXPECT_NEAR(dy, 1.0, 1e-12);
}

TEST(Ray, ThroughTwoCubesHitsTheFirst) {
  const std::vector<RayTarget> targets = {At(9, 20, 10), At(4, 14, 10)};  // id 4 is nearer
  const auto hit = FirstHit(RayFrom(10, 10, AimToward(1, 0)), targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->id, 4);
  EXPECT_DOUBLE_EQ(hit->distance, 3 * kUnit);  // the near face of a cube centred 4 units away
}

TEST(Ray, EqualEntryGoesToTheLowerId) {
  const std::vector<RayTarget> targets = {At(7, 14, 9.5), At(3, 14, 10.5)};
  const auto hit = FirstHit(RayFrom(10, 10, AimToward(1, 0)), targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->id, 3);
}

TEST(Ray, RangeAndDirectionLimitTheHit) {
  const double range_units = static_cast<double>(kTagRange) / kUnit;
  // The near face exactly at the range is still crossed; a hair beyond is not.
  EXPECT_TRUE(FirstHit(RayFrom(10, 10, 0), std::vector{At(1, 10 + range_units + 1, 10)}));
  EXPECT_FALSE(FirstHit(RayFrom(10, 10, 0), std::vector{At(1, 10 + range_units + 1.01, 10)}));
  EXPECT_FALSE(FirstHit(RayFrom(10, 10, 0), std::vector{At(1, 6, 10)}));  // behind the shooter
  EXPECT_FALSE(FirstHit(RayFrom(10, 10, 0), std::vector<RayTarget>{}));
}

TEST(Ray, GrazingTheEdgeCountsAndClearanceMeasuresAMiss) {
  const Ray ray = RayFrom(10, 10, AimToward(1, 0));
  EXPECT_TRUE(FirstHit(ray, std::vector{At(1, 15, 11)}));  // the ray runs along the top face
  EXPECT_FALSE(FirstHit(ray, std::vector{At(1, 15, 11.01)}));
  EXPECT_DOUBLE_EQ(Clearance(ray, At(1, 15, 11)), 0.0);
  EXPECT_NEAR(Clearance(ray, At(1, 15, 12.8)), 1.8 * kUnit, 1e-9);
  // Beyond the end of the segment the distance is from its end.
  EXPECT_NEAR(Clearance(ray, At(1, 10 + 20 + 4, 10)), 3 * kUnit, 1e-9);
}

TEST(Ray, StartingInsideACubeHitsItAtOnce) {
  const auto hit = FirstHit(RayFrom(10, 10, AimToward(-1, 1)), std::vector{At(2, 10.5, 10.5)});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->distance, 0.0);
}

}  // namespace
}  // namespace netcube::sim
