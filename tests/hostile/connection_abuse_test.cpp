// Attacks on the server's connection slots and its goodwill, each from its own loopback addresses:
// connections that never finish or never speak, too many from one address, and peers that speak the
// protocol well enough to be answered but badly enough to be cut off.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "hostile/attacker.h"
#include "netcube/server/server.h"
#include "support/input_driver.h"
#include "support/loopback_rig.h"
#include "tuning.h"  // the server's limits, which these tests push against

namespace netcube::hostile {
namespace {

using testing::LoopbackRig;
using testing::TestClient;

std::string Attacker(int i) { return "127.0.0." + std::to_string(2 + i); }

void ServiceAll(std::vector<std::unique_ptr<EnetIntruder>>& intruders) {
  for (auto& intruder : intruders) intruder->Service();
}

TEST(ConnectionAbuse, ConnectionsThatNeverAskToJoinAreResetWithinThePendingTimeout) {
  server::ServerConfig config;
  config.max_clients = 8;
  auto rig = LoopbackRig::Start(config);
  // Twice as many as the server has player and spare slots, each from its own address.
  std::vector<std::unique_ptr<EnetIntruder>> intruders;
  std::string error;
  for (int i = 0; i < 16; ++i) {
    intruders.push_back(EnetIntruder::Connect(Attacker(i), rig->server().port(), &error));
    ASSERT_NE(intruders.back(), nullptr) << error;
  }
  const auto all = [&](bool (EnetIntruder::*state)() const) {
    for (const auto& intruder : intruders) {
      if (!(intruder.get()->*state)()) return false;
    }
    return true;
  };
  ASSERT_TRUE(rig->StepUntil([&] { return all(&EnetIntruder::connected); }, Micros(500'000),
                             [&] { ServiceAll(intruders); }));
  // Meanwhile an honest player joins: slots for players are spent only on players.
  EXPECT_NE(rig->Join("ann"), nullptr);
  const Micros connected = rig->now();
  ASSERT_TRUE(rig->StepUntil([&] { return all(&EnetIntruder::disconnected); }, 2 * server::kPendingTimeout,
                             [&] { ServiceAll(intruders); }));
  const Micros held = rig->now() - connected;
  std::printf("16 silent connections held their slots for %lld ms\n",
              static_cast<long long>(held.count() / 1000));
  EXPECT_LE(held, server::kPendingTimeout + Micros(200'000));
  EXPECT_GE(rig->server().stats().peers_reset, 16U);
}

TEST(ConnectionAbuse, AHandshakeFloodFrom64AddressesKeepsNobodyOut) {
  auto rig = LoopbackRig::Start();
  std::vector<std::unique_ptr<UdpSocket>> attackers;
  std::string error;
  for (int i = 0; i < 64; ++i) {
    attackers.push_back(UdpSocket::Bind(Attacker(i), &error));
    ASSERT_NE(attackers.back(), nullptr) << error;
  }
  // Every attacker starts a handshake every 10 ms and never finishes one: as many as its address may
  // hold, renewed as soon as the server gives up on them.
  HandshakeFlood handshakes(attackers, rig->server().port());
  const auto flood = [&] { handshakes.Step(rig->now()); };
  // The flood at its full strength: every slot an attacker may hold is held, and the first ones reset.
  rig->StepFor(server::kHandshakeTimeout + Micros(500'000), flood);
  TestClient* ann = rig->AddClient();
  ASSERT_NE(ann, nullptr);
  const Micros start = rig->now();
  ann->SendConnectRequest(start, "ann");
  bool asked = false;
  ASSERT_TRUE(rig->StepUntil(
      [&] {
        if (ann->inbox().connected && !asked) asked = ann->SendConnectRequest(rig->now(), "ann");
        return ann->inbox().welcome.has_value();
      },
      Micros(5'000'000), flood));
  const Micros took = rig->now() - start;
  std::printf("joined in %lld ms under %llu handshake requests from 64 addresses; %llu handshakes reset\n",
              static_cast<long long>(took.count() / 1000),
              static_cast<unsigned long long>(handshakes.requests()),
              static_cast<unsigned long long>(rig->server().stats().peers_reset));
  EXPECT_LE(took, Micros(2'000'000));
  EXPECT_GT(rig->server().stats().peers_reset, 64U);
}

// The blind join of issue 12: a handshake completed by a guessed acknowledgement and a ConnectRequest
// right behind it, from an address that never reads a reply (it could be forged: the replies would go to
// a victim). Before the challenge it was a player, sent a Welcome and snapshots: 2,774 times the bytes.
TEST(ConnectionAbuse, ABlindJoinGetsNoSlotAndNoMoreBytesThanItSent) {
  auto rig = LoopbackRig::Start();
  TestClient* ann = rig->Join("ann");  // the server's peer slot 0; the blind joiner's will be 1
  ASSERT_NE(ann, nullptr);
  std::string error;
  auto blind = UdpSocket::Bind(Attacker(0), &error);
  ASSERT_NE(blind, nullptr) << error;
  const std::uint16_t port = rig->server().port();
  std::vector<std::uint8_t> request(protocol::kMaxPacketBytes);
  request.resize(protocol::Encode(
      protocol::ConnectRequest{protocol::kProtocolMagic, protocol::kProtocolVersion, "ghost"}, request));

  std::size_t sent = 0;
  std::size_t received = 0;
  const auto send = [&](const std::vector<std::uint8_t>& datagram) {
    if (blind->SendTo(port, datagram)) sent += datagram.size();
  };
  send(EnetConnectDatagram(7, true));
  rig->StepFor(Micros(5'000), [&] { received += blind->Drain(); });
  send(EnetBlindJoinDatagram(1, request));
  bool ever_a_player = false;
  // Paced in real time: ENet resends what is not acknowledged by the real clock, and every resend counts.
  const auto real_start = std::chrono::steady_clock::now();
  const Micros virtual_start = rig->now();
  const auto watch = [&] {
    std::this_thread::sleep_until(real_start + (rig->now() - virtual_start));
    received += blind->Drain();
    if (rig->now().count() % 100'000 == 0) ann->Send(rig->now(), protocol::TimeEcho{false, 1, 0});
    ever_a_player = ever_a_player || rig->server().clients().size() > 1;
  };
  ASSERT_TRUE(
      rig->StepUntil([&] { return rig->server().stats().challenges_sent == 2; }, Micros(500'000), watch));
  // Until the server has given up on it, and a little more.
  ASSERT_TRUE(
      rig->StepUntil([&] { return rig->server().peer_count() == 1; }, 2 * server::kPendingTimeout, watch));
  rig->StepFor(Micros(1'000'000), watch);
  const double ratio = static_cast<double>(received) / static_cast<double>(sent);
  std::printf("blind join: %zu bytes sent, %zu bytes came back (%.2fx); a player: %s\n", sent, received,
              ratio, ever_a_player ? "yes" : "no");
  EXPECT_LE(ratio, 1.0);
  EXPECT_FALSE(ever_a_player);
  EXPECT_EQ(ann->inbox().joined.size(), 1U);                  // herself: no PlayerJoined for the ghost
  EXPECT_EQ(rig->server().stats().challenges_confirmed, 1U);  // ann's
}

TEST(ConnectionAbuse, OneAddressGetsAtMostMaxPerAddressConnections) {
  server::ServerConfig config;
  config.max_per_address = 3;
  auto rig = LoopbackRig::Start(config);
  std::vector<std::unique_ptr<EnetIntruder>> intruders;
  std::string error;
  for (int i = 0; i < 10; ++i) {
    intruders.push_back(EnetIntruder::Connect(Attacker(0), rig->server().port(), &error));
    ASSERT_NE(intruders.back(), nullptr) << error;
  }
  rig->StepFor(Micros(300'000), [&] { ServiceAll(intruders); });
  int connected = 0;
  for (const auto& intruder : intruders) connected += intruder->connected() ? 1 : 0;
  EXPECT_EQ(connected, 3);
  EXPECT_EQ(rig->server().peer_count(), 3U);
}

TEST(ConnectionAbuse, APlayerThatFallsSilentIsDroppedWhateverEnetThinks) {
  server::ServerConfig config;
  config.peer_timeout_ms = 1000;
  auto rig = LoopbackRig::Start(config);
  TestClient* ann = rig->Join("ann");
  ASSERT_NE(ann, nullptr);
  // A player by the book, and then not one more netcube message; its ENet goes on acknowledging
  // everything, as forged acknowledgements would.
  std::string error;
  auto ghost = EnetIntruder::Connect(Attacker(0), rig->server().port(), &error);
  ASSERT_NE(ghost, nullptr) << error;
  ASSERT_TRUE(rig->StepUntil([&] { return ghost->connected(); }, Micros(500'000), [&] { ghost->Service(); }));
  std::vector<std::uint8_t> request(protocol::kMaxPacketBytes);
  request.resize(protocol::Encode(
      protocol::ConnectRequest{protocol::kProtocolMagic, protocol::kProtocolVersion, "ghost"}, request));
  ghost->SendPacket(0, request, true);
  protocol::Message challenge;
  ASSERT_TRUE(rig->StepUntil(
      [&] {
        return protocol::Decode(ghost->last_received(), challenge) == protocol::DecodeError::kNone &&
               std::holds_alternative<protocol::Challenge>(challenge);
      },
      Micros(500'000), [&] { ghost->Service(); }));
  std::vector<std::uint8_t> response(protocol::kMaxPacketBytes);
  response.resize(protocol::Encode(
      protocol::ChallengeResponse{std::get<protocol::Challenge>(challenge).nonce}, response));
  ghost->SendPacket(0, response, true);
  ASSERT_TRUE(rig->StepUntil([&] { return rig->server().clients().size() == 2; }, Micros(500'000),
                             [&] { ghost->Service(); }));
  // Ann keeps talking (her TimeEcho requests), the ghost does not.
  const auto keep_ann_talking = [&] {
    ghost->Service();
    if (rig->now().count() % 100'000 == 0) ann->Send(rig->now(), protocol::TimeEcho{false, 1, 0});
  };
  const Micros joined = rig->now();
  ASSERT_TRUE(
      rig->StepUntil([&] { return !ann->inbox().left.empty(); }, Micros(3'000'000), keep_ann_talking));
  EXPECT_LE(rig->now() - joined, Micros(1'200'000));
  EXPECT_EQ(ann->inbox().left.front().reason, protocol::LeaveReason::kTimedOut);
  EXPECT_EQ(rig->server().clients().size(), 1U);
  EXPECT_FALSE(ann->inbox().disconnected);
}

// Joins ann, lets her send `packets` made by `make(i)` one a millisecond, and returns her inbox after.
const testing::Inbox& Abuse(LoopbackRig& rig, int packets,
                            const std::function<protocol::Message(int)>& make) {
  TestClient* ann = rig.Join("ann");
  EXPECT_NE(ann, nullptr);
  int sent = 0;
  rig.StepUntil([&] { return sent == packets || ann->inbox().disconnected; }, Micros(10'000'000),
                [&] { ann->Send(rig.now(), make(sent++)); });
  rig.StepFor(Micros(100'000));
  return ann->inbox();
}

TEST(ConnectionAbuse, TimeEchoRepliesAreThrottledAndAFlooderIsKicked) {
  auto rig = LoopbackRig::Start();
  const testing::Inbox& inbox = Abuse(*rig, 2000, [](int i) {
    return protocol::TimeEcho{false, static_cast<std::uint32_t>(i), 0};
  });
  std::printf("2000 TimeEcho requests: %zu replies, kicked: %s\n", inbox.echoes.size(),
              inbox.disconnected ? "yes" : "no");
  EXPECT_LE(inbox.echoes.size(), static_cast<std::size_t>(server::kTimeEchoBurst + 1));
  EXPECT_TRUE(inbox.disconnected);
  EXPECT_EQ(inbox.disconnect_data, static_cast<std::uint32_t>(protocol::DisconnectReason::kFlooding));
  EXPECT_EQ(rig->server().stats().peers_kicked, 1U);
  EXPECT_GE(rig->server().stats().time_echoes_throttled, 1U);
}

TEST(ConnectionAbuse, APeerJumpingItsInputSequenceIsKickedNotCountedAsLoss) {
  auto rig = LoopbackRig::Start();
  const testing::Inbox& inbox = Abuse(*rig, 1000, [](int i) {
    protocol::InputMessage input;
    input.inputs.push_back({static_cast<sim::Seq>(i * 32767), sim::kRight});
    return input;
  });
  const server::ServerStats stats = rig->server().stats();
  std::printf("sequence jumps of +32767: inputs lost %llu, kicked: %s\n",
              static_cast<unsigned long long>(stats.inputs.lost), inbox.disconnected ? "yes" : "no");
  EXPECT_TRUE(inbox.disconnected);
  EXPECT_EQ(inbox.disconnect_data, static_cast<std::uint32_t>(protocol::DisconnectReason::kMalformed));
  EXPECT_EQ(stats.inputs.lost, 0U);
  EXPECT_EQ(stats.peers_kicked, 1U);
  EXPECT_EQ(stats.packets_malformed, static_cast<std::uint64_t>(server::kMaxOffenceBurst + 1));
}

}  // namespace
}  // namespace netcube::hostile
