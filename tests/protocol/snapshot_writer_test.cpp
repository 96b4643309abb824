#include "netcube/protocol/snapshot_writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "netcube/protocol/messages.h"

namespace netcube::protocol {
namespace {

Snapshot RandomSnapshot(std::mt19937& rng, std::size_t players) {
  Snapshot snapshot;
  snapshot.server_tick = static_cast<std::uint32_t>(rng());
  for (std::size_t i = 0; i < players; ++i) {
    sim::PlayerCube cube;
    cube.id = static_cast<sim::PlayerId>(i);
    cube.state.x = std::uniform_int_distribution<std::int32_t>(sim::kStandardArena.min_x(),
                                                               sim::kStandardArena.max_x())(rng);
    cube.state.y = std::uniform_int_distribution<std::int32_t>(sim::kStandardArena.min_y(),
                                                               sim::kStandardArena.max_y())(rng);
    cube.state.vx = std::uniform_int_distribution<std::int32_t>(-sim::kMaxSpeed, sim::kMaxSpeed)(rng);
    cube.state.vy = std::uniform_int_distribution<std::int32_t>(-sim::kMaxSpeed, sim::kMaxSpeed)(rng);
    snapshot.players.push_back(cube);
  }
  return snapshot;
}

using ReceiverAck = SnapshotWriter::ReceiverAck;

std::vector<std::uint8_t> FullEncode(Snapshot snapshot, std::optional<ReceiverAck> ack) {
  snapshot.has_ack = ack.has_value();
  snapshot.ack = ack ? ack->ack : sim::Seq{0};
  snapshot.input_lead = static_cast<std::int8_t>(ack ? ack->input_lead : 0);
  std::vector<std::uint8_t> bytes(kMaxPacketBytes);
  bytes.resize(Encode(snapshot, bytes));
  return bytes;
}

TEST(SnapshotWriter, EveryReceiversPacketEqualsItsOwnFullEncoding) {
  std::mt19937 rng(42);
  SnapshotWriter writer;
  for (const std::size_t players : {0u, 1u, 2u, 7u, 33u, 255u, 256u}) {
    const Snapshot snapshot = RandomSnapshot(rng, players);
    ASSERT_TRUE(writer.Prepare(snapshot.server_tick, sim::kStandardArena, snapshot.players.span()));
    std::vector<std::optional<ReceiverAck>> acks = {std::nullopt,
                                                    ReceiverAck{0, 0},
                                                    ReceiverAck{1, kMinInputLead},
                                                    ReceiverAck{0x8000, kMaxInputLead},
                                                    ReceiverAck{0xFFFF, -1},
                                                    ReceiverAck{0x7FFF, 1},
                                                    std::nullopt};
    for (int i = 0; i < 50; ++i) {
      const int lead = static_cast<int>(rng() % (kMaxInputLead - kMinInputLead + 1)) + kMinInputLead;
      acks.push_back(ReceiverAck{static_cast<sim::Seq>(rng()), lead});
    }
    for (const std::optional<ReceiverAck> ack : acks) {
      const auto packet = writer.PacketFor(ack);
      const std::vector<std::uint8_t> actual(packet.begin(), packet.end());
      ASSERT_EQ(actual, FullEncode(snapshot, ack)) << players << " players, ack " << (ack ? ack->ack : 0);
    }
  }
}

TEST(SnapshotWriter, AnInputLeadBeyondTheWiresRangeIsClampedNotLost) {
  SnapshotWriter writer;
  const std::vector<sim::PlayerCube> players = {sim::PlayerCube{1, {}}};
  ASSERT_TRUE(writer.Prepare(9, sim::kStandardArena, players));
  for (const auto& [given, sent] : {std::pair{100, kMaxInputLead}, std::pair{-100, kMinInputLead}}) {
    const auto packet = writer.PacketFor(ReceiverAck{5, given});
    Message decoded;
    ASSERT_EQ(Decode(packet, decoded), DecodeError::kNone);
    EXPECT_EQ(std::get<Snapshot>(decoded).input_lead, sent);
  }
}

TEST(SnapshotWriter, RefusesPlayersOutOfOrder) {
  SnapshotWriter writer;
  const std::vector<sim::PlayerCube> players = {sim::PlayerCube{3, {}}, sim::PlayerCube{2, {}}};
  EXPECT_FALSE(writer.Prepare(1, sim::kStandardArena, players));
  EXPECT_TRUE(writer.PacketFor(std::nullopt).empty());
}

}  // namespace
}  // namespace netcube::protocol
