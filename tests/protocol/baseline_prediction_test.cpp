// A baseline's predictions kept from tick to tick are the predictions made from the baseline, bit for bit,
// and so are the deltas made with them: 128 cubes steered at random, pushing each other, their inputs
// arriving unevenly (none in a tick, two, a lost one, a turn between two in one tick), predictions started
// at many ages and advanced every tick or over several at once. Prints what they spare an encode.
#include "netcube/protocol/baseline_prediction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "netcube/protocol/delta.h"
#include "netcube/protocol/messages.h"
#include "netcube/protocol/snapshot_writer.h"
#include "netcube/sim/world.h"
#include "sample_messages.h"

namespace netcube::protocol {
namespace {

using testing::kBotChoices;
constexpr int kCubes = 128;

// The world, stepped a tick at a time, with its recent past and turns.
class RandomWorld {
 public:
  explicit RandomWorld(bool collisions) : collisions_(collisions), rng_(29) {
    for (int id = 0; id < kCubes; ++id) {
      sim::PlayerCube cube{static_cast<sim::PlayerId>(id * 2), {}};  // ids with gaps, as after leaves
      cube.state.x = sim::kMinX + 2600 * (id % 24);
      cube.state.y = sim::kMinY + 2600 * (id / 24);
      world_.push_back(cube);
      phase_.push_back(static_cast<int>(rng_() % 18));
    }
    for (int id = 0; id < kCubes; ++id) keys_.push_back(kBotChoices[rng_() % std::size(kBotChoices)]);
    // Half the cubes' first input bears the sequence they started with, as a client's first input does.
    for (int id = 0; id < kCubes; ++id) seq_.push_back(id % 2 == 0 ? sim::Seq{0} : sim::Seq{0xFFFF});
    generations_.assign(kCubes, 1);
    history_.push_back({world_, generations_});  // tick 0: no input applied yet
  }

  void Step() {
    ++tick_;
    for (std::size_t i = 0; i < world_.size(); ++i) {
      if ((tick_ + static_cast<std::uint64_t>(phase_[i])) % 18 == 0)
        keys_[i] = kBotChoices[rng_() % std::size(kBotChoices)];
      const int moves = rng_() % 8 == 0 ? 0 : rng_() % 7 == 0 ? 2 : 1;
      for (int m = 0; m < moves; ++m) {
        if (rng_() % 60 == 0) ++seq_[i];  // an input lost on the way
        // Now and then a tap inside a tick: buttons held for one input only.
        const std::uint8_t keys =
            m == 0 && moves == 2 && rng_() % 4 == 0 ? kBotChoices[rng_() % 9] : keys_[i];
        world_[i].state = sim::Move(world_[i].state, {++seq_[i], keys});
      }
    }
    // Now and then a player leaves and another takes its id.
    if (rng_() % 50 == 0) ++generations_[rng_() % kCubes];
    if (collisions_) sim::ResolveOverlaps(world_);
    log_.Record(world_, generations_);
    history_.push_back({world_, generations_});
    if (history_.size() > 100) history_.pop_front();
  }

  std::uint64_t tick() const { return tick_; }
  const std::vector<sim::PlayerCube>& world() const { return world_; }
  const std::vector<std::uint32_t>& generations() const { return generations_; }
  const TurnLog& log() const { return log_; }
  // The world and generations `age` ticks ago (age < 100).
  const std::vector<sim::PlayerCube>& WorldAgo(int age) const { return history_[Back(age)].first; }
  const std::vector<std::uint32_t>& GenerationsAgo(int age) const { return history_[Back(age)].second; }

 private:
  std::size_t Back(int age) const { return history_.size() - 1 - static_cast<std::size_t>(age); }

  bool collisions_;
  std::mt19937 rng_;
  std::uint64_t tick_ = 0;
  std::vector<sim::PlayerCube> world_;
  std::vector<int> phase_;
  std::vector<std::uint8_t> keys_;
  std::vector<sim::Seq> seq_;
  std::vector<std::uint32_t> generations_;
  TurnLog log_;
  std::deque<std::pair<std::vector<sim::PlayerCube>, std::vector<std::uint32_t>>> history_;
};

struct Tracked {
  std::unique_ptr<BaselinePrediction> prediction = std::make_unique<BaselinePrediction>();
  std::unique_ptr<PredictionCache> applied = std::make_unique<PredictionCache>();  // a client's
  int every = 1;  // advanced every this many ticks
};

TEST(BaselinePrediction, EqualsPredictingFromTheBaselineAndItsDeltasRebuildTheWorld) {
  for (const bool collisions : {true, false}) {
    RandomWorld world(collisions);
    std::vector<Tracked> tracked;
    DeltaSnapshot replayed;
    DeltaSnapshot kept;
    SnapshotWriter writer;
    Snapshot rebuilt;
    Snapshot continued;
    std::uint64_t replayed_moves = 0;
    std::uint64_t kept_moves = 0;
    std::uint64_t replayed_bits = 0;
    std::uint64_t kept_bits = 0;
    std::uint64_t followed = 0;
    std::uint64_t cubes = 0;
    for (int t = 0; t < 240; ++t) {
      world.Step();
      // A new prediction every 5 ticks, of a baseline 1 to 40 ticks old, advanced every 1 to 3 ticks.
      if (t % 5 == 0 && t < 180) {
        Tracked next;
        next.every = 1 + t % 3;
        // From the world before any input (tick 0) on.
        const int age = std::min(1 + (t * 7) % 40, static_cast<int>(world.tick()));
        next.prediction->Start(world.tick() - static_cast<std::uint64_t>(age), world.WorldAgo(age),
                               world.GenerationsAgo(age), world.tick(), world.world(), world.generations(),
                               world.log(), &kept_moves);
        tracked.push_back(std::move(next));
      }
      for (Tracked& k : tracked) {
        BaselinePrediction& p = *k.prediction;
        if (t % k.every != 0) continue;
        p.Advance(world.tick(), world.world(), world.generations(), &kept_moves);
        const int age = static_cast<int>(world.tick() - p.baseline_tick());
        if (age >= 100) continue;
        const auto& base = world.WorldAgo(age);
        for (std::size_t i = 0; i < base.size(); ++i) {
          ASSERT_EQ(p.Straight(i), PredictCube(base[i].state, age)) << "age " << age << " cube " << i;
          if (const auto path = p.Followed(i)) {
            ++followed;
            ASSERT_EQ(*path->state, PredictCube(base[i].state, path->moves, path->turns))
                << "age " << age << " cube " << i;
          }
        }
        cubes += base.size();
        const auto tick = static_cast<std::uint32_t>(world.tick());
        ASSERT_TRUE(MakeDelta(tick, world.world(), world.generations(), age, base, world.GenerationsAgo(age),
                              replayed, &replayed_moves, &world.log()));
        ASSERT_TRUE(writer.Prepare(replayed));
        replayed_bits += writer.cube_bits();
        const std::uint64_t moves_before = kept_moves;
        ASSERT_TRUE(MakeDelta(tick, world.world(), world.generations(), age, base, world.GenerationsAgo(age),
                              kept, &kept_moves, &world.log(), &p));
        ASSERT_EQ(kept_moves, moves_before) << "a kept baseline's delta runs no Move";
        ASSERT_TRUE(writer.Prepare(kept));
        kept_bits += writer.cube_bits();
        ASSERT_TRUE(ApplyDelta(base, kept, rebuilt));
        ASSERT_TRUE(ApplyDelta(base, kept, continued, k.applied.get()));
        ASSERT_TRUE(std::equal(rebuilt.players.begin(), rebuilt.players.end(), continued.players.begin(),
                               continued.players.end(),
                               [](const sim::PlayerCube& a, const sim::PlayerCube& b) {
                                 return a.id == b.id && a.state == b.state;
                               }))
            << "a client's continued predictions are its fresh ones";
        ASSERT_EQ(rebuilt.players.size(), world.world().size());
        for (std::size_t i = 0; i < world.world().size(); ++i) {
          ASSERT_TRUE(sim::SamePhysics(rebuilt.players[i].state, world.world()[i].state) &&
                      rebuilt.players[i].state.buttons == world.world()[i].state.buttons)
              << "age " << age << " cube " << i;
        }
      }
    }
    std::printf(
        "%s: Moves predicting from the baseline %llu, kept %llu (starts and advances); %.0f%% of cubes "
        "followed; cube bits %.3f of those predicting from the baseline\n",
        collisions ? "collisions" : "no collisions", static_cast<unsigned long long>(replayed_moves),
        static_cast<unsigned long long>(kept_moves),
        100.0 * static_cast<double>(followed) / static_cast<double>(cubes),
        static_cast<double>(kept_bits) / static_cast<double>(replayed_bits));
    EXPECT_LT(kept_moves * 2, replayed_moves);
    EXPECT_LT(kept_bits, replayed_bits * 115 / 100);
  }
}

// A client's cache continues a prediction only where that gives PredictCube's result: random turns
// growing, changing, shrinking, against one baseline state and others.
TEST(PredictionCache, ContinuedPredictionsArePredictCubesBitForBit) {
  std::mt19937 rng(5);
  PredictionCache cache;
  std::uint64_t continued_moves = 0;
  std::uint64_t fresh_moves = 0;
  for (int run = 0; run < 2000; ++run) {
    sim::CubeState base;
    base.x =
        sim::kMinX + static_cast<std::int32_t>(rng() % static_cast<std::uint32_t>(sim::kMaxX - sim::kMinX));
    base.y =
        sim::kMinY + static_cast<std::int32_t>(rng() % static_cast<std::uint32_t>(sim::kMaxY - sim::kMinY));
    base.vx = static_cast<std::int32_t>(rng() % 401) - 200;
    base.buttons = kBotChoices[rng() % 9];
    base.last_input = static_cast<sim::Seq>(rng());
    const std::size_t i = rng() % 4;
    FixedVector<Turn, kMaxTurns> turns;
    int moves = 0;
    for (int step = 0; step < 40; ++step) {
      moves += static_cast<int>(rng() % 3);
      if (rng() % 6 == 0 && turns.size() < kMaxTurns) {
        const int first = turns.empty() ? 0 : turns.back().at + 1;
        if (first <= moves)
          turns.push_back({first + static_cast<int>(rng() % static_cast<std::uint32_t>(moves - first + 1)),
                           static_cast<std::uint8_t>(rng() % kTurnChoices)});
      }
      if (rng() % 25 == 0) turns.clear();  // another description of the same cube
      ASSERT_EQ(cache.Predict(i, base, moves, turns.span(), &continued_moves),
                PredictCube(base, moves, turns.span(), &fresh_moves))
          << "run " << run << " step " << step;
    }
  }
  std::printf("Moves continuing %llu, predicting afresh %llu\n",
              static_cast<unsigned long long>(continued_moves), static_cast<unsigned long long>(fresh_moves));
  EXPECT_LT(continued_moves * 2, fresh_moves);
}

// The time an encode takes against a 22-tick-old baseline, predicting from it or with its predictions
// kept (their Advance included), and applying it on a client, 128 cubes pushing each other. Printed for
// docs/BENCHMARKS.md, not asserted.
TEST(BaselinePrediction, EncodeTimeAtTheCrossContinentAge) {
  constexpr int kAge = 22;
  RandomWorld world(true);
  for (int t = 0; t < 80; ++t) world.Step();
  BaselinePrediction p;
  const std::uint64_t baseline_tick = world.tick() - kAge;
  p.Start(baseline_tick, world.WorldAgo(kAge), world.GenerationsAgo(kAge), world.tick(), world.world(),
          world.generations(), world.log());
  DeltaSnapshot delta;
  SnapshotWriter writer;
  using Clock = std::chrono::steady_clock;
  Clock::duration replay{};
  Clock::duration kept{};
  int encodes = 0;
  Clock::duration apply_fresh{};
  Clock::duration apply_continued{};
  Snapshot rebuilt;
  PredictionCache client_cache;
  std::uint64_t replay_moves = 0;
  std::uint64_t kept_moves = 0;
  // One baseline kept over 30 ticks (ages 22 to 51), both encoded each tick.
  for (int t = 0; t < 30; ++t) {
    world.Step();
    const int age = static_cast<int>(world.tick() - baseline_tick);
    const auto& base = world.WorldAgo(age);
    const auto& gens = world.GenerationsAgo(age);
    const auto tick = static_cast<std::uint32_t>(world.tick());
    auto start = Clock::now();
    ASSERT_TRUE(MakeDelta(tick, world.world(), world.generations(), age, base, gens, delta, &replay_moves,
                          &world.log()));
    ASSERT_TRUE(writer.Prepare(delta));
    replay += Clock::now() - start;
    start = Clock::now();
    p.Advance(world.tick(), world.world(), world.generations(), &kept_moves);
    ASSERT_TRUE(MakeDelta(tick, world.world(), world.generations(), age, base, gens, delta, &kept_moves,
                          &world.log(), &p));
    ASSERT_TRUE(writer.Prepare(delta));
    kept += Clock::now() - start;
    ++encodes;
    start = Clock::now();
    ASSERT_TRUE(ApplyDelta(base, delta, rebuilt));
    apply_fresh += Clock::now() - start;
    start = Clock::now();
    ASSERT_TRUE(ApplyDelta(base, delta, rebuilt, &client_cache));
    apply_continued += Clock::now() - start;
  }
  const auto us = [encodes](Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count() / encodes;
  };
  std::printf(
      "encode of 128 cubes at ages %d..%d: %.1f us and %.0f Moves predicting from the baseline, %.1f us and "
      "%.0f Moves kept\n",
      kAge, kAge + 29, us(replay), static_cast<double>(replay_moves) / encodes, us(kept),
      static_cast<double>(kept_moves) / encodes);
  std::printf("apply: %.1f us predicting from the baseline, %.1f us continuing the last delta's\n",
              us(apply_fresh), us(apply_continued));
}

}  // namespace
}  // namespace netcube::protocol
