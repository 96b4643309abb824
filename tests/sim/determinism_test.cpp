// The golden run: a fixed, generated input sequence must give the same states, bit for bit, on every
// compiler, optimisation level and sanitizer. The constants below were produced by this test once; if a
// change to the simulation moves them, every client and server of the old build would disagree with the new.
#include <gtest/gtest.h>

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

GoldenRun Simulate(const std::vector<Input>& inputs) {
  GoldenRun run;
  CubeState s;
  std::uint64_t h = HashState(s);
  for (const Input& in : inputs) {
    const CubeState next = Move(s, in);
    if (next.x == kMinX && s.x != kMinX) ++run.wall_stops[0];
    if (next.x == kMaxX && s.x != kMaxX) ++run.wall_stops[1];
    if (next.y == kMinY && s.y != kMinY) ++run.wall_stops[2];
    if (next.y == kMaxY && s.y != kMaxY) ++run.wall_stops[3];
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
constexpr std::int32_t kGoldenY = 35840;  // kMaxY: resting against the bottom wall
constexpr std::int32_t kGoldenVx = 0;
constexpr std::int32_t kGoldenVy = 0;
constexpr Seq kGoldenLastInput = static_cast<Seq>(kFirstSeq + kInputCount - 1);
constexpr std::uint8_t kGoldenButtons = kUp | kDown;  // held since kGoldenHeldSince
constexpr Seq kGoldenHeldSince = 19396;
constexpr std::uint64_t kGoldenChainedHash = 0x360930cc4b39fb8aull;

TEST(Determinism, GoldenInputSequenceExercisesTheWholeSimulation) {
  const GoldenRun run = Simulate(GoldenInputs());
  for (int wall = 0; wall < 4; ++wall) EXPECT_GE(run.wall_stops[wall], 3) << "wall " << wall;
  EXPECT_GE(run.rests, 20);
}

TEST(Determinism, GoldenInputSequenceGivesTheRecordedStates) {
  const GoldenRun run = Simulate(GoldenInputs());
  const CubeState expected{kGoldenX,         kGoldenY,       kGoldenVx,       kGoldenVy,
                           kGoldenLastInput, kGoldenButtons, kGoldenHeldSince};
  EXPECT_EQ(run.final_state, expected)
      << "x=" << run.final_state.x << " y=" << run.final_state.y << " vx=" << run.final_state.vx
      << " vy=" << run.final_state.vy << " last_input=" << run.final_state.last_input
      << " buttons=" << int{run.final_state.buttons} << " held_since=" << run.final_state.held_since;
  EXPECT_EQ(run.chained_hash, kGoldenChainedHash) << std::hex << "0x" << run.chained_hash;
}

// The crowded golden run: 256 cubes steering at random in one arena with collisions, so that pushes chain,
// relaxation runs out of passes and most ticks end in a settle. It pins ResolveOverlaps (PROTOCOL.md
// section 2) as the chained hash pins Move: clients that replay deltas run it too, and any faster way of
// resolving must give these states bit for bit.
constexpr std::size_t kCrowdCubes = 256;
constexpr int kCrowdTicks = 600;
constexpr std::uint64_t kGoldenCrowdHash = 0x8182a7e8a37a360bull;

std::uint64_t SimulateCrowd() {
  SplitMix64 rng(0x63726f7764ull);  // "crowd"
  std::vector<PlayerCube> cubes(kCrowdCubes);
  std::vector<Input> held(kCrowdCubes);
  std::vector<int> hold_left(kCrowdCubes, 0);
  for (std::size_t i = 0; i < kCrowdCubes; ++i) {
    cubes[i].id = static_cast<PlayerId>(i);
    const std::uint64_t r = rng.Next();
    cubes[i].state.x = kMinX + static_cast<std::int32_t>(r % static_cast<std::uint64_t>(kMaxX - kMinX + 1));
    cubes[i].state.y =
        kMinY + static_cast<std::int32_t>((r >> 32) % static_cast<std::uint64_t>(kMaxY - kMinY + 1));
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
    StepWorld(cubes, steps, /*collisions=*/true);
    for (const PlayerCube& cube : cubes) h = HashState(cube.state, h);
  }
  return h;
}

TEST(Determinism, CrowdedArenaGivesTheRecordedStates) {
  EXPECT_EQ(SimulateCrowd(), kGoldenCrowdHash) << std::hex << "0x" << SimulateCrowd();
}

}  // namespace
}  // namespace netcube::sim
