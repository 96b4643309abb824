// Hostile traffic: garbage, truncations and wrong-direction messages are dropped and counted, and the
// other players keep playing.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "netcube/server/server.h"
#include "support/input_driver.h"
#include "support/loopback_rig.h"
#include "tuning.h"  // the server's limits, which these tests push against

namespace netcube::server {
namespace {

using testing::InputDriver;
using testing::LoopbackRig;
using testing::TestClient;

struct RawPacket {
  protocol::Channel channel = protocol::Channel::kReliable;
  std::vector<std::uint8_t> bytes;
};

std::vector<std::uint8_t> Encoded(const protocol::Message& message) {
  std::vector<std::uint8_t> bytes(protocol::kMaxPacketBytes);
  bytes.resize(protocol::Encode(message, bytes));
  return bytes;
}

protocol::Channel NaturalChannel(const protocol::Message& message) {
  return protocol::ChannelOf(protocol::TypeOf(message));
}

// A seeded mix of everything a hostile client could send.
std::vector<RawPacket> HostileTraffic(std::uint32_t seed, std::size_t count) {
  std::mt19937 rng(seed);
  const auto random_bytes = [&rng](std::size_t size) {
    std::vector<std::uint8_t> bytes(size);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
    return bytes;
  };
  const auto any_channel = [&rng] { return static_cast<protocol::Channel>(rng() % protocol::kChannelCount); };

  protocol::InputMessage input;
  input.inputs.push_back({7, sim::kUp});
  input.inputs.push_back({8, sim::kUp});
  protocol::Snapshot snapshot;
  snapshot.server_tick = 99;
  snapshot.players.push_back({0, sim::CubeState{}});
  snapshot.players.push_back({1, sim::CubeState{}});
  protocol::PlayerJoined ghost;
  ghost.players.push_back({3, "ghost"});
  const std::vector<protocol::Message> wrong_direction = {
      snapshot,
      protocol::Welcome{},
      ghost,
      protocol::PlayerLeft{0, {}},
      protocol::ConnectRefused{},
      protocol::TimeEcho{true, 1, 2},
      protocol::ConnectRequest{protocol::kProtocolMagic, protocol::kProtocolVersion, "again"}};
  const std::vector<protocol::Message> truncatable = {input, snapshot, protocol::TimeEcho{false, 5, 0},
                                                      protocol::ConnectRequest{}};

  std::vector<RawPacket> packets;
  for (std::size_t i = 0; i < count; ++i) {
    switch (rng() % 5) {
      case 0:
        packets.push_back({any_channel(), random_bytes(1 + rng() % 80)});
        break;
      case 1: {
        const protocol::Message& message = truncatable[rng() % truncatable.size()];
        std::vector<std::uint8_t> bytes = Encoded(message);
        bytes.resize(1 + rng() % (bytes.size() - 1));
        packets.push_back({any_channel(), bytes});
        break;
      }
      case 2: {
        const protocol::Message& message = wrong_direction[rng() % wrong_direction.size()];
        packets.push_back({NaturalChannel(message), Encoded(message)});
        break;
      }
      case 3:
        // A valid input on the reliable channel, where inputs never go.
        packets.push_back({protocol::Channel::kReliable, Encoded(input)});
        break;
      default:
        // As large as travels: ENet refuses anything over kMaxPacketBytes at both ends.
        packets.push_back({any_channel(), random_bytes(protocol::kMaxPacketBytes)});
        break;
    }
  }
  return packets;
}

// What the server should take from an accepted client: an input or a time-echo request, on its channel.
bool Acceptable(const RawPacket& packet) {
  protocol::Message message;
  if (protocol::Decode(packet.bytes, message) != protocol::DecodeError::kNone) return false;
  if (NaturalChannel(message) != packet.channel) return false;
  if (std::holds_alternative<protocol::InputMessage>(message)) return true;
  const auto* echo = std::get_if<protocol::TimeEcho>(&message);
  return echo != nullptr && !echo->reply;
}

TEST(ServerRobustness, HostilePacketsAreCountedTheSenderKickedAndTheOthersKeepPlaying) {
  ServerConfig config;
  config.collisions = false;
  std::string error;
  auto rig = LoopbackRig::Create(config, &error);
  ASSERT_NE(rig, nullptr) << error;
  TestClient* mallory = rig->Join("mallory");
  TestClient* ann = rig->Join("ann");
  ASSERT_TRUE(mallory && ann);
  const sim::CubeState ann_start = rig->server().world()[1].state;
  const sim::PlayerId ann_id = ann->inbox().welcome->player_id;

  const std::vector<RawPacket> hostile = HostileTraffic(1234, 400);
  std::uint64_t malformed = 0;
  for (const RawPacket& packet : hostile) malformed += Acceptable(packet) ? 0u : 1u;
  ASSERT_GT(malformed, 300u);
  // A few are forgiven; the one after them gets mallory kicked, and nothing after it is even read.
  const std::uint64_t expected_malformed = kMaxOffenceBurst + 1;

  InputDriver driver(*ann, {});
  std::uint8_t buttons = sim::kDown;
  const auto zigzag = [&buttons] { return buttons ^= (sim::kLeft | sim::kRight); };
  std::size_t next_hostile = 0;
  std::size_t snapshots_while_attacked = 0;
  ASSERT_TRUE(rig->StepUntil(
      [&] {
        // Two hostile packets per millisecond while ann plays normally.
        for (int i = 0; i < 2 && next_hostile < hostile.size(); ++i, ++next_hostile) {
          mallory->SendRaw(rig->now(), hostile[next_hostile].channel, hostile[next_hostile].bytes);
        }
        if (next_hostile < hostile.size()) snapshots_while_attacked = ann->inbox().snapshots;
        driver.Update(rig->now(), zigzag, driver.sent().size() < 60);
        return next_hostile == hostile.size() && driver.sent().size() == 60 && driver.AllAcknowledged() &&
               mallory->inbox().disconnected;
      },
      Micros(60'000'000)));

  EXPECT_EQ(rig->server().stats().packets_malformed, expected_malformed);
  EXPECT_GT(snapshots_while_attacked, 2u);
  ASSERT_NE(rig->ServerCube(ann_id), nullptr);
  EXPECT_TRUE(sim::SamePhysics(rig->ServerCube(ann_id)->state, testing::Replay(ann_start, driver.sent())));
  // Mallory is gone, told why; the server never trusted a byte of it.
  EXPECT_EQ(mallory->inbox().disconnect_data,
            static_cast<std::uint32_t>(protocol::DisconnectReason::kMalformed));
  EXPECT_EQ(rig->server().stats().peers_kicked, 1u);
  EXPECT_EQ(rig->server().clients().size(), 1u);
  EXPECT_FALSE(ann->inbox().disconnected);
}

TEST(ServerRobustness, InputBeforeJoiningIsMalformedAndMovesNothing) {
  std::string error;
  auto rig = LoopbackRig::Create({}, &error);
  ASSERT_NE(rig, nullptr) << error;
  TestClient* ann = rig->Join("ann");
  TestClient* early = rig->AddClient();
  ASSERT_TRUE(ann && early);
  ASSERT_TRUE(rig->StepUntil([&] { return early->inbox().connected; }));
  const sim::CubeState before = rig->server().world()[0].state;
  protocol::InputMessage input;
  input.inputs.push_back({1, sim::kRight});
  early->Send(rig->now(), input);
  ASSERT_TRUE(rig->StepUntil([&] { return rig->server().stats().packets_malformed == 1; }));
  rig->StepFor(Micros(100'000));
  EXPECT_EQ(rig->server().world()[0].state, before);
  EXPECT_EQ(rig->server().world().size(), 1u);
  // An unreliable packet out of turn is not a failed request: the peer may still join.
  early->SendConnectRequest(rig->now(), "early");
  EXPECT_TRUE(rig->StepUntil([&] { return early->inbox().welcome.has_value(); }));
}

}  // namespace
}  // namespace netcube::server
