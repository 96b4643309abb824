#include "netcube/client/pending_inputs.h"

#include <gtest/gtest.h>

namespace netcube::client {
namespace {

PendingInput Entry(sim::Seq seq, std::uint8_t buttons = sim::kRight) {
  PendingInput e;
  e.input = {seq, buttons};
  e.predicted.x = seq;  // a recognisable marker
  return e;
}

TEST(PendingInputs, KeepsOrderAndDropsThroughTheAck) {
  PendingInputs q;
  for (sim::Seq s = 10; s < 20; ++s) ASSERT_TRUE(q.Push(Entry(s)));
  EXPECT_EQ(q.size(), 10u);
  EXPECT_EQ(q.oldest_seq(), 10);
  EXPECT_EQ(q.newest_seq(), 19);
  EXPECT_EQ(q.Acknowledge(14), 5u);
  ASSERT_EQ(q.size(), 5u);
  for (std::size_t i = 0; i < q.size(); ++i) EXPECT_EQ(q[i].input.seq, 15 + i);
  EXPECT_EQ(q.Find(14), nullptr);
  ASSERT_NE(q.Find(17), nullptr);
  EXPECT_EQ(q.Find(17)->predicted.x, 17);
  EXPECT_EQ(q.Find(20), nullptr);
}

TEST(PendingInputs, OldAndRepeatedAcksDropNothing) {
  PendingInputs q;
  for (sim::Seq s = 100; s < 105; ++s) q.Push(Entry(s));
  EXPECT_EQ(q.Acknowledge(50), 0u);
  EXPECT_EQ(q.Acknowledge(101), 2u);
  EXPECT_EQ(q.Acknowledge(101), 0u);
  EXPECT_EQ(q.Acknowledge(99), 0u);
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(q.Acknowledge(200), 3u);  // beyond the newest: everything
  EXPECT_TRUE(q.empty());
}

TEST(PendingInputs, WrapsAcross65535To0) {
  PendingInputs q;
  sim::Seq s = 65530;
  for (int i = 0; i < 12; ++i, ++s) ASSERT_TRUE(q.Push(Entry(s)));  // 65530 .. 5
  EXPECT_EQ(q.oldest_seq(), 65530);
  EXPECT_EQ(q.newest_seq(), 5);
  ASSERT_NE(q.Find(65535), nullptr);
  ASSERT_NE(q.Find(0), nullptr);
  EXPECT_EQ(q.Find(0)->input.seq, 0);
  EXPECT_EQ(q.Find(6), nullptr);
  EXPECT_EQ(q.Find(65529), nullptr);

  EXPECT_EQ(q.Acknowledge(65534), 5u);  // 65530..65534
  EXPECT_EQ(q[0].input.seq, 65535);
  EXPECT_EQ(q.Acknowledge(1), 3u);  // 65535, 0, 1: across the wrap
  ASSERT_EQ(q.size(), 4u);
  EXPECT_EQ(q[0].input.seq, 2);
  EXPECT_EQ(q[3].input.seq, 5);
}

TEST(PendingInputs, FullQueueDropsTheOldest) {
  PendingInputs q;
  sim::Seq s = 65000;  // also crosses the wrap while full
  for (std::size_t i = 0; i < PendingInputs::kCapacity; ++i, ++s) ASSERT_TRUE(q.Push(Entry(s)));
  EXPECT_FALSE(q.Push(Entry(s)));
  EXPECT_EQ(q.size(), PendingInputs::kCapacity);
  EXPECT_EQ(q.oldest_seq(), 65001);
  EXPECT_EQ(q.newest_seq(), s);
  EXPECT_EQ(q.Find(65000), nullptr);
  EXPECT_EQ(q.Find(s)->input.seq, s);
}

TEST(PendingInputs, ASequenceThatDoesNotFollowStartsOver) {
  PendingInputs q;
  q.Push(Entry(1));
  q.Push(Entry(2));
  q.Push(Entry(40));
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q.oldest_seq(), 40);
}

TEST(PendingInputs, ReplayCanRewritePredictions) {
  PendingInputs q;
  q.Push(Entry(7));
  q[0].predicted.y = 1234;
  EXPECT_EQ(q.Find(7)->predicted.y, 1234);
}

}  // namespace
}  // namespace netcube::client
