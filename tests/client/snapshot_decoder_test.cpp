#include "netcube/client/snapshot_decoder.h"

#include <gtest/gtest.h>

#include <vector>

namespace netcube::client {
namespace {

std::vector<sim::PlayerCube> WorldAt(Tick tick) {
  return {{1, {static_cast<std::int32_t>(1024 + tick % 1000), 2000, 0, 0, 0}}};
}

TEST(SnapshotDecoder, KeepsTheNewestAndForgetsWhatIsOlderThanTheRing) {
  SnapshotDecoder baselines;
  EXPECT_EQ(baselines.Find(0), nullptr);
  // Across the 32-bit wrap: ticks are the client's unwrapped 64-bit ones.
  const Tick first = 0xFFFFFFF0;
  constexpr Tick kStored = SnapshotDecoder::kSlots + 8;
  for (Tick t = first; t < first + kStored; ++t) baselines.Received(t, WorldAt(t));
  for (Tick t = first; t < first + 8; ++t) EXPECT_EQ(baselines.Find(t), nullptr) << t;  // older than the ring
  for (Tick t = first + 8; t < first + kStored; ++t) {
    const auto* world = baselines.Find(t);
    ASSERT_NE(world, nullptr) << t;
    EXPECT_EQ((*world)[0].state.x, 1024 + t % 1000);
  }
  // A late arrival older than everything held is not kept; one inside the window replaces the oldest.
  baselines.Received(first + 2, WorldAt(first + 2));
  EXPECT_EQ(baselines.Find(first + 2), nullptr);
  baselines.Reset();
  EXPECT_EQ(baselines.Find(first + kStored - 1), nullptr);
}

TEST(SnapshotDecoder, ADuplicateKeepsTheFirstCopy) {
  SnapshotDecoder baselines;
  baselines.Received(5, WorldAt(5));
  baselines.Received(5, WorldAt(6));
  ASSERT_NE(baselines.Find(5), nullptr);
  EXPECT_EQ((*baselines.Find(5))[0].state.x, 1029);
}

}  // namespace
}  // namespace netcube::client
