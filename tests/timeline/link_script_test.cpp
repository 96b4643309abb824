// The link script's grammar: every change, its targets and durations, and what a bad one says.
#include "netcube/timeline/link_script.h"

#include <gtest/gtest.h>

namespace netcube::timeline {
namespace {

TEST(LinkScript, ParsesEveryKindOfChange) {
  std::string error;
  const auto changes = ParseLinkScript(
      "2s blackout 400ms client 1; 5s loss 30% for 1s\n1.5s latency 300ms for 2s client 2; 8s jitter 40 "
      "server;"
      "9s duplicate 0.1; 10s reorder 5%",
      &error);
  ASSERT_TRUE(changes) << error;
  ASSERT_EQ(changes->size(), 6U);
  const LinkChange& blackout = (*changes)[0];
  EXPECT_EQ(blackout.field, LinkField::kBlackout);
  EXPECT_EQ(blackout.at, Micros(2'000'000));
  EXPECT_EQ(blackout.duration, Micros(400'000));
  EXPECT_EQ(blackout.client, std::optional<std::size_t>(0));
  EXPECT_EQ(blackout.text, "2s blackout 400ms client 1");
  EXPECT_DOUBLE_EQ((*changes)[1].value, 0.3);
  EXPECT_EQ((*changes)[1].duration, Micros(1'000'000));
  EXPECT_FALSE((*changes)[1].client);
  EXPECT_EQ((*changes)[2].at, Micros(1'500'000));
  EXPECT_DOUBLE_EQ((*changes)[2].value, 300.0);
  EXPECT_EQ((*changes)[2].client, std::optional<std::size_t>(1));
  EXPECT_TRUE((*changes)[3].server);
  EXPECT_DOUBLE_EQ((*changes)[4].value, 0.1);
  EXPECT_DOUBLE_EQ((*changes)[5].value, 0.05);
}

TEST(LinkScript, AClockStepIsForwardAndForClients) {
  std::string error;
  const auto changes = ParseLinkScript("3s clock +300ms client 2; 4s clock 1s", &error);
  ASSERT_TRUE(changes) << error;
  EXPECT_EQ((*changes)[0].field, LinkField::kClock);
  EXPECT_EQ((*changes)[0].duration, Micros(300'000));
  EXPECT_EQ((*changes)[0].client, std::optional<std::size_t>(1));
  EXPECT_EQ((*changes)[1].duration, Micros(1'000'000));
  EXPECT_FALSE((*changes)[1].client);
}

TEST(LinkScript, SaysWhatIsWrongWithABadChange) {
  for (const char* bad :
       {"", "2s", "2 loss 30%", "2s loss 130%", "2s blackout", "2s warp 3", "2s loss 3% client 0",
        "2s loss 3% for", "2s latency 20000ms", "2s loss 3% sideways", "2s clock -300ms", "2s clock 0ms",
        "2s clock +300ms server", "2s clock +300ms for 1s"}) {
    std::string error;
    EXPECT_FALSE(ParseLinkScript(bad, &error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

}  // namespace
}  // namespace netcube::timeline
