// What a delta costs against old baselines: 128 cubes steered at random as netcube-bot steers them (a new
// key combination every 18 ticks), their inputs arriving unevenly, pushing each other apart, encoded against
// baselines 3, 22 and 60 ticks old (a 20 Hz LAN snapshot, the cross-continent run's mean, a second).
// Every delta must rebuild the world bit for bit; the bits per cube are printed for docs/BENCHMARKS.md.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <random>
#include <vector>

#include "netcube/protocol/delta.h"
#include "netcube/protocol/messages.h"
#include "netcube/protocol/replay.h"
#include "netcube/protocol/snapshot_writer.h"
#include "netcube/sim/world.h"
#include "sample_messages.h"

namespace netcube::protocol {
namespace {

using testing::kBotChoices;

struct SizeRun {
  std::uint64_t cubes = 0;      // baseline cubes over every delta
  std::uint64_t cube_bits = 0;  // the deltas' bits spent on cubes
  std::uint64_t joined = 0;     // cubes sent whole
  std::uint64_t deltas = 0;
  std::uint64_t replays = 0;
};

// How the deltas are made: predicted naming the last turn only, or every turn, or replayed where the
// ticks since allow (else predicted, as the server does).
enum class Code { kLastTurn, kEveryTurn, kReplay };

// Runs the world for `ticks` after a warm-up, and measures a delta against each of `ages` every tick.
// Inputs arrive unevenly (1 tick in 8 none, about 1 in 8 two), or `buffered` as the server's input buffer
// gives them (one a tick, 1 tick in 300 none).
std::array<SizeRun, 3> Measure(std::array<int, 3> ages, Code code, bool collisions, bool buffered = false) {
  std::mt19937 rng(17);
  constexpr int kCubes = 128;
  std::vector<sim::PlayerCube> world;
  for (int id = 0; id < kCubes; ++id) {
    sim::PlayerCube cube{static_cast<sim::PlayerId>(id), {}};
    cube.state.x = sim::kMinX + 2600 * (id % 24);
    cube.state.y = sim::kMinY + 2600 * (id / 24);
    world.push_back(cube);
  }
  const std::vector<std::uint32_t> generations(kCubes, 1);
  std::vector<std::uint8_t> keys(kCubes, 0);
  std::vector<int> phase(kCubes);  // when each cube's 18-tick segments begin
  for (int& p : phase) p = static_cast<int>(rng() % 18);
  std::vector<sim::Seq> seq(kCubes, 0);
  std::vector<std::vector<sim::PlayerCube>> history;
  TurnLog turn_log;
  MoveLog move_log;
  std::vector<std::vector<sim::Input>> inputs(kCubes);
  std::vector<sim::PlayerStep> steps;
  std::array<SizeRun, 3> out{};
  SnapshotWriter writer;
  DeltaSnapshot delta;
  Snapshot rebuilt;
  constexpr int kWarmUp = 80;
  constexpr int kTicks = 400;
  for (int tick = 0; tick < kWarmUp + kTicks; ++tick) {
    steps.clear();
    for (std::size_t i = 0; i < world.size(); ++i) {
      if ((tick + phase[i]) % 18 == 0) keys[i] = kBotChoices[rng() % std::size(kBotChoices)];
      const int moves = buffered ? (rng() % 300 == 0 ? 0 : 1) : rng() % 8 == 0 ? 0 : rng() % 7 == 0 ? 2 : 1;
      inputs[i].clear();
      for (int m = 0; m < moves; ++m) inputs[i].push_back({++seq[i], keys[i]});
      if (moves > 0) steps.push_back({&world[i], inputs[i]});
    }
    sim::StepWorld(world, steps, collisions);
    turn_log.Record(world, generations);
    move_log.Record(static_cast<std::uint64_t>(tick), world, generations, {}, steps, collisions);
    history.push_back(world);
    if (tick < kWarmUp) continue;
    for (std::size_t k = 0; k < ages.size(); ++k) {
      const auto& baseline = history[history.size() - 1 - static_cast<std::size_t>(ages[k])];
      const bool replayed = code == Code::kReplay && MakeReplay(static_cast<std::uint64_t>(tick), ages[k],
                                                                baseline, world, move_log, delta);
      if (!replayed) {
        EXPECT_TRUE(MakeDelta(static_cast<std::uint32_t>(tick), world, generations, ages[k], baseline,
                              generations, delta, nullptr, code == Code::kLastTurn ? nullptr : &turn_log));
      }
      EXPECT_TRUE(writer.Prepare(delta));
      ++out[k].deltas;
      out[k].replays += replayed ? 1 : 0;
      out[k].cubes += kCubes;
      out[k].cube_bits += writer.cube_bits();
      out[k].joined += delta.joined.size();
      EXPECT_TRUE(ApplyDelta(baseline, delta, rebuilt));
      EXPECT_EQ(rebuilt.players.size(), world.size());
      for (std::size_t i = 0; i < world.size() && i < rebuilt.players.size(); ++i) {
        EXPECT_TRUE(sim::SamePhysics(rebuilt.players[i].state, world[i].state) &&
                    rebuilt.players[i].state.buttons == world[i].state.buttons)
            << "tick " << tick << " age " << ages[k] << " cube " << i;
      }
    }
  }
  return out;
}

void Print(const char* what, std::array<int, 3> ages, const std::array<SizeRun, 3>& runs) {
  for (std::size_t k = 0; k < ages.size(); ++k) {
    const double bits = static_cast<double>(runs[k].cube_bits) / static_cast<double>(runs[k].cubes);
    std::printf(
        "%-40s age %2d: %6.2f bits = %5.2f B per cube (full 8.00 B: %.2fx), %.1f%% sent whole, %.0f%% "
        "replays\n",
        what, ages[k], bits, bits / 8, bits / 64,
        100.0 * static_cast<double>(runs[k].joined) / static_cast<double>(runs[k].cubes),
        100.0 * static_cast<double>(runs[k].replays) / static_cast<double>(runs[k].deltas));
  }
}

TEST(DeltaSize, TurnsSinceAnOldBaselineCostFarLessThanTheFullState) {
  constexpr std::array<int, 3> kAges = {3, 22, 60};
  const auto logged = Measure(kAges, Code::kEveryTurn, true);
  const auto unlogged = Measure(kAges, Code::kLastTurn, true);
  const auto apart = Measure(kAges, Code::kEveryTurn, false);
  const auto apart_unlogged = Measure(kAges, Code::kLastTurn, false);
  Print("every turn, collisions", kAges, logged);
  Print("the last turn only, collisions", kAges, unlogged);
  Print("every turn, no collisions", kAges, apart);
  Print("the last turn only, no collisions", kAges, apart_unlogged);
  // Naming every turn since the baseline never costs more than naming the last one only, and far less
  // where cubes turned more than once and nothing pushed them.
  for (std::size_t k = 0; k < kAges.size(); ++k) {
    EXPECT_LE(logged[k].cube_bits, unlogged[k].cube_bits);
    EXPECT_LE(apart[k].cube_bits, apart_unlogged[k].cube_bits);
  }
  EXPECT_LT(apart[1].cube_bits * 5, apart_unlogged[1].cube_bits * 4);
  EXPECT_LT(apart[2].cube_bits * 5, apart_unlogged[2].cube_bits * 4);
}

// Protocol 10: the same crowded arena replayed, pushes and all, beside protocol 9's prediction, with
// inputs as the server's input buffer gives them and as uneven as above.
TEST(DeltaSize, AReplayCodesACrowdedArenaInAFractionOfAPrediction) {
  constexpr std::array<int, 3> kAges = {3, 22, 60};
  const auto predicted = Measure(kAges, Code::kEveryTurn, true, true);
  const auto replayed = Measure(kAges, Code::kReplay, true, true);
  const auto uneven = Measure(kAges, Code::kReplay, true);
  Print("predicted, collisions, buffered inputs", kAges, predicted);
  Print("replayed, collisions, buffered inputs", kAges, replayed);
  Print("replayed, collisions, uneven inputs", kAges, uneven);
  for (std::size_t k = 0; k < kAges.size(); ++k) {
    EXPECT_EQ(replayed[k].replays, replayed[k].deltas);  // nothing stops a replay here
    EXPECT_LT(replayed[k].cube_bits, predicted[k].cube_bits);
  }
  EXPECT_LT(replayed[0].cube_bits * 2, predicted[0].cube_bits);
  EXPECT_LT(replayed[1].cube_bits * 2, predicted[1].cube_bits);
  EXPECT_LT(replayed[1].cube_bits, replayed[1].cubes * 20);  // at the cross-continent age: under 2.5 B
}

}  // namespace
}  // namespace netcube::protocol
