#include "spawn.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

namespace netcube::server {
namespace {

bool Overlap(const sim::CubeState& a, const sim::CubeState& b) {
  return std::abs(a.x - b.x) < sim::kCubeSize && std::abs(a.y - b.y) < sim::kCubeSize;
}

TEST(Spawn, EveryPlayerFitsWithoutOverlapInsideTheArena) {
  std::vector<sim::PlayerCube> world;
  for (int id = 0; id < 256; ++id) {
    const sim::CubeState state = SpawnState(world, static_cast<sim::PlayerId>(id));
    EXPECT_GE(state.x, sim::kMinX);
    EXPECT_LE(state.x, sim::kMaxX);
    EXPECT_GE(state.y, sim::kMinY);
    EXPECT_LE(state.y, sim::kMaxY);
    for (const sim::PlayerCube& other : world) EXPECT_FALSE(Overlap(state, other.state)) << id << " " << +other.id;
    world.push_back({static_cast<sim::PlayerId>(id), state});
  }
}

TEST(Spawn, IsDeterministicAndAvoidsACubeInTheWay) {
  const sim::CubeState first = SpawnState({}, 0);
  EXPECT_EQ(SpawnState({}, 0), first);
  // Another cube has wandered onto player 0's slot: player 0 goes elsewhere.
  const std::vector<sim::PlayerCube> world = {{5, first}};
  EXPECT_FALSE(Overlap(SpawnState(world, 0), first));
}

}  // namespace
}  // namespace netcube::server
