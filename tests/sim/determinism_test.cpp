// The golden run: a fixed, generated input sequence must give the same states, bit for bit, on every
// compiler, optimisation level and sanitizer. The constants below were produced by this test once; if a
// change to the simulation moves them, every client and server of the old build would disagree with the new.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "netcube/sim/move.h"
#include "netcube/sim/world.h"

namespace netcube::sim {
namespace {

// splitmix64 (Steele, Lea, Flood): fully specified here, unlike the standard library's distributions.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

constexpr int kInputCount = 20000;
constexpr Seq kFirstSeq = 65000;  // the sequence wraps partway through

// Held buttons that persist for 1..120 ticks, so the cube really travels, hits walls and comes to rest.
std::vector<Input> GoldenInputs() {
  SplitMix64 rng(0x6E6574637562ull);  // "netcub"
  std::vector<Input> inputs;
  inputs.reserve(kInputCount);
  while (inputs.size() < kInputCount) {
    const std::uint64_t r = rng.Next();
    const auto buttons = static_cast<std::uint8_t>(r & kButtonMask);
    const auto hold = static_cast<int>((r >> 8) % 120) + 1;
    for (int i = 0; i < hold && inputs.size() < kInputCount; ++i) {
      inputs.push_back({static_cast<Seq>(kFirstSeq + inputs.size()), buttons});
    }
  }
  return inputs;
}

struct GoldenRun {
  CubeState final_state;
  std::uint64_t chained_hash = 0;
  int wall_stops[4] = {};  // left, right, top, bottom
  int rests = 0;           // ticks the cube came to rest after moving
};

// The run from the arena's centre.
GoldenRun Simulate(const std::vector<Input>& inputs, const Arena& arena) {
  GoldenRun run;
  CubeState s;
  s.x = arena.width / 2;
  s.y = arena.height / 2;
  std::uint64_t h = HashState(s);
  for (const Input& in : inputs) {
    const CubeState next = Move(s, in, arena);
    if (next.x == arena.min_x() && s.x != arena.min_x()) ++run.wall_stops[0];
    if (next.x == arena.max_x() && s.x != arena.max_x()) ++run.wall_stops[1];
    if (next.y == arena.min_y() && s.y != arena.min_y()) ++run.wall_stops[2];
    if (next.y == arena.max_y() && s.y != arena.max_y()) ++run.wall_stops[3];
    if (next.vx == 0 && next.vy == 0 && (s.vx != 0 || s.vy != 0)) ++run.rests;
    s = next;
    h = HashState(s, h);
  }
  run.final_state = s;
  run.chained_hash = h;
  return run;
}

// Recorded from the run below; identical in the release, debug and asan presets.
constexpr std::int32_t kGoldenX = 17064;
constexpr std::int32_t kGoldenY = 35840;  // kStandardArena.max_y(): resting against the bottom wall
constexpr std::int32_t kGoldenVx = 0;
constexpr std::int32_t kGoldenVy = 0;
constexpr Seq kGoldenLastInput = static_cast<Seq>(kFirstSeq + kInputCount - 1);
constexpr std::uint8_t kGoldenButtons = kUp | kDown;
constexpr std::uint64_t kGoldenChainedHash = 0x360930cc4b39fb8aull;
// The same inputs in a narrow, tall arena (other walls, other glides).
constexpr Arena kNarrowArena = Arena::OfUnits(32, 120);
constexpr std::int32_t kNarrowGoldenX = 17064;
constexpr std::int32_t kNarrowGoldenY = 79063;
constexpr std::uint64_t kNarrowGoldenChainedHash = 0x7e7912174e44152dull;

TEST(Determinism, GoldenInputSequenceExercisesTheWholeSimulation) {
  for (const Arena& arena : {kStandardArena, kNarrowArena}) {
    const GoldenRun run = Simulate(GoldenInputs(), arena);
    for (int wall = 0; wall < 4; ++wall) EXPECT_GE(run.wall_stops[wall], 3) << "wall " << wall;
    EXPECT_GE(run.rests, 20);
  }
}

void ExpectGolden(const GoldenRun& run, const CubeState& expected, std::uint64_t chained_hash) {
  EXPECT_EQ(run.final_state, expected)
      << "x=" << run.final_state.x << " y=" << run.final_state.y << " vx=" << run.final_state.vx
      << " vy=" << run.final_state.vy << " last_input=" << run.final_state.last_input
      << " buttons=" << int{run.final_state.buttons};
  EXPECT_EQ(run.chained_hash, chained_hash) << std::hex << "0x" << run.chained_hash;
}

TEST(Determinism, GoldenInputSequenceGivesTheRecordedStates) {
  ExpectGolden(Simulate(GoldenInputs(), kStandardArena),
               {kGoldenX, kGoldenY, kGoldenVx, kGoldenVy, kGoldenLastInput, kGoldenButtons},
               kGoldenChainedHash);
  ExpectGolden(Simulate(GoldenInputs(), kNarrowArena),
               {kNarrowGoldenX, kNarrowGoldenY, 0, 0, kGoldenLastInput, kGoldenButtons},
               kNarrowGoldenChainedHash);
}

// The crowded golden run: 256 cubes steering at random in one arena with collisions, so that pushes chain,
// relaxation runs out of passes and most ticks end in a settle. It pins ResolveOverlaps (PROTOCOL.md
// section 2) as the chained hash pins Move: clients that replay deltas run it too, and any faster way of
// resolving must give these states bit for bit.
constexpr std::size_t kCrowdCubes = 256;
constexpr int kCrowdTicks = 600;
constexpr std::uint64_t kGoldenCrowdHash = 0x8182a7e8a37a360bull;
// The same crowd in a square arena of 48 units (more pile-ups) and in one of 1024 x 576 units, where it
// starts in the corner of the same size as the standard arena and spreads out.
constexpr Arena kSquareArena = Arena::OfUnits(48, 48);
constexpr std::uint64_t kGoldenSquareCrowdHash = 0xb3b9d65f407d25abull;
constexpr Arena kLargeArena = Arena::OfUnits(1024, 576);
constexpr std::uint64_t kGoldenLargeCrowdHash = 0x38a7197cfb4f787bull;

// The crowd scattered over the part of `arena` the size of the standard arena at its corner (or all of a
// smaller one).
std::uint64_t SimulateCrowd(const Arena& arena) {
  OverlapResolver resolver;
  const Arena start{std::min(arena.width, kStandardArena.width),
                    std::min(arena.height, kStandardArena.height)};
  SplitMix64 rng(0x63726f7764ull);  // "crowd"
  std::vector<PlayerCube> cubes(kCrowdCubes);
  std::vector<Input> held(kCrowdCubes);
  std::vector<int> hold_left(kCrowdCubes, 0);
  for (std::size_t i = 0; i < kCrowdCubes; ++i) {
    cubes[i].id = static_cast<PlayerId>(i);
    const std::uint64_t r = rng.Next();
    cubes[i].state.x = start.min_x() + static_cast<std::int32_t>(
                                           r % static_cast<std::uint64_t>(start.max_x() - start.min_x() + 1));
    cubes[i].state.y =
        start.min_y() +
        static_cast<std::int32_t>((r >> 32) % static_cast<std::uint64_t>(start.max_y() - start.min_y() + 1));
  }
  std::uint64_t h = 0;
  std::vector<PlayerStep> steps(kCrowdCubes);
  for (int tick = 0; tick < kCrowdTicks; ++tick) {
    for (std::size_t i = 0; i < kCrowdCubes; ++i) {
      if (hold_left[i]-- <= 0) {
        const std::uint64_t r = rng.Next();
        held[i].buttons = static_cast<std::uint8_t>(r & kButtonMask);
        hold_left[i] = static_cast<int>((r >> 8) % 60);
      }
      held[i].seq = static_cast<Seq>(tick + 1);
      steps[i] = {&cubes[i], std::span<const Input>(&held[i], 1)};
    }
    StepWorld(cubes, steps, /*collisions=*/true, arena, resolver);
    for (const PlayerCube& cube : cubes) h = HashState(cube.state, h);
  }
  return h;
}

TEST(Determinism, CrowdedArenaGivesTheRecordedStates) {
  EXPECT_EQ(SimulateCrowd(kStandardArena), kGoldenCrowdHash)
      << std::hex << "0x" << SimulateCrowd(kStandardArena);
  EXPECT_EQ(SimulateCrowd(kSquareArena), kGoldenSquareCrowdHash)
      << std::hex << "0x" << SimulateCrowd(kSquareArena);
  EXPECT_EQ(SimulateCrowd(kLargeArena), kGoldenLargeCrowdHash)
      << std::hex << "0x" << SimulateCrowd(kLargeArena);
}

}  // namespace
}  // namespace netcube::sim
