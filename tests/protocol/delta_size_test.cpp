// What a delta costs against old baselines: 128 cubes steered at random as netcube-bot steers them (a new
// key combination every 18 ticks), their inputs arriving unevenly, pushing each other apart, encoded against
// baselines 3, 22 and 60 ticks old (a 20 Hz LAN snapshot, the cross-continent run's mean, a second).
// Every delta must rebuild the world bit for bit; the bits per cube are printed for docs/BENCHMARKS.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <random>
#include <vector>

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
  std::uint64_t deltas = 0;     // made (the others: the full snapshot, as a server sends)
  std::uint64_t ticks = 0;
};

// Runs the world for `ticks` after a warm-up, and measures a delta against each of `ages` every tick.
// Inputs arrive unevenly (1 tick in 8 none, about 1 in 8 two), or `buffered` as the server's input buffer
// gives them (one a tick, 1 tick in 300 none).
std::array<SizeRun, 3> Measure(std::array<int, 3> ages, bool collisions, bool buffered) {
  sim::OverlapResolver resolver;
  std::mt19937 rng(17);
  constexpr int kCubes = 128;
  std::vector<sim::PlayerCube> world;
  for (int id = 0; id < kCubes; ++id) {
    sim::PlayerCube cube{static_cast<sim::PlayerId>(id), {}};
    cube.state.x = sim::kStandardArena.min_x() + 2600 * (id % 24);
    cube.state.y = sim::kStandardArena.min_y() + 2600 * (id / 24);
    world.push_back(cube);
  }
  const std::vector<std::uint32_t> generations(kCubes, 1);
  std::vector<std::uint8_t> keys(kCubes, 0);
  std::vector<int> phase(kCubes);  // when each cube's 18-tick segments begin
  for (int& p : phase) p = static_cast<int>(rng() % 18);
  std::vector<sim::Seq> seq(kCubes, 0);
  std::vector<std::vector<sim::PlayerCube>> history;
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
    sim::StepWorld(world, steps, collisions, sim::kStandardArena, resolver);
    move_log.Record(static_cast<std::uint64_t>(tick), world, generations, {}, steps, collisions);
    history.push_back(world);
    if (tick < kWarmUp) continue;
    for (std::size_t k = 0; k < ages.size(); ++k) {
      const auto& baseline = history[history.size() - 1 - static_cast<std::size_t>(ages[k])];
      ++out[k].ticks;
      if (!MakeReplay(static_cast<std::uint64_t>(tick), ages[k], baseline, world, move_log, delta)) continue;
      EXPECT_TRUE(writer.Prepare(delta));
      ++out[k].deltas;
      out[k].cubes += kCubes;
      out[k].cube_bits += writer.cube_bits();
      EXPECT_TRUE(ApplyReplay(baseline, sim::kStandardArena, delta, rebuilt, resolver));
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
    const double bits = static_cast<double>(runs[k].cube_bits) /
                        static_cast<double>(std::max<std::uint64_t>(runs[k].cubes, 1));
    std::printf("%-32s age %2d: %6.2f bits = %5.2f B per cube (full 8.00 B: %.2fx), %.0f%% deltas\n", what,
                ages[k], bits, bits / 8, bits / 64,
                100.0 * static_cast<double>(runs[k].deltas) / static_cast<double>(runs[k].ticks));
  }
}

// The crowded arena replayed, pushes and all, with inputs as the server's input buffer gives them and as
// uneven as above, and without collisions.
TEST(DeltaSize, ADeltaCodesACrowdedArenaInAFractionOfTheFullState) {
  constexpr std::array<int, 3> kAges = {3, 22, 60};
  const auto buffered = Measure(kAges, true, true);
  const auto uneven = Measure(kAges, true, false);
  const auto apart = Measure(kAges, false, false);
  Print("collisions, buffered inputs", kAges, buffered);
  Print("collisions, uneven inputs", kAges, uneven);
  Print("no collisions, uneven inputs", kAges, apart);
  for (std::size_t k = 0; k < kAges.size(); ++k) {
    EXPECT_EQ(buffered[k].deltas, buffered[k].ticks);  // nothing stops a replay here
  }
  EXPECT_LT(buffered[0].cube_bits, buffered[0].cubes * 8);   // a LAN's age: under 1 B
  EXPECT_LT(buffered[1].cube_bits, buffered[1].cubes * 20);  // the cross-continent age: under 2.5 B
}

}  // namespace
}  // namespace netcube::protocol
