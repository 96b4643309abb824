#include "spawn.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "netcube/server/server.h"

namespace netcube::server {
namespace {

bool Overlap(const sim::CubeState& a, const sim::CubeState& b) {
  return std::abs(a.x - b.x) < sim::kCubeSize && std::abs(a.y - b.y) < sim::kCubeSize;
}

TEST(Spawn, EveryPlayerFitsWithoutOverlapInsideTheArena) {
  std::vector<sim::PlayerCube> world;
  for (int id = 0; id < 256; ++id) {
    const sim::CubeState state = SpawnState(world, kDefaultSpawnSpacingUnits, sim::kStandardArena);
    EXPECT_GE(state.x, sim::kStandardArena.min_x());
    EXPECT_LE(state.x, sim::kStandardArena.max_x());
    EXPECT_GE(state.y, sim::kStandardArena.min_y());
    EXPECT_LE(state.y, sim::kStandardArena.max_y());
    for (const sim::PlayerCube& other : world)
      EXPECT_FALSE(Overlap(state, other.state)) << id << " " << +other.id;
    world.push_back({static_cast<sim::PlayerId>(id), state});
  }
}

TEST(Spawn, IsDeterministicAndAvoidsACubeInTheWay) {
  const sim::CubeState first = SpawnState({}, kDefaultSpawnSpacingUnits, sim::kStandardArena);
  EXPECT_EQ(SpawnState({}, kDefaultSpawnSpacingUnits, sim::kStandardArena), first);
  // Another cube has wandered onto the first slot: the next player goes elsewhere.
  const std::vector<sim::PlayerCube> world = {{5, first}};
  EXPECT_FALSE(Overlap(SpawnState(world, kDefaultSpawnSpacingUnits, sim::kStandardArena), first));
}

TEST(Spawn, PlayersAppearWellApart) {
  // While there is room, 8 units along x or y from every other cube: four cube widths, so no first key
  // press pushes into a neighbour.
  std::vector<sim::PlayerCube> world;
  for (int id = 0; id < 16; ++id) {
    const sim::CubeState state = SpawnState(world, kDefaultSpawnSpacingUnits, sim::kStandardArena);
    for (const sim::PlayerCube& other : world) {
      EXPECT_GE(std::max(std::abs(state.x - other.state.x), std::abs(state.y - other.state.y)),
                8 * sim::kSubUnitsPerUnit)
          << id << " " << +other.id;
    }
    world.push_back({static_cast<sim::PlayerId>(id), state});
  }
}

TEST(Spawn, AWiderSpacingKeepsTheSecondPlayerThatFarAway) {
  // The lab's two players: 16 units apart, a second of full speed, so a first press is no collision.
  const sim::CubeState first = SpawnState({}, 16, sim::kStandardArena);
  EXPECT_EQ(first, SpawnState({}, kDefaultSpawnSpacingUnits, sim::kStandardArena))
      << "the first player spawns where it always did";
  const std::vector<sim::PlayerCube> world = {{0, first}};
  const sim::CubeState second = SpawnState(world, 16, sim::kStandardArena);
  EXPECT_GE(std::max(std::abs(second.x - first.x), std::abs(second.y - first.y)), 16 * sim::kSubUnitsPerUnit);
  const sim::CubeState near = SpawnState(world, kDefaultSpawnSpacingUnits, sim::kStandardArena);
  EXPECT_LT(std::max(std::abs(near.x - first.x), std::abs(near.y - first.y)), 16 * sim::kSubUnitsPerUnit);
}

}  // namespace
}  // namespace netcube::server
