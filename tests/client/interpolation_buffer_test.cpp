#include "netcube/client/interpolation_buffer.h"

#include <gtest/gtest.h>

#include "netcube/client/server_clock.h"

namespace netcube::client {
namespace {

sim::CubeState At(std::int32_t x, std::int32_t vx = 0) {
  sim::CubeState s;
  s.x = x;
  s.y = 10 * sim::kSubUnitsPerUnit;
  s.vx = vx;
  return s;
}

constexpr std::int32_t kUnit = sim::kSubUnitsPerUnit;

TEST(InterpolationBuffer, InterpolatesLinearlyBetweenTheStatesAroundTheRenderTime) {
  InterpolationBuffer b;
  b.Insert(100, At(10 * kUnit));
  b.Insert(103, At(13 * kUnit));
  b.Insert(106, At(19 * kUnit));
  Sample s = b.SampleAt(101.5, 0, sim::kStandardArena);
  EXPECT_EQ(s.kind, SampleKind::kInterpolated);
  EXPECT_DOUBLE_EQ(s.position.x, 11.5);
  EXPECT_DOUBLE_EQ(s.position.y, 10.0);
  s = b.SampleAt(104.5, 0, sim::kStandardArena);
  EXPECT_DOUBLE_EQ(s.position.x, 16.0);
  EXPECT_DOUBLE_EQ(b.SampleAt(106, 0, sim::kStandardArena).position.x, 19.0);
  EXPECT_EQ(b.SampleAt(106, 0, sim::kStandardArena).kind, SampleKind::kInterpolated);
  EXPECT_EQ(b.SampleAt(99, 0, sim::kStandardArena).kind, SampleKind::kBeforeOldest);
  EXPECT_DOUBLE_EQ(b.SampleAt(99, 0, sim::kStandardArena).position.x, 10.0);
}

TEST(InterpolationBuffer, OutOfOrderAndDuplicateSnapshotsEndUpSorted) {
  InterpolationBuffer b;
  EXPECT_EQ(b.Insert(106, At(6)), InterpolationBuffer::InsertResult::kInserted);
  EXPECT_EQ(b.Insert(100, At(0)), InterpolationBuffer::InsertResult::kInserted);
  EXPECT_EQ(b.Insert(103, At(3)), InterpolationBuffer::InsertResult::kInserted);
  EXPECT_EQ(b.Insert(103, At(3)), InterpolationBuffer::InsertResult::kDuplicate);
  EXPECT_EQ(b.Insert(100, At(0)), InterpolationBuffer::InsertResult::kDuplicate);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].tick, 100);
  EXPECT_EQ(b[1].tick, 103);
  EXPECT_EQ(b[2].tick, 106);
  EXPECT_EQ(b.newest().state.x, 6);
}

TEST(InterpolationBuffer, AFullBufferDropsTheOldestAndRefusesOlder) {
  InterpolationBuffer b;
  for (Tick t = 0; t < static_cast<Tick>(InterpolationBuffer::kCapacity); ++t) b.Insert(10 + t * 3, At(0));
  EXPECT_EQ(b.Insert(5, At(0)), InterpolationBuffer::InsertResult::kTooOld);
  EXPECT_EQ(b.Insert(11, At(0)), InterpolationBuffer::InsertResult::kInserted);  // between the two oldest
  EXPECT_EQ(b.size(), InterpolationBuffer::kCapacity);
  EXPECT_EQ(b[0].tick, 11);
  EXPECT_EQ(b.Insert(1000, At(0)), InterpolationBuffer::InsertResult::kInserted);
  EXPECT_EQ(b[0].tick, 13);
  EXPECT_EQ(b.newest().tick, 1000);
}

TEST(InterpolationBuffer, ExtrapolatesAlongTheLastVelocityForACappedTimeThenHolds) {
  InterpolationBuffer b;
  b.Insert(100, At(10 * kUnit, 128));  // 1/8 unit per tick
  b.Insert(103, At(11 * kUnit, 128));
  Sample s = b.SampleAt(107, 10, sim::kStandardArena);
  EXPECT_EQ(s.kind, SampleKind::kExtrapolated);
  EXPECT_DOUBLE_EQ(s.ticks_past_newest, 4.0);
  EXPECT_DOUBLE_EQ(s.position.x, 11.5);
  s = b.SampleAt(123, 10, sim::kStandardArena);  // 20 ticks past: capped at 10
  EXPECT_EQ(s.kind, SampleKind::kHeld);
  EXPECT_DOUBLE_EQ(s.position.x, 11 + 10 * 0.125);
  s = b.SampleAt(107, 0, sim::kStandardArena);  // extrapolation off
  EXPECT_EQ(s.kind, SampleKind::kHeld);
  EXPECT_DOUBLE_EQ(s.position.x, 11.0);
  EXPECT_GT(s.ticks_past_newest, 0.0);
}

TEST(InterpolationBuffer, ExtrapolationStopsAtTheWall) {
  InterpolationBuffer b;
  b.Insert(1, At(sim::kStandardArena.max_x() - 10, 256));
  EXPECT_DOUBLE_EQ(b.SampleAt(20, 100, sim::kStandardArena).position.x, ToUnits(sim::kStandardArena.max_x()));
}

TEST(InterpolationBuffer, DropBeforeKeepsTheStateAtOrBeforeTheRenderTime) {
  InterpolationBuffer b;
  for (Tick t = 0; t <= 12; t += 3) b.Insert(t, At(static_cast<std::int32_t>(t)));
  b.DropBefore(7.5);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].tick, 6);
  EXPECT_EQ(b.CountAfter(7.5), 2u);
  EXPECT_DOUBLE_EQ(b.SampleAt(7.5, 0, sim::kStandardArena).position.x, ToUnits(6) + 1.5 / 3.0 * ToUnits(3));
  b.DropBefore(100);
  EXPECT_EQ(b.size(), 1u);
  EXPECT_EQ(b.newest().tick, 12);
}

TEST(InterpolationBuffer, EmptyBufferSamplesNothing) {
  InterpolationBuffer b;
  EXPECT_EQ(b.SampleAt(5, 10, sim::kStandardArena).kind, SampleKind::kEmpty);
}

TEST(InterpolationBuffer, ServerTicksAcrossThe32BitWrapStayOrdered) {
  // Snapshots around tick 0xFFFFFFFF, unwrapped the way the client does, some out of order.
  const std::uint32_t ticks[] = {0xFFFFFFFAu, 0xFFFFFFFDu, 0u, 0xFFFFFFFDu, 3u, 6u};
  Tick reference = 0xFFFFFFF7u;
  InterpolationBuffer b;
  for (std::uint32_t t : ticks) {
    const Tick unwrapped = UnwrapTick(t, reference);
    reference = std::max(reference, unwrapped);
    b.Insert(unwrapped, At(static_cast<std::int32_t>(unwrapped - 0xFFFFFFF0ll) * kUnit));
  }
  ASSERT_EQ(b.size(), 5u);  // one duplicate
  for (std::size_t i = 1; i < b.size(); ++i) EXPECT_EQ(b[i].tick - b[i - 1].tick, 3);
  EXPECT_EQ(b.newest().tick, 0x100000006ll);
  // Linear across the wrap: tick 0x100000000 is position 16.
  EXPECT_DOUBLE_EQ(b.SampleAt(static_cast<double>(0x100000000ll), 0, sim::kStandardArena).position.x, 16.0);
}

}  // namespace
}  // namespace netcube::client
