#include "netcube/protocol/replay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "netcube/protocol/snapshot_writer.h"
#include "sample_messages.h"

namespace netcube::protocol {
namespace {

// A server's ticks over a crowded corner of the arena: `players` cubes pushing each other, inputs
// arriving a little unevenly (now and then none in a tick, or two, the second sometimes with other keys),
// logged as the server logs them. At each tick in `stalls` every player's input comes a tick late (a
// stalled host: none that tick, two the next). With `resting`, each player also rests (sends nothing) for
// spells of a few ticks. Every `churn` ticks (0: never), before the step, one player goes and another
// comes (the lowest free id, which may be the one that went: another player). worlds[k] is the world
// after tick first_tick + k.
struct Ticks {
  static constexpr std::uint64_t kFirstTick = 1000;
  std::vector<std::vector<sim::PlayerCube>> worlds;
  std::vector<std::uint32_t> generations;
  MoveLog log;
};

Ticks Play(std::uint32_t seed, std::size_t players, int ticks, bool collisions,
           const std::vector<int>& stalls = {}, bool resting = false, int churn = 0) {
  sim::OverlapResolver resolver;
  std::mt19937 rng(seed);
  Ticks run;
  std::vector<sim::PlayerCube> world;
  for (std::size_t i = 0; i < players; ++i) {
    sim::CubeState s;
    s.x = sim::kStandardArena.min_x() + static_cast<std::int32_t>(rng() % (16 * sim::kSubUnitsPerUnit));
    s.y = sim::kStandardArena.min_y() + static_cast<std::int32_t>(rng() % (10 * sim::kSubUnitsPerUnit));
    s.last_input = static_cast<sim::Seq>(rng());
    s.buttons = static_cast<std::uint8_t>(rng() % 16);
    const std::size_t id = 3 * players <= kMaxPlayers ? 3 * i + 1 : i;  // spread out where they fit
    world.push_back({static_cast<sim::PlayerId>(id), s});
    run.generations.push_back(static_cast<std::uint32_t>(i));
  }
  sim::ResolveOverlaps(world, sim::kStandardArena);
  run.log.Record(Ticks::kFirstTick, world, run.generations, {}, {}, collisions);
  run.worlds.push_back(world);
  std::vector<std::vector<sim::Input>> inputs(players);
  std::vector<std::uint8_t> keys(players);
  std::uint32_t next_generation = static_cast<std::uint32_t>(players);
  for (int t = 1; t <= ticks; ++t) {
    std::vector<sim::PlayerCube> arrivals;
    if (churn > 0 && t % churn == 0) {
      const std::size_t gone = rng() % world.size();
      world.erase(world.begin() + static_cast<std::ptrdiff_t>(gone));
      run.generations.erase(run.generations.begin() + static_cast<std::ptrdiff_t>(gone));
      keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(gone));
      std::size_t at = 0;
      while (at < world.size() && world[at].id == at) ++at;
      sim::CubeState s;
      s.x = sim::kStandardArena.min_x() + static_cast<std::int32_t>(rng() % (16 * sim::kSubUnitsPerUnit));
      s.y = sim::kStandardArena.min_y() + static_cast<std::int32_t>(rng() % (10 * sim::kSubUnitsPerUnit));
      s.last_input = static_cast<sim::Seq>(rng());
      arrivals.push_back({static_cast<sim::PlayerId>(at), s});
      world.insert(world.begin() + static_cast<std::ptrdiff_t>(at), arrivals.back());
      run.generations.insert(run.generations.begin() + static_cast<std::ptrdiff_t>(at), next_generation++);
      keys.insert(keys.begin() + static_cast<std::ptrdiff_t>(at), std::uint8_t{0});
    }
    std::vector<sim::PlayerStep> steps;
    for (std::size_t i = 0; i < players; ++i) {
      inputs[i].clear();
      const std::uint32_t roll = rng() % 128;
      const bool stalled = std::find(stalls.begin(), stalls.end(), t) != stalls.end();
      const bool after_stall = std::find(stalls.begin(), stalls.end(), t - 1) != stalls.end();
      const bool rests = resting && (static_cast<std::size_t>(t / 6) + i) % 4 == 0;
      const int count = stalled || rests ? 0 : after_stall ? 2 : roll == 0 ? 0 : roll == 1 ? 2 : 1;
      for (int k = 0; k < count; ++k) {
        if (rng() % 24 == 0) keys[i] = static_cast<std::uint8_t>(rng() % 16);
        const sim::Seq seq = static_cast<sim::Seq>(world[i].state.last_input + 1 + k);
        inputs[i].push_back({seq, keys[i]});
      }
      if (!inputs[i].empty()) steps.push_back({&world[i], inputs[i]});
    }
    sim::StepWorld(world, steps, collisions, sim::kStandardArena, resolver);
    run.log.Record(Ticks::kFirstTick + static_cast<std::uint64_t>(t), world, run.generations, arrivals, steps,
                   collisions);
    run.worlds.push_back(world);
  }
  return run;
}

void ExpectSameWorld(const Snapshot& rebuilt, const std::vector<sim::PlayerCube>& world) {
  ASSERT_EQ(rebuilt.players.size(), world.size());
  for (std::size_t i = 0; i < world.size(); ++i) {
    EXPECT_EQ(rebuilt.players[i].id, world[i].id);
    EXPECT_TRUE(sim::SamePhysics(rebuilt.players[i].state, world[i].state)) << "cube " << i;
    EXPECT_EQ(rebuilt.players[i].state.buttons, world[i].state.buttons) << "cube " << i;
  }
}

TEST(Replay, RebuildsACrowdedWorldBitForBitFromTheBaselineOrAnyWorldSince) {
  sim::OverlapResolver resolver;
  for (const bool collisions : {true, false}) {
    const int ticks = kHeldBaselines;
    const Ticks run = Play(collisions ? 7 : 8, 48, ticks, collisions);
    const std::uint64_t now = Ticks::kFirstTick + ticks;
    int pushed = 0;
    for (int age = 1; age <= ticks; ++age) {
      SCOPED_TRACE(age);
      const std::vector<sim::PlayerCube>& baseline = run.worlds[static_cast<std::size_t>(ticks - age)];
      DeltaSnapshot delta;
      ASSERT_TRUE(MakeReplay(now, age, baseline, run.worlds.back(), run.log, delta));
      EXPECT_EQ(delta.collisions, collisions);
      // Over the wire and back, then rebuilt from the baseline and from each world since.
      Message decoded;
      ASSERT_EQ(Decode(testing::EncodeToVector(delta), decoded), DecodeError::kNone);
      const auto& received = std::get<DeltaSnapshot>(decoded);
      EXPECT_EQ(received, delta);
      for (int from = 0; from < age; from += std::max(1, age / 4)) {
        Snapshot rebuilt;
        ASSERT_TRUE(ApplyReplay(baseline, sim::kStandardArena, received, rebuilt, resolver,
                                run.worlds[static_cast<std::size_t>(ticks - age + from)], from));
        ExpectSameWorld(rebuilt, run.worlds.back());
      }
      // The pushes are the replay's: the same Moves without them end elsewhere.
      DeltaSnapshot unpushed = received;
      unpushed.collisions = false;
      Snapshot moved_only;
      ASSERT_TRUE(ApplyReplay(baseline, sim::kStandardArena, unpushed, moved_only, resolver));
      for (std::size_t i = 0; collisions && i < baseline.size(); ++i) {
        pushed += sim::SamePhysics(moved_only.players[i].state, run.worlds.back()[i].state) ? 0 : 1;
      }
    }
    if (collisions) {
      EXPECT_GT(pushed, 0);
    }
  }
}

TEST(Replay, ABuilderExtendedTickByTickMakesWhatOneMadeAtOnceDoes) {
  sim::OverlapResolver resolver;
  const int ticks = kHeldBaselines;
  const Ticks run = Play(11, 64, ticks, true);
  ReplayBuilder builder;
  DeltaSnapshot kept;
  ASSERT_TRUE(builder.Start(Ticks::kFirstTick, run.worlds[0], run.log, kept));
  EXPECT_FALSE(builder.Finish(run.worlds[0], kept));  // nothing to replay yet
  for (int age = 1; age <= ticks; ++age) {
    SCOPED_TRACE(age);
    const std::uint64_t tick = Ticks::kFirstTick + static_cast<std::uint64_t>(age);
    const std::vector<sim::PlayerCube>& world = run.worlds[static_cast<std::size_t>(age)];
    ASSERT_TRUE(builder.Extend(tick, run.log, kept));
    ASSERT_TRUE(builder.Finish(world, kept));
    DeltaSnapshot at_once;
    ASSERT_TRUE(MakeReplay(tick, age, run.worlds[0], world, run.log, at_once));
    EXPECT_EQ(kept.server_tick, at_once.server_tick);
    EXPECT_EQ(kept.age, at_once.age);
    EXPECT_EQ(kept.collisions, at_once.collisions);
    EXPECT_TRUE(kept.paths == at_once.paths);
    Snapshot rebuilt;
    ASSERT_TRUE(ApplyReplay(run.worlds[0], sim::kStandardArena, kept, rebuilt, resolver));
    ExpectSameWorld(rebuilt, world);
  }
  // Past the baselines a client holds it stops, for good.
  EXPECT_FALSE(builder.Extend(Ticks::kFirstTick + ticks + 1, run.log, kept));
  EXPECT_FALSE(builder.Finish(run.worlds.back(), kept));
}

TEST(Replay, AStartFromAnOlderReplayMakesWhatAStartOfItsOwnDoes) {
  sim::OverlapResolver resolver;
  constexpr int kReached = 30;
  constexpr int kTicks = 40;
  for (const bool resting : {false, true}) {
    SCOPED_TRACE(resting);
    const Ticks run = Play(17, 32, kTicks, true, {12}, resting);
    const auto tick_at = [](int k) { return Ticks::kFirstTick + static_cast<std::uint64_t>(k); };
    ReplayBuilder older;
    DeltaSnapshot older_out;
    ASSERT_TRUE(older.Start(tick_at(0), run.worlds[0], run.log, older_out));
    ASSERT_TRUE(older.Extend(tick_at(kReached), run.log, older_out));
    for (int b = 1; b <= kReached; ++b) {
      SCOPED_TRACE(b);
      const std::vector<sim::PlayerCube>& baseline = run.worlds[static_cast<std::size_t>(b)];
      ReplayBuilder carved;
      DeltaSnapshot carved_out;
      ASSERT_TRUE(carved.StartFrom(older, older_out, tick_at(b), baseline, carved_out));
      ReplayBuilder own;
      DeltaSnapshot own_out;
      ASSERT_TRUE(own.Start(tick_at(b), baseline, run.log, own_out));
      ASSERT_TRUE(own.Extend(tick_at(kReached), run.log, own_out));
      EXPECT_TRUE(carved_out.paths == own_out.paths);
      // Their cursors agree too: extended further, both make the same delta, which rebuilds the world.
      ASSERT_TRUE(carved.Extend(tick_at(kTicks), run.log, carved_out));
      ASSERT_TRUE(own.Extend(tick_at(kTicks), run.log, own_out));
      ASSERT_TRUE(own.Finish(run.worlds.back(), own_out));
      ASSERT_TRUE(carved.Finish(run.worlds.back(), carved_out));
      EXPECT_EQ(carved_out.age, own_out.age);
      EXPECT_EQ(carved_out.collisions, own_out.collisions);
      EXPECT_TRUE(carved_out.paths == own_out.paths);
      Snapshot rebuilt;
      ASSERT_TRUE(ApplyReplay(baseline, sim::kStandardArena, carved_out, rebuilt, resolver));
      ExpectSameWorld(rebuilt, run.worlds.back());
    }
    // It gives only what it made: not past where it reached, not its own baseline or older, not to itself.
    ReplayBuilder other;
    DeltaSnapshot other_out;
    EXPECT_FALSE(
        other.StartFrom(older, older_out, tick_at(kReached + 1), run.worlds[kReached + 1], other_out));
    EXPECT_FALSE(other.StartFrom(older, older_out, tick_at(0), run.worlds[0], other_out));
    EXPECT_FALSE(older.StartFrom(older, older_out, tick_at(5), run.worlds[5], other_out));
    std::vector<sim::PlayerCube> fewer = run.worlds[5];
    fewer.pop_back();
    EXPECT_FALSE(other.StartFrom(older, older_out, tick_at(5), fewer, other_out));
  }
}

// Players come and go while the others push each other: every replay says who went and who came, at the
// tick they did, and rebuilds the world bit for bit over the wire, from the baseline and from each world
// since. A player that comes and one that goes are the replay's own paths; no other path changes.
TEST(Replay, SaysTheCubesThatCameAndWentAndRebuildsTheWorldAcrossThem) {
  sim::OverlapResolver resolver;
  const int ticks = 40;
  const Ticks run = Play(17, 48, ticks, true, {}, false, 3);
  std::size_t arrivals = 0;
  std::size_t exits = 0;
  for (int age = 1; age <= ticks; age += 3) {
    SCOPED_TRACE(age);
    const std::uint64_t now = Ticks::kFirstTick + static_cast<std::uint64_t>(ticks);
    const std::vector<sim::PlayerCube>& baseline = run.worlds[static_cast<std::size_t>(ticks - age)];
    DeltaSnapshot delta;
    ASSERT_TRUE(MakeReplay(now, age, baseline, run.worlds.back(), run.log, delta));
    EXPECT_EQ(delta.arrivals.size(), static_cast<std::size_t>((ticks / 3) - (ticks - age) / 3));
    arrivals += delta.arrivals.size();
    exits += delta.exits.size();
    Message decoded;
    ASSERT_EQ(Decode(testing::EncodeToVector(delta), decoded), DecodeError::kNone);
    const auto& received = std::get<DeltaSnapshot>(decoded);
    EXPECT_EQ(received, delta);
    for (int from = 0; from < age; ++from) {
      Snapshot rebuilt;
      ASSERT_TRUE(ApplyReplay(baseline, sim::kStandardArena, received, rebuilt, resolver,
                              run.worlds[static_cast<std::size_t>(ticks - age + from)], from));
      ExpectSameWorld(rebuilt, run.worlds.back());
    }
  }
  EXPECT_GT(arrivals, 50u);
  EXPECT_EQ(exits, arrivals);
}

// A replay names what it says: an exit of a cube not there, an arrival of an id there is refused, never
// followed; a path that does not cover its cube's ticks is not on any wire.
TEST(Replay, RefusesCubesThatCameOrWentWhereTheyCannot) {
  sim::OverlapResolver resolver;
  const Ticks run = Play(5, 12, 9, true, {}, false, 3);
  DeltaSnapshot delta;
  ASSERT_TRUE(MakeReplay(Ticks::kFirstTick + 9, 9, run.worlds[0], run.worlds.back(), run.log, delta));
  ASSERT_EQ(delta.arrivals.size(), 3u);
  ASSERT_EQ(delta.exits.size(), 3u);
  Snapshot rebuilt;
  ASSERT_TRUE(ApplyReplay(run.worlds[0], sim::kStandardArena, delta, rebuilt, resolver));
  DeltaSnapshot twice = delta;  // an arrival of an id still there: a baseline cube's that did not go
  std::size_t stays = 0;
  while (std::any_of(delta.exits.begin(), delta.exits.end(),
                     [stays](const Exit& d) { return d.path == stays; })) {
    ++stays;
  }
  twice.arrivals[0].cube.id = run.worlds[0][stays].id;
  EXPECT_FALSE(ApplyReplay(run.worlds[0], sim::kStandardArena, twice, rebuilt, resolver));
  DeltaSnapshot early = delta;  // an exit before its cube came: no wire says it
  early.exits.back().at = 1;
  EXPECT_FALSE(PathsFit(early));
  DeltaSnapshot longer = delta;  // a path over more ticks than its cube was there: no wire says it
  longer.exits.erase(0);
  EXPECT_FALSE(PathsFit(longer));
  EXPECT_TRUE(PathsFit(delta));
  DeltaSnapshot outside = delta;  // an arrival beyond the baseline's arena (the wire allows the largest)
  outside.arrivals[0].cube.state.x = sim::kStandardArena.max_x() + 1;
  EXPECT_FALSE(ApplyReplay(run.worlds[0], sim::kStandardArena, outside, rebuilt, resolver));
  EXPECT_TRUE(ApplyReplay(run.worlds[0], sim::Arena::OfUnits(128, 36), outside, rebuilt, resolver));
  Message read;
  ASSERT_EQ(Decode(testing::EncodeToVector(outside), read), DecodeError::kNone);
  EXPECT_FALSE(
      ApplyReplay(run.worlds[0], sim::kStandardArena, std::get<DeltaSnapshot>(read), rebuilt, resolver));
  // Paths that do not fit are neither written nor read.
  for (const DeltaSnapshot* bad : {&early, &longer}) {
    Message decoded;
    EXPECT_NE(Decode(testing::EncodeToVector(*bad), decoded), DecodeError::kNone);
  }
}

TEST(Replay, IsNotMadeAcrossACubeItCannotSayOrAChangeOfSettingsOrAnUnloggedTick) {
  sim::OverlapResolver resolver;
  Ticks run = Play(3, 8, 10, true);
  const std::uint64_t now = Ticks::kFirstTick + 10;
  DeltaSnapshot delta;
  ASSERT_TRUE(MakeReplay(now, 10, run.worlds[0], run.worlds.back(), run.log, delta));
  EXPECT_FALSE(MakeReplay(now, 11, run.worlds[0], run.worlds.back(), run.log, delta));  // before the log
  EXPECT_FALSE(MakeReplay(now + 1, 1, run.worlds.back(), run.worlds.back(), run.log, delta));  // not yet
  // A player left at the next tick: said. One came whose state before the step is not known: not said,
  // so no replay across it, one after it.
  std::vector<sim::PlayerCube> fewer = run.worlds.back();
  fewer.pop_back();
  std::vector<std::uint32_t> generations = run.generations;
  generations.pop_back();
  run.log.Record(now + 1, fewer, generations, {}, {}, true);
  ASSERT_TRUE(MakeReplay(now + 1, 1, run.worlds.back(), fewer, run.log, delta));
  ASSERT_EQ(delta.exits.size(), 1u);
  EXPECT_EQ(delta.exits[0], (Exit{fewer.size(), 1}));
  run.log.Record(now + 2, run.worlds.back(), run.generations, {}, {}, true);
  EXPECT_FALSE(MakeReplay(now + 2, 2, run.worlds.back(), run.worlds.back(), run.log, delta));
  run.log.Record(now + 3, fewer, generations, {}, {}, true);
  EXPECT_TRUE(MakeReplay(now + 3, 1, run.worlds.back(), fewer, run.log, delta));
  // The server's collisions turned off.
  run.log.Record(now + 4, fewer, generations, {}, {}, false);
  EXPECT_FALSE(MakeReplay(now + 4, 2, fewer, fewer, run.log, delta));
  // Inputs lost on the way: the numbers jump, which changes no Move, so the replay holds.
  std::vector<sim::PlayerCube> moved = fewer;
  const std::vector<sim::Input> skipped = {
      {static_cast<sim::Seq>(moved[0].state.last_input + 2), sim::kRight},
      {static_cast<sim::Seq>(moved[0].state.last_input + 5), sim::kUp}};
  const std::vector<sim::PlayerStep> steps = {{&moved[0], skipped}};
  sim::StepWorld(moved, steps, false, sim::kStandardArena, resolver);
  run.log.Record(now + 5, moved, generations, {}, steps, false);
  ASSERT_TRUE(MakeReplay(now + 5, 1, fewer, moved, run.log, delta));
  Snapshot rebuilt;
  ASSERT_TRUE(ApplyReplay(fewer, sim::kStandardArena, delta, rebuilt, resolver));
  ExpectSameWorld(rebuilt, moved);
  // What the log says must still end where the world is.
  std::vector<sim::PlayerCube> other = moved;
  other[0].state.last_input = static_cast<sim::Seq>(other[0].state.last_input + 1);
  EXPECT_FALSE(MakeReplay(now + 5, 1, fewer, other, run.log, delta));
}

// Protocol 10 allowed a replay 512 runs in all: three stalls of the host of 128 players made 896, and every
// kept baseline fell back to predicting. A replay is bounded by its paths and the packet now.
TEST(Replay, HoldsWhenEveryPlayersInputsComeLateTogether) {
  sim::OverlapResolver resolver;
  const Ticks run = Play(11, 128, 30, true, {6, 15, 24});
  DeltaSnapshot delta;
  ASSERT_TRUE(MakeReplay(Ticks::kFirstTick + 30, 30, run.worlds[0], run.worlds.back(), run.log, delta));
  std::size_t runs = 0;
  for (const CubePath& path : delta.paths) runs += path.runs.size();
  EXPECT_GT(runs, 7u * 128u);
  SnapshotWriter writer;
  ASSERT_TRUE(writer.Prepare(delta));
  // Sent: no longer than the full snapshot (protocol 10's coding took 12,153 bits, this one about 6,200).
  EXPECT_LT(writer.shared_bits(), SnapshotWriter::FullSharedBits(128, sim::kStandardArena));
  Message decoded;
  ASSERT_EQ(Decode(testing::EncodeToVector(delta), decoded), DecodeError::kNone);
  EXPECT_EQ(std::get<DeltaSnapshot>(decoded), delta);
  Snapshot rebuilt;
  ASSERT_TRUE(
      ApplyReplay(run.worlds[0], sim::kStandardArena, std::get<DeltaSnapshot>(decoded), rebuilt, resolver));
  ExpectSameWorld(rebuilt, run.worlds.back());
}

// Any path of canonical runs is written and read back the same, whatever its rhythm.
TEST(Replay, EveryPathOfRunsIsReadBackAsWritten) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    DeltaSnapshot delta;
    delta.age = 1 + static_cast<int>(rng() % 64);
    CubePath path;
    int left = delta.age;
    int moves = 0;
    while (left > 0 && path.runs.size() + 1 < static_cast<std::size_t>(kMaxPathRuns)) {
      const auto longest = static_cast<std::uint32_t>(std::min(left, rng() % 2 == 0 ? 2 : 8));
      const MoveRun run = MoveRun::Of(1 + static_cast<int>(rng() % longest), static_cast<int>(rng() % 4));
      if (!path.runs.empty() && run.moves == path.runs.back().moves) continue;
      path.runs.push_back(run);
      left -= run.ticks;
      moves += run.ticks * run.moves;
    }
    if (left > 0 || moves == 0) continue;
    if (moves > 1 && rng() % 2 == 0) path.turns.push_back({static_cast<std::uint16_t>(moves - 1), 3});
    delta.paths.push_back(path);
    Message decoded;
    ASSERT_EQ(Decode(testing::EncodeToVector(delta), decoded), DecodeError::kNone) << trial;
    const bool usual = path.runs.size() == 1 && path.runs[0].moves == 1 && path.turns.empty();
    EXPECT_EQ(std::get<DeltaSnapshot>(decoded).paths[0], path) << trial << (usual ? " (usual)" : "");
  }
}

// A replay its paths allow but the packet does not is not written: the server sends the full snapshot.
TEST(Replay, LongerThanAPacketIsNotWritten) {
  DeltaSnapshot delta;
  delta.age = kMaxDeltaAge;
  for (std::size_t i = 0; i < kMaxWholeWorldCubes; ++i) {
    CubePath path;
    for (int r = 0; r < kMaxPathRuns; ++r) {
      path.runs.push_back(
          MoveRun::Of(r + 1 < kMaxPathRuns ? 1 : kMaxDeltaAge - (kMaxPathRuns - 1), r % 2 == 0 ? 3 : 4));
    }
    delta.paths.push_back(path);
  }
  // The largest world a delta holds: it is the packet that refuses it, not the count.
  EXPECT_GT(MeasureBytes(delta), kMaxPacketBytes);
  SnapshotWriter writer;
  EXPECT_FALSE(writer.Prepare(delta));
  EXPECT_TRUE(writer.PacketFor(std::nullopt).empty());
}

// A path must fit before it is followed: the paths that do not are those the wire cannot say.
TEST(Replay, RefusesPathsThatDoNotFitTheBaseline) {
  sim::OverlapResolver resolver;
  const Ticks run = Play(5, 4, 6, true);
  DeltaSnapshot delta;
  ASSERT_TRUE(MakeReplay(Ticks::kFirstTick + 6, 6, run.worlds[0], run.worlds.back(), run.log, delta));
  Snapshot rebuilt;
  ASSERT_TRUE(ApplyReplay(run.worlds[0], sim::kStandardArena, delta, rebuilt, resolver));
  std::vector<sim::PlayerCube> three(run.worlds[0].begin(), run.worlds[0].end() - 1);
  EXPECT_FALSE(ApplyReplay(three, sim::kStandardArena, delta, rebuilt, resolver));  // another player count
  EXPECT_FALSE(ApplyReplay(run.worlds[0], sim::kStandardArena, delta, rebuilt, resolver, run.worlds[6],
                           6));  // not between the baseline and the tick
  DeltaSnapshot short_run = delta;
  short_run.paths[1].runs = {};
  short_run.paths[1].runs.push_back({5, 1});  // covers 5 of the 6 ticks
  DeltaSnapshot late_turn = delta;
  late_turn.paths[2].runs = {};
  late_turn.paths[2].runs.push_back({6, 1});
  late_turn.paths[2].turns = {};
  late_turn.paths[2].turns.push_back({6, 0});  // at the 7th of 6 Moves
  for (const DeltaSnapshot* bad : {&short_run, &late_turn}) {
    EXPECT_FALSE(PathsFit(*bad));
    Message decoded;
    EXPECT_NE(Decode(testing::EncodeToVector(*bad), decoded), DecodeError::kNone);
  }
}

TEST(Replay, EveryButtonValueIsOneChoiceAfterEveryOther) {
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

TEST(Replay, AWriterSharesOneEncodeAndAppendsEachAck) {
  const Ticks run = Play(23, 16, 3, true);
  DeltaSnapshot delta;
  ASSERT_TRUE(MakeReplay(Ticks::kFirstTick + 3, 3, run.worlds[0], run.worlds.back(), run.log, delta));
  SnapshotWriter writer;
  ASSERT_TRUE(writer.Prepare(delta));
  using ReceiverAck = SnapshotWriter::ReceiverAck;
  for (const std::optional<ReceiverAck> ack : {std::optional<ReceiverAck>{}, std::optional(ReceiverAck{0, 3}),
                                               std::optional(ReceiverAck{0xFFFF, -2})}) {
    delta.has_ack = ack.has_value();
    delta.ack = ack ? ack->ack : sim::Seq{0};
    delta.input_lead = static_cast<std::int8_t>(ack ? ack->input_lead : 0);
    const auto packet = writer.PacketFor(ack);
    EXPECT_EQ(std::vector<std::uint8_t>(packet.begin(), packet.end()), testing::EncodeToVector(delta));
  }
  // The cubes' bits: all but the type, tick, age, collisions, count and `changed`.
  EXPECT_EQ(writer.cube_bits(), writer.shared_bits() - (6 + 32 + 8 + 1 + 9 + 1));
  // A full snapshot's shared part is FullSharedBits long, 66 bits a cube in the standard arena (a 10-bit id
  // and its state).
  ASSERT_TRUE(writer.Prepare(5, sim::kStandardArena, run.worlds.back()));
  EXPECT_EQ(writer.shared_bits(),
            SnapshotWriter::FullSharedBits(run.worlds.back().size(), sim::kStandardArena));
  EXPECT_EQ(writer.cube_bits(), (10 + 16 + 16 + 10 + 10 + 4) * run.worlds.back().size());
}

}  // namespace
}  // namespace netcube::protocol
