// Delta snapshots: made by the server from its world and a baseline, encoded once, decoded and applied by
// the client to the baseline it holds, they rebuild the server's world bit for bit. Every corner: tick
// wraparound, ids reused by new players, cubes driven by the simulation (turns, uneven Moves per tick,
// walls), residuals out of reach, and deltas that do not fit.
#include "netcube/protocol/delta.h"

#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <random>
#include <vector>

#include "netcube/protocol/messages.h"
#include "netcube/protocol/snapshot_writer.h"
#include "sample_messages.h"

namespace netcube::protocol {
namespace {

using testing::Changed;
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
  s.buttons = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, sim::kButtonMask)(rng));
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
    EXPECT_EQ(rebuilt.players[i].state.buttons, world.cubes[i].state.buttons) << int{world.cubes[i].id};
  }
}

TEST(Delta, RandomWorldsRebuildBitForBit) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    const World baseline = RandomWorld(rng, trial % 4 == 0 ? 1.0 : 0.3);
    const int age = std::uniform_int_distribution<int>(1, kMaxDeltaAge)(rng);
    const World world = Evolve(rng, baseline, age);
    const auto tick = static_cast<std::uint32_t>(rng());
    const std::optional<Snapshot> rebuilt =
        RoundTrip(tick, world, age, baseline, static_cast<sim::Seq>(trial));
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
  EXPECT_EQ(static_cast<std::uint32_t>(delta.server_tick - static_cast<std::uint32_t>(delta.age)),
            0xFFFFFFFAu);
  const std::optional<Snapshot> rebuilt = RoundTrip(4, world, 10, baseline, std::nullopt);
  ASSERT_TRUE(rebuilt);
  ExpectSameWorld(*rebuilt, world);
}

TEST(Delta, CubesDoingAsPredictedCostOneBitEach) {
  World baseline;
  for (int id = 0; id < 200; ++id) {
    // At rest, braking with no key held, and holding a key at full speed.
    const std::int32_t v = id % 3 == 0 ? 0 : id % 3 == 1 ? 100 : sim::kMaxSpeed;
    const std::uint8_t keys = id % 3 == 2 ? sim::kRight : 0;
    sim::CubeState s{sim::kMinX + 100 * id, 2000, v, 0, 0};
    s.buttons = keys;
    baseline.cubes.push_back({static_cast<sim::PlayerId>(id), s});
    baseline.generations.push_back(1);
  }
  World world = baseline;
  for (sim::PlayerCube& cube : world.cubes) {
    for (int k = 0; k < 3; ++k)
      cube.state = sim::Move(cube.state, {static_cast<sim::Seq>(k + 1), cube.state.buttons});
  }
  std::size_t bytes = 0;
  ASSERT_TRUE(RoundTrip(99, world, 3, baseline, sim::Seq{1}, &bytes));
  // 6 type + 32 tick + 8 age + 8 orders + 9 count + 200 fates + 9 joined + 23 ack = 295 bits.
  EXPECT_EQ(bytes, (295u + 7) / 8);
}

// Players as the server sees them: a key combination held for a while then another, inputs arriving
// unevenly (no Move in one tick, two in the next), walls. The delta says only the turns and the unevenness,
// and rebuilds the world exactly.
TEST(Delta, SimulatedPlayersRebuildExactlyAndCheaply) {
  std::mt19937 rng(5);
  constexpr std::uint8_t kKeys[] = {
      0,          sim::kRight,           sim::kRight | sim::kDown, sim::kDown, sim::kLeft | sim::kUp,
      sim::kLeft, sim::kUp | sim::kRight};
  World world;
  for (int id = 0; id < 16; ++id) {
    world.cubes.push_back({static_cast<sim::PlayerId>(id), {}});
    world.cubes.back().state.x = sim::kMinX + 3000 * id;
    world.generations.push_back(1);
  }
  std::vector<std::uint8_t> keys(world.cubes.size(), 0);
  std::vector<sim::Seq> seq(world.cubes.size(), 0);
  std::vector<World> history = {world};
  std::size_t changed = 0;
  std::size_t cubes = 0;
  for (int tick = 1; tick <= 600; ++tick) {
    for (std::size_t i = 0; i < world.cubes.size(); ++i) {
      if (rng() % 18 == 0) keys[i] = kKeys[rng() % std::size(kKeys)];
      const int moves = rng() % 10 == 0 ? 0 : rng() % 10 == 0 ? 2 : 1;
      for (int m = 0; m < moves; ++m)
        world.cubes[i].state = sim::Move(world.cubes[i].state, {++seq[i], keys[i]});
    }
    history.push_back(world);
    for (const int age : {1, 3, 15}) {
      if (tick < age) continue;
      const World& baseline = history[static_cast<std::size_t>(tick - age)];
      DeltaSnapshot delta;
      ASSERT_TRUE(MakeDelta(static_cast<std::uint32_t>(tick), world.cubes, world.generations, age,
                            baseline.cubes, baseline.generations, delta));
      // Within a 20 Hz snapshot's age every cube is within reach; over 15 ticks a cube that turned twice
      // may be out of it, and is sent in full.
      if (age <= 3) {
        EXPECT_TRUE(delta.joined.empty()) << "tick " << tick << " age " << age;
      }
      for (const CubeDelta& d : delta.baseline) changed += d.op == DeltaOp::kChanged ? 1u : 0u;
      cubes += delta.baseline.size();
      const std::optional<Snapshot> rebuilt =
          RoundTrip(static_cast<std::uint32_t>(tick), world, age, baseline, {});
      ASSERT_TRUE(rebuilt) << "tick " << tick << " age " << age;
      ExpectSameWorld(*rebuilt, world);
    }
  }
  // Without collisions every change is a turn or an uneven tick: most cubes cost the one bit.
  EXPECT_LT(changed * 2, cubes);
}

TEST(Delta, PredictionIsTheSimulation) {
  sim::CubeState near_wall{sim::kMaxX - 100, sim::kMinY + 50, 256, -256, 7};
  near_wall.buttons = sim::kRight | sim::kUp;
  near_wall.held_since = 3;
  sim::CubeState moved = near_wall;
  for (int k = 0; k < 2; ++k) moved = sim::Move(moved, {0, near_wall.buttons});
  const sim::CubeState predicted = PredictCube(near_wall, 2);
  EXPECT_TRUE(sim::SamePhysics(predicted, moved));
  EXPECT_EQ(predicted.x, sim::kMaxX);  // stopped by the walls, as Move does
  EXPECT_EQ(predicted.y, sim::kMinY);
  EXPECT_EQ(predicted.buttons, near_wall.buttons);
  EXPECT_EQ(predicted.last_input, 0);  // bookkeeping is not on the wire
  EXPECT_EQ(predicted.held_since, 0);
  // A turn: 2 Moves with the baseline's buttons, 3 with the new ones.
  const sim::CubeState free{30000, 20000, 0, 0, 0, sim::kRight, 0};
  sim::CubeState turned = free;
  for (int k = 0; k < 5; ++k) turned = sim::Move(turned, {0, k < 2 ? sim::kRight : sim::kDown});
  const Turn turn{2, ChoiceOf(sim::kRight, sim::kDown)};
  const sim::CubeState p = PredictCube(free, 5, std::span(&turn, 1));
  EXPECT_TRUE(sim::SamePhysics(p, turned));
  EXPECT_EQ(p.buttons, sim::kDown);
}

TEST(Delta, EveryButtonValueIsOneChoiceAfterEveryOther) {
  for (int held = 0; held <= sim::kButtonMask; ++held) {
    std::array<bool, sim::kButtonMask + 1> named{};
    for (int choice = 0; choice < kTurnChoices; ++choice) {
      const std::uint8_t buttons =
          ButtonsOfChoice(static_cast<std::uint8_t>(held), static_cast<std::uint8_t>(choice));
      EXPECT_NE(buttons, held);
      EXPECT_FALSE(named[buttons]);
      named[buttons] = true;
      EXPECT_EQ(ChoiceOf(static_cast<std::uint8_t>(held), buttons), choice);
    }
  }
  // The usual turns (no opposite keys) take the 3-bit choices 0..6 from any usual combination but one.
  EXPECT_EQ(ChoiceOf(0, sim::kUp | sim::kRight), 6);
  EXPECT_EQ(ChoiceOf(0, sim::kRight | sim::kDown), 7);
  EXPECT_EQ(ChoiceOf(sim::kRight, sim::kRight | sim::kDown), 7);
}

// Turns logged by the server: a cube that turned three times since its baseline is named with all three,
// and rebuilt exactly; a new player with the id starts a new log.
TEST(Delta, TheTurnLogNamesEveryTurnSinceTheBaseline) {
  std::vector<sim::PlayerCube> world = {{5, {}}};
  const std::vector<std::uint32_t> generations = {1};
  TurnLog log;
  log.Record(world, generations);
  const std::vector<sim::PlayerCube> baseline = world;
  sim::Seq seq = 0;
  constexpr std::uint8_t kKeys[] = {sim::kRight, sim::kRight, sim::kDown,           sim::kDown,
                                    sim::kDown,  0,           sim::kLeft | sim::kUp};
  for (const std::uint8_t keys : kKeys) {
    world[0].state = sim::Move(world[0].state, {++seq, keys});
    log.Record(world, generations);
  }
  DeltaSnapshot delta;
  ASSERT_TRUE(MakeDelta(7, world, generations, 7, baseline, generations, delta, nullptr, &log));
  ASSERT_EQ(delta.baseline.size(), 1u);
  const CubeDelta& d = delta.baseline[0];
  ASSERT_EQ(d.turns.size(), 4u);
  EXPECT_EQ(d.turns[0], (Turn{0, ChoiceOf(0, sim::kRight)}));
  EXPECT_EQ(d.turns[1], (Turn{2, ChoiceOf(sim::kRight, sim::kDown)}));
  EXPECT_EQ(d.turns[2], (Turn{5, ChoiceOf(sim::kDown, 0)}));
  EXPECT_EQ(d.turns[3], (Turn{6, ChoiceOf(0, sim::kLeft | sim::kUp)}));
  EXPECT_EQ(d.dx, 0);
  EXPECT_EQ(d.dvy, 0);
  Snapshot rebuilt;
  ASSERT_TRUE(ApplyDelta(baseline, delta, rebuilt));
  EXPECT_TRUE(sim::SamePhysics(rebuilt.players[0].state, world[0].state));
  // Without the log only the last turn is named, and the rest is residuals.
  ASSERT_TRUE(MakeDelta(7, world, generations, 7, baseline, generations, delta));
  EXPECT_EQ(delta.baseline[0].turns.size(), 1u);
  EXPECT_NE(delta.baseline[0].dx, 0);
  // Another player on id 5: its log starts afresh, so the old player's turns are not named.
  log.Record(world, std::vector<std::uint32_t>{2});
  ASSERT_TRUE(MakeDelta(7, world, generations, 7, baseline, generations, delta, nullptr, &log));
  EXPECT_EQ(delta.baseline[0].turns.size(), 1u);
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

TEST(Delta, ACubeOutOfAResidualsReachLeavesAndJoinsAgain) {
  World baseline;
  baseline.cubes = {{3, {5000, 5000, 0, 0, 0}}, {7, {9000, 9000, 0, 0, 0}}};
  baseline.generations = {1, 1};
  World world = baseline;
  world.cubes[0].state.x += kMaxPositionResidual + 1;  // a teleport, not a push
  world.cubes[1].state.y += kMaxPositionResidual;      // the longest push a residual carries
  DeltaSnapshot delta;
  ASSERT_TRUE(MakeDelta(8, world.cubes, world.generations, 1, baseline.cubes, baseline.generations, delta));
  EXPECT_EQ(delta.baseline[0].op, DeltaOp::kLeft);
  ASSERT_EQ(delta.joined.size(), 1u);
  EXPECT_EQ(delta.joined[0].id, 3);
  EXPECT_EQ(delta.baseline[1], Changed(0, 0, kMaxPositionResidual, 0, 0));  // no input applied: no Move
  const std::optional<Snapshot> rebuilt = RoundTrip(8, world, 1, baseline, {});
  ASSERT_TRUE(rebuilt);
  ExpectSameWorld(*rebuilt, world);
}

TEST(Delta, ApplyRefusesADeltaThatDoesNotFitTheBaseline) {
  const std::vector<sim::PlayerCube> baseline = {{1, {5000, 5000, 0, 0, 0}},
                                                 {4, {sim::kMaxX, 9000, 0, 0, 0}}};
  DeltaSnapshot delta;
  delta.baseline.push_back({DeltaOp::kPredicted});
  delta.baseline.push_back({DeltaOp::kPredicted});
  Snapshot out;
  EXPECT_TRUE(ApplyDelta(baseline, delta, out));
  // Another number of baseline cubes.
  EXPECT_FALSE(ApplyDelta(std::span(baseline).first(1), delta, out));
  // A rebuilt position beyond the wall.
  delta.baseline[1] = Changed(1, 1, 0, 0, 0);
  EXPECT_FALSE(ApplyDelta(baseline, delta, out));
  // A rebuilt velocity beyond the maximum.
  delta.baseline[1] = Changed(1, 0, 0, sim::kMaxSpeed + 1, 0);
  EXPECT_FALSE(ApplyDelta(baseline, delta, out));
  // Moves, a turn or residuals beyond what the decoder accepts.
  delta.baseline[1] = Changed(1 + kMaxMovesOffset + 1, 0, 0, 0, 0);
  EXPECT_FALSE(ApplyDelta(baseline, delta, out));
  delta.baseline[1] = Changed(0, -kMaxPositionResidual - 1, 0, 0, 0);
  EXPECT_FALSE(ApplyDelta(baseline, delta, out));
  delta.baseline[1] = testing::Turned(Changed(2, 0, 0, 0, 0), ChoiceOf(0, sim::kLeft), 3);
  EXPECT_FALSE(ApplyDelta(baseline, delta, out));
  // A choice beyond the 15, and turns out of order.
  delta.baseline[1] = testing::Turned(Changed(2, 0, 0, 0, 0), kTurnChoices, 1);
  EXPECT_FALSE(ApplyDelta(baseline, delta, out));
  delta.baseline[1] = testing::Turned(testing::Turned(Changed(2, 0, 0, 0, 0), 1, 1), 2, 1);
  EXPECT_FALSE(ApplyDelta(baseline, delta, out));
  delta.baseline[1] = testing::Turned(Changed(2, 0, 0, 0, 0), ChoiceOf(0, sim::kLeft), 1);
  ASSERT_TRUE(ApplyDelta(baseline, delta, out));
  EXPECT_EQ(out.players[1].state.buttons, sim::kLeft);
  EXPECT_EQ(out.players[1].state.vx, -sim::kAcceleration);  // one Move standing, then one to the left
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
  using ReceiverAck = SnapshotWriter::ReceiverAck;
  for (const std::optional<ReceiverAck> ack : {std::optional<ReceiverAck>{}, std::optional(ReceiverAck{0, 3}),
                                               std::optional(ReceiverAck{0xFFFF, -2})}) {
    delta.has_ack = ack.has_value();
    delta.ack = ack ? ack->ack : sim::Seq{0};
    delta.input_lead = static_cast<std::int8_t>(ack ? ack->input_lead : 0);
    const auto packet = writer.PacketFor(ack);
    EXPECT_EQ(std::vector<std::uint8_t>(packet.begin(), packet.end()), EncodeToVector(delta));
  }
  EXPECT_EQ(writer.cube_bits(), writer.shared_bits() - (6 + 32 + 8 + 1 + 4 + 4 + 9 + 9));
  // A full snapshot's shared part is FullSharedBits long, 64 bits a cube.
  ASSERT_TRUE(writer.Prepare(5, world.cubes));
  EXPECT_EQ(writer.shared_bits(), SnapshotWriter::FullSharedBits(world.cubes.size()));
  EXPECT_EQ(writer.cube_bits(), 64 * world.cubes.size());
}

}  // namespace
}  // namespace netcube::protocol
