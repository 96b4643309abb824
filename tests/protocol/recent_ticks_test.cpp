#include "netcube/protocol/recent_ticks.h"

#include <gtest/gtest.h>

namespace netcube::protocol {
namespace {

TEST(RecentTicks, HoldsTheTicksWithinItsSpanOfTheNewest) {
  RecentTicks ticks;
  EXPECT_FALSE(ticks.newest());
  EXPECT_FALSE(ticks.NewestHeld());
  EXPECT_FALSE(ticks.Contains(0));
  ticks.Insert(100);
  ticks.Insert(98);  // late
  EXPECT_EQ(ticks.newest(), 100u);
  EXPECT_TRUE(ticks.Contains(100));
  EXPECT_FALSE(ticks.Contains(99));
  EXPECT_TRUE(ticks.Contains(98));
  EXPECT_FALSE(ticks.Contains(101));
  ticks.Insert(98 + RecentTicks::kSpan - 1);  // 98 is now the oldest tick the span covers
  EXPECT_TRUE(ticks.Contains(98));
  EXPECT_TRUE(ticks.Contains(100));
  ticks.Insert(98 + RecentTicks::kSpan);
  EXPECT_FALSE(ticks.Contains(98));  // forgotten
  EXPECT_TRUE(ticks.Contains(100));
  ticks.Insert(50);  // older than the span: ignored
  EXPECT_FALSE(ticks.Contains(50));
  ticks.Insert(1000);  // a jump past the span forgets every other
  EXPECT_TRUE(ticks.Contains(1000));
  EXPECT_FALSE(ticks.Contains(98 + RecentTicks::kSpan));
}

TEST(RecentTicks, TheNewestHeldSkipsTheErasedOnes) {
  // As the client uses it: the snapshots received and not yet told, the newest told first, then the gaps.
  RecentTicks untold;
  for (const std::uint64_t tick : {10u, 11u, 13u, 12u}) untold.Insert(tick);
  EXPECT_EQ(untold.NewestHeld(), 13u);
  untold.Erase(13);
  EXPECT_EQ(untold.NewestHeld(), 12u);
  untold.Erase(12);
  untold.Erase(11);
  EXPECT_EQ(untold.NewestHeld(), 10u);
  untold.Erase(10);
  EXPECT_FALSE(untold.NewestHeld());
  EXPECT_EQ(untold.newest(), 13u);  // still the newest ever added
  untold.Erase(7);                  // never there: nothing changes
  untold.Erase(99);
  EXPECT_FALSE(untold.NewestHeld());
}

}  // namespace
}  // namespace netcube::protocol
