#include "netcube/client/server_clock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "rate_chooser.h"
#include "view_delay.h"

namespace netcube::client {
namespace {

constexpr double kTickUs = 1e6 / 60.0;

Micros ArrivalOf(Tick tick, double latency_us) {
  return Micros(static_cast<std::int64_t>(static_cast<double>(tick) * kTickUs + latency_us));
}

TEST(UnwrapTick, ContinuesAcrossTheWrap) {
  EXPECT_EQ(UnwrapTick(5, 3), 5);
  EXPECT_EQ(UnwrapTick(1, 3), 1);
  EXPECT_EQ(UnwrapTick(2u, 0xFFFFFFFEll), 0x100000002ll);
  EXPECT_EQ(UnwrapTick(0xFFFFFFFEu, 0x100000002ll), 0xFFFFFFFEll);  // a late one from before the wrap
  EXPECT_EQ(UnwrapTick(7u, 0x300000000ll), 0x300000007ll);
}

TEST(ServerClock, TracksTheFastestPathAndIsNotResetByEachSnapshot) {
  ServerClock clock;
  const double latency_us = 40'000;
  clock.Reset(60, 20, 0, ArrivalOf(0, latency_us));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(0, 20'000);
  double previous = -1e9;
  for (Tick t = 3; t < 3 * 400; t += 3) {
    const Micros arrival = ArrivalOf(t, latency_us + jitter(rng));
    clock.OnSnapshot(t, arrival);
    // The estimate of "now" never falls below the tick that just arrived minus the jitter, and it moves
    // forward smoothly (never backward between two arrivals).
    const double estimate = clock.ServerTicks(arrival);
    EXPECT_GE(estimate, static_cast<double>(t) - 0.1);
    EXPECT_GT(estimate, previous);
    previous = estimate;
  }
  // The estimate sits near the lower envelope: at most the jitter (1.2 ticks) ahead of the tick a
  // fastest-path packet carries.
  const Micros fastest = ArrivalOf(1200, latency_us);
  EXPECT_NEAR(clock.ServerTicks(fastest), 1200.0, 1.2);
  EXPECT_NEAR(clock.snapshot_interval_ms(), 50.0, 1.0);
  EXPECT_GT(clock.lateness_mean_ms(), 3.0);
  EXPECT_LT(clock.lateness_mean_ms(), 20.0);
}

// Gives `clock` the snapshots of every `spacing`-th tick in (from, to], each lost with probability `loss`
// and delayed by 10 ms plus up to `jitter_us`, observing it every millisecond as a client's frames would.
void Feed(ServerClock& clock, Tick from, Tick to, Tick spacing, double loss, double jitter_us,
          std::mt19937& rng) {
  std::uniform_real_distribution<double> jitter(0, jitter_us);
  std::bernoulli_distribution lost(loss);
  std::vector<std::pair<Micros, Tick>> arrivals;
  for (Tick t = from + spacing; t <= to; t += spacing) {
    if (!lost(rng)) arrivals.emplace_back(ArrivalOf(t, 10'000 + jitter(rng)), t);
  }
  std::sort(arrivals.begin(), arrivals.end());
  Tick newest = from;
  std::size_t next = 0;
  for (Micros now = ArrivalOf(from, 10'000); now <= ArrivalOf(to, 10'000); now += Micros(1000)) {
    for (; next < arrivals.size() && arrivals[next].first <= now; ++next) {
      if (arrivals[next].second > newest) clock.OnSnapshot(arrivals[next].second, arrivals[next].first);
      newest = std::max(newest, arrivals[next].second);
    }
    clock.Observe(now);
  }
}

// A fresh clock over `seconds` of 20 snapshots a second at 60 ticks.
void Play(ServerClock& clock, double seconds, double loss, double jitter_us, unsigned seed) {
  clock.Reset(60, 20, 0, ArrivalOf(0, 10'000));
  std::mt19937 rng(seed);
  Feed(clock, 0, static_cast<Tick>(seconds * 60), 3, loss, jitter_us, rng);
}

TEST(ServerClock, MeasuredDelayCoversWhatTheNetworkMeasurablyNeeds) {
  ServerClock fresh;
  fresh.Reset(60, 20, 0, ArrivalOf(0, 10'000));
  EXPECT_DOUBLE_EQ(fresh.MeasuredDelayMs(), 100.0);  // before any measurement: two intervals

  // A clean link: the newest snapshot is at most one interval old.
  ServerClock calm;
  Play(calm, 20, 0.0, 0.0, 1);
  EXPECT_NEAR(calm.MeasuredDelayMs(), 50.0, 2.5);

  // Loss and jitter: one lost snapshot in a row is common at 5%, two are rare (1 in 400); jitter adds up
  // to 40 ms. The margin on top is two intervals at most.
  ServerClock rough;
  Play(rough, 20, 0.05, 40'000, 3);
  EXPECT_GT(rough.MeasuredDelayMs(), 100.0);
  EXPECT_LT(rough.StalenessQuantileMs(ServerClock::kStalenessQuantile), 150.0 + 40.0);
  EXPECT_LE(rough.MeasuredDelayMs(), rough.StalenessQuantileMs(ServerClock::kStalenessQuantile) + 100.0);
}

TEST(ServerClock, AddsAMarginForTheTailOfWhatLossAndJitterAdd) {
  for (const double loss : {0.0, 0.05, 0.25}) {
    ServerClock clock;
    Play(clock, 20, loss, loss * 400'000, 5);
    const double quantile = clock.StalenessQuantileMs(ServerClock::kStalenessQuantile);
    // Three times what loss and jitter add beyond one interval, at most two intervals.
    const double margin = std::clamp(3.0 * (quantile - 50.0), 0.0, 100.0);
    EXPECT_DOUBLE_EQ(clock.MeasuredDelayMs(), std::max(quantile + margin, 50.0)) << "loss " << loss;
  }
}

TEST(ViewDelay, CoversTheRunOfLossesExpectedLessThanOnceInAHundredThousandSnapshots) {
  ServerClock clock;
  Play(clock, 20, 0.0, 0.0, 1);
  ViewDelay delay;
  // Until the loss is measured, 1% is assumed: three in a row (1 in a million) leave the newest snapshot
  // four intervals old, extrapolation bridges one: three intervals and a half.
  EXPECT_DOUBLE_EQ(delay.AdaptiveTargetMs(clock), 3.5 * 50.0);
  delay.SetSnapshotLoss(0.0, false);
  EXPECT_DOUBLE_EQ(delay.AdaptiveTargetMs(clock), 3.5 * 50.0);
  delay.SetSnapshotLoss(0.0, true);
  EXPECT_DOUBLE_EQ(delay.AdaptiveTargetMs(clock), clock.MeasuredDelayMs());
  EXPECT_NEAR(delay.AdaptiveTargetMs(clock), 50.0, 2.5);
  // 2%: three in a row (8 in a million).
  delay.SetSnapshotLoss(0.02, true);
  EXPECT_DOUBLE_EQ(delay.AdaptiveTargetMs(clock), 3.5 * 50.0);
  // 25%: nine in a row (4 in a million), measured or not.
  delay.SetSnapshotLoss(0.25, true);
  EXPECT_DOUBLE_EQ(delay.AdaptiveTargetMs(clock), 9.5 * 50.0);
  delay.SetSnapshotLoss(0.25, false);
  EXPECT_DOUBLE_EQ(delay.AdaptiveTargetMs(clock), 9.5 * 50.0);
  // A fresh delay, at the tick rate: each interval costs a third, the cautious start is 58 ms, not 175.
  ServerClock fast;
  fast.Reset(60, 60, 0, ArrivalOf(0, 10'000));
  EXPECT_DOUBLE_EQ(ViewDelay{}.AdaptiveTargetMs(fast), 3.5 * 1000.0 / 60);
  // Asked for the tick rate at the start: the few snapshots still to come at 20 a second need no cover
  // for a run that rare, only the two intervals of a clock with no sample yet.
  ServerClock asking;
  asking.Reset(60, 20, 0, ArrivalOf(0, 10'000));
  EXPECT_DOUBLE_EQ(ViewDelay{}.AdaptiveTargetMs(asking), 3.5 * 50.0);
  asking.SetSnapshotRate(60, 30);
  EXPECT_DOUBLE_EQ(ViewDelay{}.AdaptiveTargetMs(asking), 100.0);
}

TEST(ServerClock, ARateChangeStartsTheWindowOverWhenItArrivesAndHoldsTheDelayMeanwhile) {
  ServerClock clock;
  Play(clock, 10, 0.05, 40'000, 3);
  const double before = clock.MeasuredDelayMs();
  ASSERT_GT(before, 100.0);
  std::mt19937 rng(4);
  // Asked at tick 600 for every tick from 630 on: until then snapshots come as before.
  clock.SetSnapshotRate(60, 630);
  Feed(clock, 600, 627, 3, 0.0, 0.0, rng);
  EXPECT_DOUBLE_EQ(clock.nominal_interval_ms(), 50.0);
  EXPECT_DOUBLE_EQ(clock.MeasuredDelayMs(), before);
  // A clean link at the new rate: the old delay, less the 33 ms of regular spacing it no longer needs,
  // holds for the first second of samples, then the new window's own takes over.
  Feed(clock, 627, 627 + 50, 1, 0.0, 0.0, rng);
  EXPECT_NEAR(clock.nominal_interval_ms(), 1000.0 / 60, 1e-9);
  EXPECT_FALSE(clock.settled());
  EXPECT_DOUBLE_EQ(clock.MeasuredDelayMs(), before - (50.0 - 1000.0 / 60));
  Feed(clock, 677, 677 + 120, 1, 0.0, 0.0, rng);
  EXPECT_TRUE(clock.settled());
  EXPECT_LT(clock.MeasuredDelayMs(), 35.0);
}

TEST(SnapshotRateChooser, StartsAtTheTickRateAndGoesBackOnlyAfterAFullCleanWindow) {
  const auto at = [](Tick tick) { return ArrivalOf(tick, 0); };
  std::mt19937 rng(2);
  // A new connection's link is not measured yet: the tick rate first, before any sample.
  SnapshotRateChooser chooser;
  chooser.Reset(20, 60);
  ServerClock clock;
  clock.Reset(60, 20, 0, ArrivalOf(0, 10'000));
  ASSERT_EQ(chooser.Decide(clock, true, at(0)), 60);
  chooser.Asked(60);
  EXPECT_TRUE(chooser.asked());
  EXPECT_EQ(chooser.rate(), 60);
  clock.SetSnapshotRate(60, 1);
  // Two clean seconds are not enough to go back: 2% loss leaves one in three such seconds clean.
  Feed(clock, 0, 120, 1, 0.0, 0.0, rng);
  ASSERT_TRUE(clock.settled());
  EXPECT_EQ(chooser.Decide(clock, true, at(120)), std::nullopt);
  // Loss and jitter at the tick rate: at their worst they still add more than a tenth of a server
  // interval, and it stays.
  Feed(clock, 120, 1200, 1, 0.05, 40'000, rng);
  EXPECT_EQ(chooser.Decide(clock, true, at(1200)), std::nullopt);
  // The link turns clean: once a full window (10 s) shows nothing added to the regular spacing, the
  // server's rate is asked, at the next judgement (every 100 ms).
  Feed(clock, 1200, 1740, 1, 0.0, 0.0, rng);
  EXPECT_EQ(chooser.Decide(clock, true, at(1740)), std::nullopt) << "9 s: the window still holds losses";
  Feed(clock, 1740, 1860, 1, 0.0, 0.0, rng);
  EXPECT_EQ(chooser.Decide(clock, true, at(1740) + Micros(99'000)), std::nullopt);
  EXPECT_EQ(chooser.Decide(clock, false, at(1860)), 20) << "switched off: the server's rate back at once";
  ASSERT_EQ(chooser.Decide(clock, true, at(1860)), 20);
  chooser.Asked(20);
  EXPECT_FALSE(chooser.asked());

  // At the server's rate, 5% loss and 40 ms of jitter add more than a quarter of its interval at the
  // 99th percentile: the tick rate again, judged once 1 s of samples is in.
  clock.SetSnapshotRate(20, 1861);
  Feed(clock, 1860, 1890, 3, 0.05, 40'000, rng);
  EXPECT_FALSE(clock.settled());
  EXPECT_EQ(chooser.Decide(clock, true, at(1890)), std::nullopt) << "no decision on half a second of samples";
  Feed(clock, 1890, 2460, 3, 0.05, 40'000, rng);
  EXPECT_EQ(chooser.Decide(clock, true, at(2460)), 60);

  // On a clean link at the server's rate, the server's rate is enough.
  ServerClock clean;
  Play(clean, 10, 0.0, 0.0, 1);
  EXPECT_EQ(chooser.Decide(clean, true, at(3000)), std::nullopt);
}

TEST(ServerClock, FollowsALatencyIncreaseWithinSeconds) {
  ServerClock clock;
  clock.Reset(60, 20, 0, ArrivalOf(0, 10'000));
  Tick t = 3;
  for (; t < 600; t += 3) clock.OnSnapshot(t, ArrivalOf(t, 10'000));
  for (const Tick end = t + 60 * 10; t < end; t += 3) clock.OnSnapshot(t, ArrivalOf(t, 110'000));
  EXPECT_NEAR(clock.ServerTicks(ArrivalOf(t, 110'000)), static_cast<double>(t), 0.5);
}

}  // namespace
}  // namespace netcube::client
