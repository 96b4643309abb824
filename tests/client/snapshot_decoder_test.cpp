#include "netcube/client/snapshot_decoder.h"

#include <gtest/gtest.h>

#include <optional>
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

// An InterestSnapshot carrying cube 4 whole, or predicted `age` ticks after the state held of it.
protocol::InterestSnapshot CarryingFour(Tick tick, int age, const sim::CubeState& whole = {}) {
  protocol::InterestSnapshot s;
  s.server_tick = static_cast<std::uint32_t>(tick);
  s.members.push_back({{4, whole}, true, age});
  return s;
}

// A predicted state is Move run from the state held of that cube, under its buttons; the states kept are
// each cube's newest carried (late ones among them); one predicted from a state not held drops the whole
// snapshot.
TEST(SnapshotDecoder, APredictedStateRunsMoveFromTheStateHeldOfItsCube) {
  SnapshotDecoder decoder;
  const sim::Arena arena = sim::kStandardArena;
  const sim::CubeState start{20000, 20000, 100, 0, 0, sim::kRight};
  const protocol::Snapshot* unpacked = decoder.Unpack(100, CarryingFour(100, 0, start), arena);
  ASSERT_NE(unpacked, nullptr);
  decoder.ReceivedStates(100, unpacked->players.span());
  EXPECT_EQ(decoder.ToTell(), std::optional<std::uint64_t>(100));  // told of, as any snapshot

  unpacked = decoder.Unpack(103, CarryingFour(103, 3), arena);
  ASSERT_NE(unpacked, nullptr);
  sim::CubeState expected = start;
  for (int k = 0; k < 3; ++k) expected = sim::Move(expected, sim::Input{0, sim::kRight}, arena);
  ASSERT_EQ(unpacked->players.size(), 1u);
  EXPECT_TRUE(sim::SameCarried(unpacked->players[0].state, expected));
  const std::vector<sim::PlayerCube> four(unpacked->players.begin(), unpacked->players.end());
  EXPECT_EQ(decoder.Unpack(103, CarryingFour(103, 2), arena), nullptr) << "no state held of tick 101";

  // Newer states push the oldest out of the 16 kept; a late one older than all of them is not kept.
  for (Tick t = 101; t <= 116; ++t) decoder.ReceivedStates(t, four);
  EXPECT_EQ(decoder.Unpack(117, CarryingFour(117, 17), arena), nullptr) << "tick 100 pushed out";
  EXPECT_NE(decoder.Unpack(117, CarryingFour(117, 16), arena), nullptr);
  decoder.ReceivedStates(99, four);
  EXPECT_EQ(decoder.Unpack(117, CarryingFour(117, 18), arena), nullptr) << "a late one older than all";
  decoder.Reset();
  EXPECT_EQ(decoder.Unpack(117, CarryingFour(117, 1), arena), nullptr);
}

}  // namespace
}  // namespace netcube::client
