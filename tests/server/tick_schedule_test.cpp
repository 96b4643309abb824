#include "tick_schedule.h"

#include <gtest/gtest.h>

namespace netcube::server {
namespace {

TEST(TickSchedule, TicksFollowTheRateWithoutDrift) {
  const TickSchedule schedule(Micros(1000), 60);
  EXPECT_EQ(schedule.TimeOf(0), Micros(1000));
  EXPECT_EQ(schedule.TimeOf(1), Micros(1000 + 16'666));
  EXPECT_EQ(schedule.TimeOf(3), Micros(1000 + 50'000));
  EXPECT_EQ(schedule.TimeOf(60 * 3600), Micros(1000 + 3'600'000'000LL));  // one hour: not a µs off
}

TEST(TickSchedule, LastDueTickAgreesWithTimeOf) {
  for (const int rate : {1, 7, 20, 60, 144, 240}) {
    const TickSchedule schedule(Micros(500), rate);
    for (std::int64_t t = 0; t < 2'100'000; t += 997) {
      const std::uint64_t last = schedule.LastDueTick(Micros(t));
      if (t >= 500) {
        EXPECT_LE(schedule.TimeOf(last), Micros(t)) << rate << " " << t;
      }
      EXPECT_GT(schedule.TimeOf(last + 1), Micros(t)) << rate << " " << t;
    }
  }
}

TEST(TickSchedule, RebaseKeepsTheTickCountAndTheLastTickTime) {
  TickSchedule schedule(Micros(0), 60);
  schedule.Rebase(30, 20);
  EXPECT_EQ(schedule.TimeOf(30), Micros(500'000));
  EXPECT_EQ(schedule.TimeOf(31), Micros(550'000));
  EXPECT_EQ(schedule.LastDueTick(Micros(649'999)), 32u);
  EXPECT_EQ(schedule.LastDueTick(Micros(650'000)), 33u);
}

}  // namespace
}  // namespace netcube::server
