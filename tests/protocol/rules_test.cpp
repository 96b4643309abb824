#include "netcube/protocol/rules.h"

#include <gtest/gtest.h>

namespace netcube::protocol {
namespace {

TEST(Rules, ATickWidensToTheNearestAcrossTheWrap) {
  EXPECT_EQ(WidenTick(5, 3), 5);
  EXPECT_EQ(WidenTick(1, 3), 1);
  EXPECT_EQ(WidenTick(2u, 0xFFFFFFFEll), 0x100000002ll);
  EXPECT_EQ(WidenTick(0xFFFFFFFEu, 0x100000002ll), 0xFFFFFFFEll);  // a late one from before the wrap
}

TEST(Rules, ASeenTickIsTheNewestWithThoseLowBitsUpToNow) {
  EXPECT_EQ(WidenSeenTick(100, 100), 100u);
  EXPECT_EQ(WidenSeenTick(99, 100), 99u);
  EXPECT_EQ(WidenSeenTick(0xFFFF, 0x10002), 0xFFFFu);  // across the 16-bit wrap
  EXPECT_EQ(WidenSeenTick(0x0003, 0x10002), 0x0003u);  // 65535 old: the oldest it can name
}

TEST(Rules, AReceiverGetsAtMostOneSnapshotATick) {
  EXPECT_EQ(EffectiveSnapshotRate(20, 60), 20);
  EXPECT_EQ(EffectiveSnapshotRate(60, 30), 30);
}

TEST(Rules, ANameIsOneToMaxPrintableCharacters) {
  EXPECT_TRUE(IsPrintableName("ab ~", 4));
  EXPECT_FALSE(IsPrintableName("", 4));
  EXPECT_FALSE(IsPrintableName("abcde", 4));
  EXPECT_FALSE(IsPrintableName("a\tb", 4));
  EXPECT_FALSE(IsPrintableName("a\x7f", 4));
}

}  // namespace
}  // namespace netcube::protocol
