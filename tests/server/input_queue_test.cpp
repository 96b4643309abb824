#include "input_queue.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace netcube::server {
namespace {

std::vector<sim::Seq> Tick(InputQueue& queue) {
  std::array<sim::Input, InputQueue::kMaxPerTick> out{};
  const std::size_t count = queue.TakeForTick(out);
  std::vector<sim::Seq> seqs;
  for (std::size_t i = 0; i < count; ++i) seqs.push_back(out[i].seq);
  return seqs;
}

TEST(InputQueue, AppliesEachInputOnceInSequenceOrder) {
  InputQueue queue;
  // Redundant packets: every input arrives several times.
  for (sim::Seq newest = 10; newest <= 12; ++newest) {
    for (sim::Seq seq = 10; seq <= newest; ++seq) queue.Receive({seq, sim::kRight});
  }
  EXPECT_EQ(Tick(queue), std::vector<sim::Seq>{10});
  EXPECT_EQ(Tick(queue), std::vector<sim::Seq>{11});
  EXPECT_EQ(Tick(queue), std::vector<sim::Seq>{12});
  EXPECT_TRUE(Tick(queue).empty());
  EXPECT_EQ(queue.counters().processed, 3u);
  EXPECT_EQ(queue.counters().duplicate, 3u);
  EXPECT_EQ(queue.counters().lost, 0u);
}

TEST(InputQueue, LateCopiesOfAppliedInputsAreDuplicates) {
  InputQueue queue;
  queue.Receive({5, 0});
  Tick(queue);
  queue.Receive({5, 0});
  queue.Receive({4, 0});  // older than the first one ever seen
  EXPECT_EQ(queue.counters().duplicate, 2u);
  EXPECT_EQ(queue.size(), 0u);
}

TEST(InputQueue, GapSkipsAheadAndCountsLostInputs) {
  InputQueue queue;
  queue.Receive({1, 0});
  queue.Receive({5, 0});  // 2, 3 and 4 will never come
  queue.Receive({3, 0});  // a straggler: it is too late now
  EXPECT_EQ(queue.counters().lost, 3u);
  EXPECT_EQ(queue.counters().duplicate, 1u);
  EXPECT_EQ(Tick(queue), std::vector<sim::Seq>{1});
  EXPECT_EQ(Tick(queue), std::vector<sim::Seq>{5});
}

TEST(InputQueue, SequenceWrapsAround) {
  InputQueue queue;
  for (const sim::Seq seq : {sim::Seq{65534}, sim::Seq{65535}, sim::Seq{0}, sim::Seq{1}}) queue.Receive({seq, 0});
  queue.Receive({65535, 0});
  std::vector<sim::Seq> applied;
  for (int i = 0; i < 4; ++i) {
    for (const sim::Seq seq : Tick(queue)) applied.push_back(seq);
  }
  EXPECT_EQ(applied, (std::vector<sim::Seq>{65534, 65535, 0, 1}));
  EXPECT_EQ(queue.counters().duplicate, 1u);
  EXPECT_EQ(queue.counters().lost, 0u);
}

TEST(InputQueue, CreditBuildsUpToTheBacklogCapAndIsSpentAtMostThreePerTick) {
  InputQueue queue;
  for (int i = 0; i < 20; ++i) Tick(queue);  // idle: credit saturates at kMaxInputBacklogSteps
  for (sim::Seq seq = 0; seq < kMaxQueuedInputs; ++seq) queue.Receive({seq, 0});
  std::vector<std::size_t> per_tick;
  while (queue.size() > 0) per_tick.push_back(Tick(queue).size());
  // Credit (capped at 8 after each tick's grant) 8 -> 5, 6 -> 3, 4 -> 1, 2 -> 0, then one per tick.
  const std::vector<std::size_t> expected = {3, 3, 3, 2, 1, 1, 1, 1, 1};
  EXPECT_EQ(per_tick, expected);
}

TEST(InputQueue, FloodBeyondTheQueueIsDroppedForGood) {
  InputQueue queue;
  for (sim::Seq seq = 0; seq < 40; ++seq) queue.Receive({seq, 0});
  EXPECT_EQ(queue.size(), kMaxQueuedInputs);
  EXPECT_EQ(queue.counters().dropped_rate_limit, 40 - kMaxQueuedInputs);
  // A resend of a dropped input does not get in later.
  Tick(queue);
  queue.Receive({30, 0});
  EXPECT_EQ(queue.size(), kMaxQueuedInputs - 1);
  EXPECT_EQ(queue.counters().duplicate, 1u);
}

TEST(InputQueue, TwiceTheRateGainsOnlyTheBacklog) {
  InputQueue honest;
  InputQueue hacker;
  sim::Seq honest_seq = 0;
  sim::Seq hacker_seq = 0;
  std::size_t honest_applied = 0;
  std::size_t hacker_applied = 0;
  for (int tick = 0; tick < 600; ++tick) {
    honest.Receive({honest_seq++, 0});
    hacker.Receive({hacker_seq++, 0});
    hacker.Receive({hacker_seq++, 0});
    honest_applied += Tick(honest).size();
    hacker_applied += Tick(hacker).size();
  }
  EXPECT_EQ(honest_applied, 600u);
  EXPECT_EQ(hacker_applied, 600u);
  EXPECT_GT(hacker.counters().dropped_rate_limit, 500u);
}

}  // namespace
}  // namespace netcube::server

namespace netcube::server {
namespace {

// One input is one 1/60 s step whatever the tick rate: a 20 Hz server applies three per tick, a 120 Hz
// server one every other tick, and an honest 60-inputs-per-second client never loses one.
TEST(InputQueue, RateLimitFollowsRealTimeAtAnyTickRate) {
  for (const int tick_rate : {1, 20, 60, 120}) {
    InputQueue queue(tick_rate);
    std::array<sim::Input, InputQueue::kMaxPerTick> out{};
    sim::Seq next = 0;
    std::size_t applied = 0;
    const int seconds = 3;
    double owed = 0.0;  // inputs the client has generated but not yet sent, at 60 per second
    for (int tick = 0; tick < seconds * tick_rate; ++tick) {
      owed += static_cast<double>(sim::kTicksPerSecond) / tick_rate;
      for (; owed >= 1.0; owed -= 1.0) queue.Receive({next++, sim::kRight});
      applied += queue.TakeForTick(out);
    }
    EXPECT_EQ(applied, static_cast<std::size_t>(seconds * sim::kTicksPerSecond)) << tick_rate << " Hz";
    EXPECT_EQ(queue.counters().dropped_rate_limit, 0u) << tick_rate << " Hz";
  }
}

TEST(InputQueue, DoubleRateClientIsHeldToRealTimeAtAnyTickRate) {
  for (const int tick_rate : {20, 60, 120}) {
    InputQueue queue(tick_rate);
    std::array<sim::Input, InputQueue::kMaxPerTick> out{};
    sim::Seq next = 0;
    std::size_t applied = 0;
    const int seconds = 3;
    for (int tick = 0; tick < seconds * tick_rate; ++tick) {
      for (int i = 0; i < 2 * sim::kTicksPerSecond / tick_rate; ++i) queue.Receive({next++, sim::kRight});
      applied += queue.TakeForTick(out);
    }
    EXPECT_LE(applied, static_cast<std::size_t>(seconds * sim::kTicksPerSecond + kMaxInputBacklogSteps))
        << tick_rate << " Hz";
    EXPECT_GT(queue.counters().dropped_rate_limit, 0u) << tick_rate << " Hz";
  }
}

}  // namespace
}  // namespace netcube::server
