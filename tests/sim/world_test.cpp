#include "netcube/sim/world.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace netcube::sim {
namespace {

bool Overlap(const CubeState& a, const CubeState& b) {
  return std::abs(a.x - b.x) < kCubeSize && std::abs(a.y - b.y) < kCubeSize;
}

// Describes the first overlapping pair or cube outside the arena, or returns an empty string.
std::string FindViolation(const std::vector<PlayerCube>& cubes) {
  for (std::size_t i = 0; i < cubes.size(); ++i) {
    const CubeState& s = cubes[i].state;
    if (s.x < kStandardArena.min_x() || s.x > kStandardArena.max_x() || s.y < kStandardArena.min_y() ||
        s.y > kStandardArena.max_y()) {
      return "cube " + std::to_string(cubes[i].id) + " outside the arena";
    }
    for (std::size_t j = i + 1; j < cubes.size(); ++j) {
      if (Overlap(s, cubes[j].state)) {
        return "cubes " + std::to_string(cubes[i].id) + " and " + std::to_string(cubes[j].id) +
               " overlap at (" + std::to_string(s.x) + "," + std::to_string(s.y) + ") and (" +
               std::to_string(cubes[j].state.x) + "," + std::to_string(cubes[j].state.y) + ")";
      }
    }
  }
  return {};
}

std::vector<PlayerCube> SortedById(std::vector<PlayerCube> cubes) {
  std::sort(cubes.begin(), cubes.end(), [](const PlayerCube& a, const PlayerCube& b) { return a.id < b.id; });
  return cubes;
}

std::int32_t Uniform(std::mt19937_64& rng, std::int32_t lo, std::int32_t hi) {
  return std::uniform_int_distribution<std::int32_t>(lo, hi)(rng);
}

// 2..16 cubes with unique random ids: scattered, clustered, piled on one point, or pinned at the walls
// and corners, with random velocities.
std::vector<PlayerCube> RandomConfiguration(std::mt19937_64& rng) {
  std::vector<PlayerId> ids(256);
  std::iota(ids.begin(), ids.end(), 0);
  std::shuffle(ids.begin(), ids.end(), rng);
  const auto count = static_cast<std::size_t>(Uniform(rng, 2, 16));
  const int layout = Uniform(rng, 0, 4);
  const std::int32_t cx = Uniform(rng, kStandardArena.min_x(), kStandardArena.max_x());
  const std::int32_t cy = Uniform(rng, kStandardArena.min_y(), kStandardArena.max_y());
  const std::int32_t corner_x = Uniform(rng, 0, 1) != 0 ? kStandardArena.min_x() : kStandardArena.max_x();
  const std::int32_t corner_y = Uniform(rng, 0, 1) != 0 ? kStandardArena.min_y() : kStandardArena.max_y();

  std::vector<PlayerCube> cubes;
  for (std::size_t i = 0; i < count; ++i) {
    PlayerCube cube;
    cube.id = ids[i];
    CubeState& s = cube.state;
    switch (layout) {
      case 0:  // anywhere
        s.x = Uniform(rng, kStandardArena.min_x(), kStandardArena.max_x());
        s.y = Uniform(rng, kStandardArena.min_y(), kStandardArena.max_y());
        break;
      case 1:  // a tight cluster
        s.x = std::clamp(cx + Uniform(rng, -kCubeSize, kCubeSize), kStandardArena.min_x(),
                         kStandardArena.max_x());
        s.y = std::clamp(cy + Uniform(rng, -kCubeSize, kCubeSize), kStandardArena.min_y(),
                         kStandardArena.max_y());
        break;
      case 2:  // exactly coincident
        s.x = cx;
        s.y = cy;
        break;
      case 3:  // piled in a corner
        s.x = corner_x;
        s.y = corner_y;
        break;
      default:  // pinned against a random wall
        s.x = Uniform(rng, kStandardArena.min_x(), kStandardArena.max_x());
        s.y = Uniform(rng, kStandardArena.min_y(), kStandardArena.max_y());
        switch (Uniform(rng, 0, 3)) {
          case 0:
            s.x = kStandardArena.min_x();
            break;
          case 1:
            s.x = kStandardArena.max_x();
            break;
          case 2:
            s.y = kStandardArena.min_y();
            break;
          default:
            s.y = kStandardArena.max_y();
            break;
        }
        break;
    }
    s.vx = Uniform(rng, -kMaxSpeed, kMaxSpeed);
    s.vy = Uniform(rng, -kMaxSpeed, kMaxSpeed);
    cubes.push_back(cube);
  }
  return cubes;
}

TEST(ResolveOverlaps, LeavesNoOverlapInRandomConfigurations) {
  std::mt19937_64 rng(1234);
  for (int trial = 0; trial < 5000; ++trial) {
    std::vector<PlayerCube> cubes = RandomConfiguration(rng);
    ResolveOverlaps(cubes, kStandardArena);
    ASSERT_EQ(FindViolation(cubes), "") << "trial " << trial << " with " << cubes.size() << " cubes";
  }
}

TEST(ResolveOverlaps, SeparatesEveryPileUpToSixteenCubes) {
  const std::int32_t points[][2] = {{kStandardArena.min_x(), kStandardArena.min_y()},
                                    {kStandardArena.max_x(), kStandardArena.min_y()},
                                    {kStandardArena.min_x(), kStandardArena.max_y()},
                                    {kStandardArena.max_x(), kStandardArena.max_y()},
                                    {kStandardArena.min_x(), kStandardArena.height / 2},
                                    {kStandardArena.width / 2, kStandardArena.max_y()},
                                    {kStandardArena.width / 2, kStandardArena.height / 2}};
  for (const auto& point : points) {
    for (int count = 2; count <= 16; ++count) {
      std::vector<PlayerCube> cubes;
      for (int i = 0; i < count; ++i) {
        cubes.push_back({static_cast<PlayerId>(i * 7), {point[0], point[1], 0, 0, 0}});
      }
      ResolveOverlaps(cubes, kStandardArena);
      ASSERT_EQ(FindViolation(cubes), "") << count << " cubes at (" << point[0] << "," << point[1] << ")";
    }
  }
}

TEST(ResolveOverlaps, SeparatesTheLargestGuaranteedPileInACorner) {
  // 132 cubes always leave room in the arena (world.h); all of them start in one corner.
  std::vector<PlayerCube> cubes;
  for (int i = 0; i < 132; ++i)
    cubes.push_back(
        {static_cast<PlayerId>(255 - i), {kStandardArena.max_x(), kStandardArena.max_y(), 0, 0, 0}});
  ResolveOverlaps(cubes, kStandardArena);
  EXPECT_EQ(FindViolation(cubes), "");
}

TEST(ResolveOverlaps, DoesNotDependOnTheOrderOfThePlayers) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::vector<PlayerCube> original = RandomConfiguration(rng);
    std::vector<PlayerCube> reference = original;
    ResolveOverlaps(reference, kStandardArena);
    reference = SortedById(reference);
    for (int shuffle = 0; shuffle < 3; ++shuffle) {
      std::vector<PlayerCube> shuffled = original;
      std::shuffle(shuffled.begin(), shuffled.end(), rng);
      ResolveOverlaps(shuffled, kStandardArena);
      shuffled = SortedById(shuffled);
      for (std::size_t i = 0; i < reference.size(); ++i) {
        ASSERT_EQ(shuffled[i].id, reference[i].id);
        ASSERT_EQ(shuffled[i].state, reference[i].state)
            << "trial " << trial << " id " << int{reference[i].id};
      }
    }
  }
}

TEST(ResolveOverlaps, LeavesTouchingAndSeparateCubesAlone) {
  std::vector<PlayerCube> cubes = {{1, {10000, 10000, 50, -50, 3}},
                                   {2, {10000 + kCubeSize, 10000, -50, 50, 4}},
                                   {3, {10000, 10000 + kCubeSize, 0, 0, 5}},
                                   {4, {20000, 20000, 100, 100, 6}}};
  const std::vector<PlayerCube> before = cubes;
  ResolveOverlaps(cubes, kStandardArena);
  for (std::size_t i = 0; i < cubes.size(); ++i) EXPECT_EQ(cubes[i].state, before[i].state);
}

TEST(ResolveOverlaps, PushesAlongTheAxisOfLeastPenetrationAndStopsTheApproach) {
  // b overlaps a by 400 on x and 1948 on y: they separate along x, 200 each, and stop moving together.
  std::vector<PlayerCube> cubes = {{1, {10000, 10000, 100, 30, 0}},
                                   {2, {10000 + kCubeSize - 400, 10100, -80, 0, 0}}};
  ResolveOverlaps(cubes, kStandardArena);
  EXPECT_EQ(cubes[0].state.x, 10000 - 200);
  EXPECT_EQ(cubes[1].state.x, 10000 + kCubeSize - 200);
  EXPECT_EQ(cubes[0].state.y, 10000);
  EXPECT_EQ(cubes[1].state.y, 10100);
  EXPECT_EQ(cubes[0].state.vx, 0);
  EXPECT_EQ(cubes[1].state.vx, 0);
  EXPECT_EQ(cubes[0].state.vy, 30);  // the other axis keeps its velocity
}

TEST(ResolveOverlaps, AWallMakesTheOtherCubeTakeTheWholePush) {
  std::vector<PlayerCube> cubes = {{1, {kStandardArena.min_x(), 10000, 0, 0, 0}},
                                   {2, {kStandardArena.min_x() + 1000, 10000, 0, 0, 0}}};
  ResolveOverlaps(cubes, kStandardArena);
  EXPECT_EQ(cubes[0].state.x, kStandardArena.min_x());
  EXPECT_EQ(cubes[1].state.x, kStandardArena.min_x() + kCubeSize);
}

TEST(StepWorld, AppliesEachPlayersInputsInOrder) {
  OverlapResolver resolver;
  std::vector<PlayerCube> all = {{3, {}}, {9, {5000, 5000, 0, 0, 0}}};
  const Input first[] = {{10, kRight}, {11, kRight}, {12, kDown}};
  const Input second[] = {{400, kLeft}};
  const PlayerStep steps[] = {{&all[0], first}, {&all[1], second}};
  StepWorld(all, steps, true, kStandardArena, resolver);

  CubeState expected_first;
  for (const Input& in : first) expected_first = Move(expected_first, in, kStandardArena);
  EXPECT_EQ(all[0].state, expected_first);
  EXPECT_EQ(all[0].state.last_input, 12);
  EXPECT_EQ(all[1].state, Move({5000, 5000, 0, 0, 0}, second[0], kStandardArena));
}

TEST(StepWorld, APushIsARealDivergenceFromMoveAlone) {
  OverlapResolver resolver;
  // Cube 1 runs right into cube 2, which stands still: only the server's world step knows about the push,
  // so a client predicting cube 2 with Move alone would be wrong.
  const CubeState runner{20000, 10000, kMaxSpeed, 0, 0};
  const CubeState standing{20000 + kCubeSize + 100, 10000, 0, 0, 0};
  std::vector<PlayerCube> all = {{1, runner}, {2, standing}};
  const Input run_input[] = {{1, kRight}};
  const Input stand_input[] = {{1, 0}};
  const PlayerStep steps[] = {{&all[0], run_input}, {&all[1], stand_input}};

  std::vector<PlayerCube> without = all;
  const PlayerStep steps_without[] = {{&without[0], run_input}, {&without[1], stand_input}};
  StepWorld(without, steps_without, false, kStandardArena, resolver);
  EXPECT_EQ(without[0].state, Move(runner, run_input[0], kStandardArena));
  EXPECT_EQ(without[1].state, Move(standing, stand_input[0], kStandardArena));
  ASSERT_TRUE(Overlap(without[0].state, without[1].state));

  StepWorld(all, steps, true, kStandardArena, resolver);
  EXPECT_FALSE(Overlap(all[0].state, all[1].state));
  EXPECT_FALSE(SamePhysics(all[1].state, Move(standing, stand_input[0], kStandardArena)));
  EXPECT_GT(all[1].state.x, standing.x);  // pushed away from the runner
  EXPECT_EQ(all[0].state.vx, 0);          // the runner was stopped
}

TEST(StepWorld, SixteenCubesPushingIntoOneCornerStaySeparated) {
  OverlapResolver resolver;
  std::vector<PlayerCube> all;
  for (int i = 0; i < 16; ++i) {
    all.push_back({static_cast<PlayerId>(200 - i * 3),
                   {kStandardArena.width / 2 - i * 1500, kStandardArena.height / 2, 0, 0, 0}});
  }
  std::vector<Input> inputs(all.size());
  std::vector<PlayerStep> steps;
  for (std::size_t i = 0; i < all.size(); ++i)
    steps.push_back({&all[i], std::span<const Input>(&inputs[i], 1)});
  for (int tick = 0; tick < 600; ++tick) {
    for (Input& in : inputs) in = {static_cast<Seq>(tick), static_cast<std::uint8_t>(kUp | kLeft)};
    StepWorld(all, steps, true, kStandardArena, resolver);
    ASSERT_EQ(FindViolation(all), "") << "tick " << tick;
  }
  // They did reach the corner: one cube sits in it.
  EXPECT_TRUE(std::any_of(all.begin(), all.end(), [](const PlayerCube& c) {
    return c.state.x == kStandardArena.min_x() && c.state.y == kStandardArena.min_y();
  }));
}

TEST(StepWorld, NeverLeavesOverlapsOverManyRandomTicks) {
  OverlapResolver resolver;
  std::mt19937_64 rng(4321);
  for (int game = 0; game < 40; ++game) {
    std::vector<PlayerCube> all = RandomConfiguration(rng);
    ResolveOverlaps(all, kStandardArena);
    std::vector<std::uint8_t> held(all.size(), 0);
    for (int tick = 0; tick < 600; ++tick) {
      std::vector<Input> inputs(all.size());
      std::vector<PlayerStep> steps;
      for (std::size_t i = 0; i < all.size(); ++i) {
        if (rng() % 20 == 0) held[i] = static_cast<std::uint8_t>(rng() & kButtonMask);
        inputs[i] = {static_cast<Seq>(tick), held[i]};
        steps.push_back({&all[i], std::span<const Input>(&inputs[i], 1)});
      }
      StepWorld(all, steps, true, kStandardArena, resolver);
      ASSERT_EQ(FindViolation(all), "") << "game " << game << " tick " << tick;
    }
  }
}

}  // namespace
}  // namespace netcube::sim
