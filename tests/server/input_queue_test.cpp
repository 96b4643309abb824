#include "input_queue.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace netcube::server {
namespace {

// The rate limit and the sequence rules, apart from the jitter buffer: a tick applies what has arrived.
constexpr bool kUnbuffered = false;

std::vector<sim::Seq> Tick(InputQueue& queue, bool streaming = false) {
  std::array<sim::Input, InputQueue::kMaxPerTick> out{};
  const std::size_t count = queue.TakeForTick(out, streaming);
  std::vector<sim::Seq> seqs;
  for (std::size_t i = 0; i < count; ++i) seqs.push_back(out[i].seq);
  return seqs;
}

TEST(InputQueue, AppliesEachInputOnceInSequenceOrder) {
  InputQueue queue(sim::kTicksPerSecond, kUnbuffered);
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
  InputQueue queue(sim::kTicksPerSecond, kUnbuffered);
  queue.Receive({5, 0});
  Tick(queue);
  queue.Receive({5, 0});
  queue.Receive({4, 0});  // older than the first one ever seen
  EXPECT_EQ(queue.counters().duplicate, 2u);
  EXPECT_EQ(queue.size(), 0u);
}

TEST(InputQueue, GapSkipsAheadAndCountsLostInputs) {
  InputQueue queue(sim::kTicksPerSecond, kUnbuffered);
  queue.Receive({1, 0});
  queue.Receive({5, 0});  // 2, 3 and 4 will never come
  queue.Receive({3, 0});  // a straggler: it is too late now
  EXPECT_EQ(queue.counters().lost, 3u);
  EXPECT_EQ(queue.counters().duplicate, 1u);
  EXPECT_EQ(Tick(queue), std::vector<sim::Seq>{1});
  EXPECT_EQ(Tick(queue), std::vector<sim::Seq>{5});
}

TEST(InputQueue, AnOutageCountsEveryInputMadeMeanwhileAsLost) {
  InputQueue queue(sim::kTicksPerSecond, kUnbuffered);
  sim::Seq seq = 1;
  for (; seq <= 100; ++seq) {
    queue.Receive({seq, 0});
    Tick(queue);
  }
  // Two seconds without a packet: the client went on making an input a step.
  for (int i = 0; i < 2 * sim::kTicksPerSecond; ++i) Tick(queue);
  queue.Receive({static_cast<sim::Seq>(seq + 2 * sim::kTicksPerSecond), 0});
  EXPECT_EQ(queue.counters().lost, static_cast<std::uint64_t>(2 * sim::kTicksPerSecond));
}

TEST(InputQueue, ASequenceJumpingAheadFasterThanTimeCountsNoMoreLostThanTimeAllows) {
  // Issue 27: +999 a packet, 60 packets a second, counted 60,000 inputs lost a second.
  InputQueue queue(sim::kTicksPerSecond, kUnbuffered);
  sim::Seq seq = 1;
  for (int i = 0; i < sim::kTicksPerSecond; ++i) {
    queue.Receive({seq, 0});
    seq = static_cast<sim::Seq>(seq + 999);
    Tick(queue);
  }
  // A second of real time: a client makes 60 inputs in it (and may have had a few in hand).
  EXPECT_LE(queue.counters().lost, static_cast<std::uint64_t>(sim::kTicksPerSecond + kMaxInputBacklogSteps));
}

TEST(InputQueue, SequenceWrapsAround) {
  InputQueue queue(sim::kTicksPerSecond, kUnbuffered);
  for (const sim::Seq seq : {sim::Seq{65534}, sim::Seq{65535}, sim::Seq{0}, sim::Seq{1}})
    queue.Receive({seq, 0});
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
  InputQueue queue(sim::kTicksPerSecond, kUnbuffered);
  for (int i = 0; i < 20; ++i) Tick(queue);  // idle: credit saturates at kMaxInputBacklogSteps
  for (sim::Seq seq = 0; seq < kMaxQueuedInputs; ++seq) queue.Receive({seq, 0});
  std::vector<std::size_t> per_tick;
  while (queue.size() > 0) per_tick.push_back(Tick(queue).size());
  // Credit (capped at 8 after each tick's grant) 8 -> 5, 6 -> 3, 4 -> 1, 2 -> 0, then one per tick.
  const std::vector<std::size_t> expected = {3, 3, 3, 2, 1, 1, 1, 1, 1};
  EXPECT_EQ(per_tick, expected);
}

TEST(InputQueue, FloodBeyondTheQueueIsDroppedForGood) {
  InputQueue queue(sim::kTicksPerSecond, kUnbuffered);
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
  InputQueue honest(sim::kTicksPerSecond, kUnbuffered);
  InputQueue hacker(sim::kTicksPerSecond, kUnbuffered);
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
    InputQueue queue(tick_rate, kUnbuffered);
    std::array<sim::Input, InputQueue::kMaxPerTick> out{};
    sim::Seq next = 0;
    std::size_t applied = 0;
    const int seconds = 3;
    double owed = 0.0;  // inputs the client has generated but not yet sent, at 60 per second
    for (int tick = 0; tick < seconds * tick_rate; ++tick) {
      owed += static_cast<double>(sim::kTicksPerSecond) / tick_rate;
      for (; owed >= 1.0; owed -= 1.0) queue.Receive({next++, sim::kRight});
      applied += queue.TakeForTick(out, true);
    }
    EXPECT_EQ(applied, static_cast<std::size_t>(seconds * sim::kTicksPerSecond)) << tick_rate << " Hz";
    EXPECT_EQ(queue.counters().dropped_rate_limit, 0u) << tick_rate << " Hz";
  }
}

TEST(InputQueue, DoubleRateClientIsHeldToRealTimeAtAnyTickRate) {
  for (const int tick_rate : {20, 60, 120}) {
    InputQueue queue(tick_rate, kUnbuffered);
    std::array<sim::Input, InputQueue::kMaxPerTick> out{};
    sim::Seq next = 0;
    std::size_t applied = 0;
    const int seconds = 3;
    for (int tick = 0; tick < seconds * tick_rate; ++tick) {
      for (int i = 0; i < 2 * sim::kTicksPerSecond / tick_rate; ++i) queue.Receive({next++, sim::kRight});
      applied += queue.TakeForTick(out, true);
    }
    EXPECT_LE(applied, static_cast<std::size_t>(seconds * sim::kTicksPerSecond + kMaxInputBacklogSteps))
        << tick_rate << " Hz";
    EXPECT_GT(queue.counters().dropped_rate_limit, 0u) << tick_rate << " Hz";
  }
}

}  // namespace
}  // namespace netcube::server

namespace netcube::server {
namespace {

constexpr bool kBuffered = true;

// A stream of inputs waits until the target is waiting beyond what the tick applies, then moves one step a
// tick; the lead says how many more than the target wait.
TEST(InputQueueBuffer, ANewStreamFillsTheBufferThenAppliesOneStepATick) {
  InputQueue queue(sim::kTicksPerSecond, kBuffered);
  ASSERT_EQ(queue.target(), InputQueue::kInitialTarget);
  sim::Seq next = 0;
  queue.Receive({next++, sim::kRight});
  EXPECT_TRUE(Tick(queue).empty()) << "the first input waits for the one after it";
  queue.Receive({next++, sim::kRight});
  EXPECT_EQ(Tick(queue), std::vector<sim::Seq>{0});
  EXPECT_EQ(queue.lead(), 0);
  for (int tick = 0; tick < 100; ++tick) {
    queue.Receive({next++, sim::kRight});
    EXPECT_EQ(Tick(queue, true).size(), 1u);
    EXPECT_EQ(queue.lead(), 0);
  }
  EXPECT_EQ(queue.counters().dry_ticks, 0u);
  EXPECT_EQ(queue.counters().streaming_ticks, 100u);
}

// One input a tick, except that every tenth packet is two ticks late and arrives with the next two (each
// packet carries the unacknowledged inputs). Without the buffer the cube stands still for two ticks in
// ten; with it the first gap raises the target to two, and no later gap is felt.
TEST(InputQueueBuffer, InputsArrivingLateStillMoveTheCubeEveryTick) {
  for (const bool buffered : {false, true}) {
    InputQueue queue(sim::kTicksPerSecond, buffered);
    for (int tick = 0; tick < 20; ++tick) Tick(queue);  // connected a while: the rate limit's credit is full
    std::size_t applied = 0;
    for (int tick = 3; tick < 603; ++tick) {
      const int phase = tick % 10;
      if (phase == 2) {
        for (int late = tick - 2; late <= tick; ++late)
          queue.Receive({static_cast<sim::Seq>(late), sim::kRight});
      } else if (phase != 0 && phase != 1) {
        queue.Receive({static_cast<sim::Seq>(tick), sim::kRight});
      }
      applied += Tick(queue, tick > 3).size();
    }
    const InputCounters& c = queue.counters();
    EXPECT_EQ(c.dropped_rate_limit, 0u);
    EXPECT_EQ(c.lost, 0u);
    if (buffered) {
      EXPECT_EQ(c.dry_ticks, 1u) << "the first gap raises the target, then the buffer rides out the gaps";
      EXPECT_EQ(queue.target(), 2);
      EXPECT_GE(applied, 597u);
    } else {
      EXPECT_EQ(c.dry_ticks, 120u);
      EXPECT_EQ(applied, 600u);
    }
  }
}

// A client sending faster than real time builds a surplus, which drains one extra input a tick; a
// target that kept a spare input through a whole window is lowered.
TEST(InputQueueBuffer, ASurplusDrainsAndAnUnneededTargetShrinks) {
  InputQueue queue(sim::kTicksPerSecond, kBuffered);
  sim::Seq next = 0;
  for (int i = 0; i < 6; ++i) queue.Receive({next++, sim::kRight});
  for (int tick = 0; tick < 20; ++tick) Tick(queue);  // idle ticks first: credit for the catch-up
  EXPECT_LE(queue.lead(), 1);
  InputQueue steady(sim::kTicksPerSecond, kBuffered);
  next = 0;
  for (int i = 0; i < 4; ++i) steady.Receive({next++, sim::kRight});  // three spare: the target is one
  for (int tick = 0; tick < InputQueue::kShrinkWindowTicks + 10; ++tick) {
    steady.Receive({next++, sim::kRight});
    Tick(steady, true);
  }
  EXPECT_EQ(steady.target(), InputQueue::kInitialTarget - 1);
  EXPECT_EQ(steady.counters().dry_ticks, 0u);
}

}  // namespace
}  // namespace netcube::server
