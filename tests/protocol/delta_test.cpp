// Delta snapshots: made by the server from its world and a baseline, encoded once, decoded and applied by
// the client to the baseline it holds, they rebuild the server's world bit for bit. Every corner: tick
// wraparound, ids reused by new players, walls, the largest residuals, and deltas that do not fit.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <vector>

#include "netcube/protocol/messages.h"
#include "sample_messages.h"

namespace netcube::protocol {
namespace {

using testing::EncodeToVector;

// A world: cubes in increasing id order, and the generation of the player owning each.
struct World {
  std::vector<sim::PlayerCube> cubes;
  std::vector<std::uint32_t> generations;
};

sim::CubeState RandomState(std::mt19937& rng) {
  sim::CubeState s;
  s.x = std::uniform_int_distribution<std::int32_t>(sim::kMinX, sim::kMaxX)(rng);
  s.y = std::uniform_int_distribution<std::int32_t>(sim::kMinY, sim::kMaxY)(rng);
  s.vx = std::uniform_int_distribution<std::int32_t>(-sim::kMaxSpeed, sim::kMaxSpeed)(rng);
  s.vy = std::uniform_int_distribution<std::int32_t>(-sim::kMaxSpeed, sim::kMaxSpeed)(rng);
  return s;
}

World RandomWorld(std::mt19937& rng, double presence) {
  World w;
  std::bernoulli_distribution present(presence);
  for (int id = 0; id < static_cast<int>(kMaxPlayers); ++id) {
    if (!present(rng)) continue;
    w.cubes.push_back({static_cast<sim::PlayerId>(id), RandomState(rng)});
    w.generations.push_back(static_cast<std::uint32_t>(id));
  }
  return w;
}

// The world `age` ticks after `baseline`: some players left, some ids reused by new players, some new ids,
// and the rest either as predicted, nudged a little, or anywhere.
World Evolve(std::mt19937& rng, const World& baseline, int age) {
  World next;
  std::uniform_int_distribution<int> fate(0, 9);
  std::size_t i = 0;
  for (int id = 0; id < static_cast<int>(kMaxPlayers); ++id) {
    const bool was = i < baseline.cubes.size() && baseline.cubes[i].id == id;
    const int f = fate(rng);
    if (was) {
      const std::size_t b = i++;
      if (f == 0) continue;  // left
      sim::PlayerCube cube = baseline.cubes[b];
      std::uint32_t generation = baseline.generations[b];
      if (f == 1) {  // left, and a new player took the id
        generation += 1000;
        cube.state = RandomState(rng);
      } else if (f <= 5) {
        cube.state = PredictCube(cube.state, age);
      } else if (f <= 8) {
        cube.state = PredictCube(cube.state, age);
        cube.state.vy = std::clamp(cube.state.vy + std::uniform_int_distribution<int>(-30, 30)(rng),
                                   -sim::kMaxSpeed, sim::kMaxSpeed);
        cube.state.x = std::clamp(cube.state.x + std::uniform_int_distribution<int>(-90, 90)(rng), sim::kMinX,
                                  sim::kMaxX);
      } else {
        cube.state = RandomState(rng);
      }
      next.cubes.push_back(cube);
      next.generations.push_back(generation);
    } else if (f == 0) {  // joined
      next.cubes.push_back({static_cast<sim::PlayerId>(id), RandomState(rng)});
      next.generations.push_back(5000u + static_cast<std::uint32_t>(id));
    }
  }
  return next;
}

// Makes, encodes, decodes and applies a delta; returns the rebuilt snapshot.
std::optional<Snapshot> RoundTrip(std::uint32_t tick, const World& world, int age, const World& baseline,
                                  std::optional<sim::Seq> ack, std::size_t* bytes = nullptr) {
  DeltaSnapshot delta;
  if (!MakeDelta(tick, world.cubes, world.generations, age, baseline.cubes, baseline.generations, delta)) {
    return std::nullopt;
  }
  delta.has_ack = ack.has_value();
  delta.ack = ack.value_or(0);
  const std::vector<std::uint8_t> packet = EncodeToVector(delta);
  EXPECT_FALSE(packet.empty());
  if (bytes != nullptr) *bytes = packet.size();
  Message decoded;
  EXPECT_EQ(Decode(packet, decoded), DecodeError::kNone);
  Snapshot rebuilt;
  if (!ApplyDelta(baseline.cubes, std::get<DeltaSnapshot>(decoded), rebuilt)) return std::nullopt;
  return rebuilt;
}

void ExpectSameWorld(const Snapshot& rebuilt, const World& world) {
  ASSERT_EQ(rebuilt.players.size(), world.cubes.size());
  for (std::size_t i = 0; i < world.cubes.size(); ++i) {
    EXPECT_EQ(rebuilt.players[i].id, world.cubes[i].id);
    EXPECT_TRUE(sim::SamePhysics(rebuilt.players[i].state, world.cubes[i].state)) << int{world.cubes[i].id};
  }
}

TEST(Delta, RandomWorldsRebuildBitForBit) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    const World baseline = RandomWorld(rng, trial % 4 == 0 ? 1.0 : 0.3);
    const int age = std::uniform_int_distribution<int>(1, kMaxDeltaAge)(rng);
    const World world = Evolve(rng, baseline, age);
    const auto tick = static_cast<std::uint32_t>(rng());
    const std::optional<Snapshot> rebuilt = RoundTrip(tick, world, age, baseline, static_cast<sim::Seq>(trial));
    ASSERT_TRUE(rebuilt) << "trial " << trial;
    EXPECT_EQ(rebuilt->server_tick, tick);
    EXPECT_TRUE(rebuilt->has_ack);
    EXPECT_EQ(rebuilt->ack, static_cast<sim::Seq>(trial));
    ExpectSameWorld(*rebuilt, world);
  }
}

TEST(Delta, TicksWrapAround) {
  // The baseline before the 32-bit wrap, the new tick after it: the age is the distance.
  std::mt19937 rng(3);
  const World baseline = RandomWorld(rng, 0.5);
  const World world = Evolve(rng, baseline, 10);
  DeltaSnapshot delta;
  ASSERT_TRUE(MakeDelta(4, world.cubes, world.generations, 10, baseline.cubes, baseline.generations, delta));
  EXPECT_EQ(static_cast<std::uint32_t>(delta.server_tick - static_cast<std::uint32_t>(delta.age)), 0xFFFFFFFAu);
  const std::optional<Snapshot> rebuilt = RoundTrip(4, world, 10, baseline, std::nullopt);
  ASSERT_TRUE(rebuilt);
  ExpectSameWorld(*rebuilt, world);
}

TEST(Delta, UnchangedAndStraightMovingCubesCostOneBitEach) {
  World baseline;
  for (int id = 0; id < 200; ++id) {
    const std::int32_t v = id % 2 == 0 ? 0 : 100;  // half at rest, half moving straight on
    baseline.cubes.push_back({static_cast<sim::PlayerId>(id), {sim::kMinX + 100 * id, 2000, v, -v, 0}});
    baseline.generations.push_back(1);
  }
  World world = baseline;
  for (sim::PlayerCube& cube : world.cubes) cube.state = PredictCube(cube.state, 3);
  std::size_t bytes = 0;
  ASSERT_TRUE(RoundTrip(99, world, 3, baseline, sim::Seq{1}, &bytes));
  // 6 type + 32 tick + 8 age + 9 count + 200 fates + 9 joined + 17 ack = 281 bits.
  EXPECT_EQ(bytes, (281u + 7) / 8);
}

TEST(Delta, PredictionStopsAtTheWall) {
  const sim::CubeState near_wall{sim::kMaxX - 100, sim::kMinY + 50, 256, -256, 7};
  const sim::CubeState predicted = PredictCube(near_wall, 2);
  EXPECT_EQ(predicted.x, sim::kMaxX);
  EXPECT_EQ(predicted.vx, 0);
  EXPECT_EQ(predicted.y, sim::kMinY);
  EXPECT_EQ(predicted.vy, 0);
  const sim::CubeState free{30000, 20000, 256, -256, 0};
  EXPECT_EQ(PredictCube(free, 10), (sim::CubeState{30000 + 2560, 20000 - 2560, 256, -256, 0}));
  EXPECT_EQ(PredictCube(free, kMaxDeltaAge), (sim::CubeState{sim::kMaxX, sim::kMinY, 0, 0, 0}));
}

TEST(Delta, AReusedIdIsTheOldPlayerLeavingAndTheNewOneJoining) {
  World baseline;
  baseline.cubes = {{1, {5000, 5000, 0, 0, 0}}, {2, {9000, 9000, 0, 0, 0}}};
  baseline.generations = {10, 11};
  World world;
  world.cubes = {{1, {5000, 5000, 0, 0, 0}}, {2, {9000, 9000, 0, 0, 0}}};
  world.generations = {10, 12};  // id 2 went to a new player who spawned where the old one stood
  DeltaSnapshot delta;
  ASSERT_TRUE(MakeDelta(50, world.cubes, world.generations, 2, baseline.cubes, baseline.generations, delta));
  ASSERT_EQ(delta.baseline.size(), 2u);
  EXPECT_EQ(delta.baseline[0].op, DeltaOp::kPredicted);
  EXPECT_EQ(delta.baseline[1].op, DeltaOp::kLeft);
  ASSERT_EQ(delta.joined.size(), 1u);
  EXPECT_EQ(delta.joined[0].id, 2);
  Snapshot rebuilt;
  ASSERT_TRUE(ApplyDelta(baseline.cubes, delta, rebuilt));
  ExpectSameWorld(rebuilt, world);
}

TEST(Delta, RejectsAgesOutOfRangeAndMismatchedSpans) {
  World w;
  w.cubes = {{1, {}}};
  w.generations = {1};
  DeltaSnapshot delta;
  EXPECT_FALSE(MakeDelta(9, w.cubes, w.generations, 0, w.cubes, w.generations, delta));
  EXPECT_FALSE(MakeDelta(9, w.cubes, w.generations, kMaxDeltaAge + 1, w.cubes, w.generations, delta));
  EXPECT_FALSE(MakeDelta(9, w.cubes, {}, 1, w.cubes, w.generations, delta));
  EXPECT_TRUE(MakeDelta(9, w.cubes, w.generations, kMaxDeltaAge, w.cubes, w.generations, delta));
}

TEST(Delta, ApplyRefusesADeltaThatDoesNotFitTheBaseline) {
  const std::vector<sim::PlayerCube> baseline = {{1, {5000, 5000, 0, 0, 0}}, {4, {sim::kMaxX, 9000, 0, 0, 0}}};
  DeltaSnapshot delta;
  delta.baseline.push_back({DeltaOp::kPredicted});
  delta.baseline.push_back({DeltaOp::kPredicted});
  Snapshot out;
  EXPECT_TRUE(ApplyDelta(baseline, delta, out));
  // Another number of baseline cubes.
  EXPECT_FALSE(ApplyDelta(std::span(baseline).first(1), delta, out));
  // A rebuilt position beyond the wall.
  delta.baseline[1] = {DeltaOp::kChanged, 1, 0, 0, 0};
  EXPECT_FALSE(ApplyDelta(baseline, delta, out));
  // A rebuilt velocity beyond the maximum.
  delta.baseline[1] = {DeltaOp::kChanged, 0, 0, sim::kMaxSpeed + 1, 0};
  EXPECT_FALSE(ApplyDelta(baseline, delta, out));
  // A joined cube with the id of a kept one.
  delta.baseline[1] = {DeltaOp::kPredicted};
  delta.joined.push_back({4, {2000, 2000, 0, 0, 0}});
  EXPECT_FALSE(ApplyDelta(baseline, delta, out));
  // ... but the id of one that left is free.
  delta.baseline[1] = {DeltaOp::kLeft};
  ASSERT_TRUE(ApplyDelta(baseline, delta, out));
  ASSERT_EQ(out.players.size(), 2u);
  EXPECT_EQ(out.players[1].state.x, 2000);
}

TEST(Delta, WriterSharesOneEncodeAndAppendsEachAck) {
  std::mt19937 rng(11);
  const World baseline = RandomWorld(rng, 0.4);
  const World world = Evolve(rng, baseline, 3);
  DeltaSnapshot delta;
  ASSERT_TRUE(MakeDelta(77, world.cubes, world.generations, 3, baseline.cubes, baseline.generations, delta));
  SnapshotWriter writer;
  ASSERT_TRUE(writer.Prepare(delta));
  for (const std::optional<sim::Seq> ack : {std::optional<sim::Seq>{}, std::optional<sim::Seq>{0},
                                            std::optional<sim::Seq>{0xFFFF}}) {
    delta.has_ack = ack.has_value();
    delta.ack = ack.value_or(0);
    const auto packet = writer.PacketFor(ack);
    EXPECT_EQ(std::vector<std::uint8_t>(packet.begin(), packet.end()), EncodeToVector(delta));
  }
  // A full snapshot's shared part is FullSharedBits long.
  ASSERT_TRUE(writer.Prepare(5, world.cubes));
  EXPECT_EQ(writer.shared_bits(), SnapshotWriter::FullSharedBits(world.cubes.size()));
}

}  // namespace
}  // namespace netcube::protocol
