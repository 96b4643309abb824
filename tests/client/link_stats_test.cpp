// The snapshot loss estimate: counted only for snapshots that never came, measured once its horizon is
// full, and in step with the spacing of a new rate.
#include "link_stats.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace netcube::client
