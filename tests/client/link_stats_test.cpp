// The snapshot loss estimate: counted only for snapshots that never came (a delta without its baseline
// came, but is unusable), measured once its horizon is full, and in step with the spacing of a new rate.
#include "link_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace netcube::client {
namespace {

TEST(LinkStats, LossIsMeasuredOnceItsHorizonIsFullAndStaysMeasured) {
  LinkStats link;
  link.Reset(Micros{0});
  // Every tick's snapshot (60 a second), every 50th lost: 2%.
  const auto receive = [&link](Tick from, Tick to) {
    for (Tick tick = from; tick <= to; ++tick) {
      if (tick % 50 != 0) link.OnSnapshot(tick, 60, 60);
    }
  };
  receive(1, 150);
  EXPECT_FALSE(link.loss_measured()) << "150 intervals cannot tell 2% from none";
  receive(151, 600);
  EXPECT_TRUE(link.loss_measured());
  EXPECT_NEAR(link.metrics().snapshot_loss, 0.02, 0.006);
  // A rate change starts the count over; what was measured stays measured.
  link.CountLossFrom(610);
  EXPECT_TRUE(link.loss_measured());
}

TEST(LinkStats, AfterARateChangeLossCountsInStepWithTheNewSpacing) {
  LinkStats link;
  link.Reset(Micros{0});
  Tick tick = 1;
  for (; tick <= 400; ++tick) ASSERT_TRUE(link.OnSnapshot(tick, 60, 60));
  // Back to 20 a second, asked to come from about tick 405: the request arrived at tick 404, and the
  // server's credit puts its snapshots on ticks 406, 409, ... Nothing is lost, at any span: counted from
  // tick 405, a span would expect a third of a snapshot more than came.
  link.CountLossFrom(405);
  for (; tick < 404; ++tick) ASSERT_TRUE(link.OnSnapshot(tick, 60, 20));
  for (tick = 406; tick < 406 + 3 * 300; tick += 3) {
    ASSERT_TRUE(link.OnSnapshot(tick, 60, 20));
    ASSERT_EQ(link.metrics().snapshot_loss, 0.0) << "at tick " << tick;
  }
}

// A delta against a baseline the client no longer holds came: it is no loss of the link, but the
// interpolation buffer cannot use it, and the adaptive delay must cover it as if it were lost.
TEST(LinkStats, ADeltaWithoutItsBaselineCameButIsUnusable) {
  LinkStats link;
  link.Reset(Micros{0});
  for (Tick tick = 1; tick <= 600; ++tick) {
    if (tick % 10 == 0) {
      link.OnMissingBaseline(tick, 60, 60);
      link.OnMissingBaseline(tick, 60, 60);  // its duplicate
    } else {
      ASSERT_TRUE(link.OnSnapshot(tick, 60, 60));
    }
  }
  const LinkMetrics& m = link.metrics();
  EXPECT_EQ(m.snapshot_loss, 0.0);
  EXPECT_NEAR(m.snapshot_unusable, 0.1, 0.006);
  EXPECT_EQ(m.snapshots_no_baseline, 60u) << "each counted once";
  EXPECT_EQ(m.snapshots_stale, 60u) << "the duplicates";
  EXPECT_EQ(m.snapshots_received, 540u);
  EXPECT_FALSE(link.OnSnapshot(600, 60, 60)) << "a tick that came is not taken again";
}

// harsh's link (25% loss, 25% duplication, +-100 ms jitter: each copy its own delay, so snapshots overtake
// each other by up to 12 ticks), seeded: over the run, the loss measured is the loss of the snapshots in
// its window.
TEST(LinkStats, UnderHarshConditionsTheLossSeenIsTheLinksOwn) {
  std::mt19937_64 random(1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  struct Arrival {
    double at_ms;
    Tick tick;
  };
  constexpr Tick kTicks = 6000;
  std::vector<Arrival> arrivals;
  std::vector<bool> lost(kTicks + 1, false);
  const auto delay_ms = [&] { return 500.0 + 100.0 * (2.0 * unit(random) - 1.0); };
  for (Tick tick = 1; tick <= kTicks; ++tick) {
    const double sent_ms = static_cast<double>(tick) * 1000.0 / 60.0;
    if (unit(random) < 0.25) {
      lost[static_cast<std::size_t>(tick)] = true;
      continue;
    }
    arrivals.push_back({sent_ms + delay_ms(), tick});
    if (unit(random) < 0.25) arrivals.push_back({sent_ms + delay_ms(), tick});
  }
  std::stable_sort(arrivals.begin(), arrivals.end(),
                   [](const Arrival& a, const Arrival& b) { return a.at_ms < b.at_ms; });
  LinkStats link;
  link.Reset(Micros{0});
  Tick newest = 0;
  double seen = 0.0;
  double real = 0.0;
  int samples = 0;
  for (std::size_t i = 0; i < arrivals.size(); ++i) {
    link.OnSnapshot(arrivals[i].tick, 60, 60);
    newest = std::max(newest, arrivals[i].tick);
    if (i % 100 != 0 || !link.loss_measured()) continue;
    // The window the measure looks at: 200 ticks, short of the newest 10.
    int lost_in_window = 0;
    for (Tick tick = newest - 210; tick < newest - 10; ++tick)
      lost_in_window += lost[static_cast<std::size_t>(tick)];
    seen += link.metrics().snapshot_loss;
    real += lost_in_window / 200.0;
    ++samples;
  }
  ASSERT_GT(samples, 40);
  EXPECT_NEAR(seen / samples, real / samples, 0.005);
  EXPECT_EQ(link.metrics().snapshot_unusable, link.metrics().snapshot_loss);
}

}  // namespace
}  // namespace netcube::client
