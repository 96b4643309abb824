#include "netcube/transport/recycled_buffers.h"

#include <gtest/gtest.h>

#include <memory>

namespace netcube::transport {
namespace {

using Pool = RecycledBuffers<std::unique_ptr<int>>;

TEST(RecycledBuffers, ClassesArePowersOfTwoFromSixtyFourBytesToTheLargestPacket) {
  EXPECT_EQ(Pool::ClassBytes(0), 64u);
  EXPECT_EQ(Pool::ClassBytes(Pool::kClasses - 1), protocol::kMaxPacketBytes);
  EXPECT_EQ(Pool::ClassFor(0), 0u);
  EXPECT_EQ(Pool::ClassFor(64), 0u);
  EXPECT_EQ(Pool::ClassFor(65), 1u);
  EXPECT_EQ(Pool::ClassFor(1928), 5u);  // a 256-player snapshot fits a 2 KiB buffer
  EXPECT_EQ(Pool::ClassFor(protocol::kMaxPacketBytes), Pool::kClasses - 1);
  EXPECT_EQ(Pool::ClassFor(protocol::kMaxPacketBytes + 1), std::nullopt);
}

TEST(RecycledBuffers, ABufferServesTheLargestClassItHolds) {
  EXPECT_EQ(Pool::ClassServedBy(63), std::nullopt);
  EXPECT_EQ(Pool::ClassServedBy(64), 0u);
  EXPECT_EQ(Pool::ClassServedBy(127), 0u);
  EXPECT_EQ(Pool::ClassServedBy(128), 1u);
  EXPECT_EQ(Pool::ClassServedBy(protocol::kMaxPacketBytes), Pool::kClasses - 1);
  EXPECT_EQ(Pool::ClassServedBy(protocol::kMaxPacketBytes + 1), std::nullopt);
}

TEST(RecycledBuffers, KeepsAtMostItsIdleLimitPerClassAndHandsBackTheNewestFirst) {
  Pool pool;
  EXPECT_EQ(pool.Take(2), std::nullopt);
  for (std::size_t i = 0; i < Pool::kMaxIdle + 10; ++i)
    pool.Give(2, std::make_unique<int>(static_cast<int>(i)));
  EXPECT_EQ(pool.idle(2), Pool::kMaxIdle);
  EXPECT_EQ(pool.idle(1), 0u);
  std::optional<std::unique_ptr<int>> taken = pool.Take(2);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(**taken, static_cast<int>(Pool::kMaxIdle) - 1);
  EXPECT_EQ(pool.idle(2), Pool::kMaxIdle - 1);
}

}  // namespace
}  // namespace netcube::transport
