#include "netcube/client/server_clock.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

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

TEST(ServerClock, AdaptiveDelayCoversALostSnapshotAndTheJitter) {
  ServerClock calm;
  calm.Reset(60, 20, 0, ArrivalOf(0, 10'000));
  for (Tick t = 3; t < 600; t += 3) calm.OnSnapshot(t, ArrivalOf(t, 10'000));
  EXPECT_NEAR(calm.AdaptiveDelayMs(0.0), 100.0 + kTickUs / 1000.0, 2.0);  // two 50 ms intervals and a tick

  ServerClock rough;
  rough.Reset(60, 20, 0, ArrivalOf(0, 10'000));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> jitter(0, 40'000);
  std::bernoulli_distribution lost(0.05);
  for (Tick t = 3; t < 3 * 600; t += 3) {
    if (!lost(rng)) rough.OnSnapshot(t, ArrivalOf(t, 10'000 + jitter(rng)));
  }
  EXPECT_GT(rough.snapshot_interval_ms(), 50.0);
  // Three lost in a row ridden out at 5% loss: four sent intervals, plus the full jitter.
  EXPECT_GT(rough.AdaptiveDelayMs(0.05), 200.0 + 40.0);
  EXPECT_LT(rough.AdaptiveDelayMs(0.05), 350.0);
}

TEST(ServerClock, RidesOutLongerLossRunsAsLossGrows) {
  EXPECT_EQ(LossesToRideOut(0.0), 1);  // one lost snapshot is always ridden out
  EXPECT_EQ(LossesToRideOut(0.005), 1);
  EXPECT_EQ(LossesToRideOut(0.05), 3);  // 0.05^4 x 12,000 < 1 < 0.05^3 x 12,000
  EXPECT_GT(LossesToRideOut(0.4), LossesToRideOut(0.05));
  EXPECT_EQ(LossesToRideOut(-1.0), 1);  // out-of-range measurements are clamped
  EXPECT_EQ(LossesToRideOut(2.0), LossesToRideOut(1.0));
  for (double loss = 0.0; loss <= 0.7; loss += 0.01) {  // beyond about 0.74 the cap of the run length rules
    const int n = LossesToRideOut(loss);
    EXPECT_LE(std::pow(loss, n + 1) * kSnapshotsPerUnderrun, 1.0) << loss;
  }
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
