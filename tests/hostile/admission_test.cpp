// Attacks on admission from many addresses at once, and on what the server says to an address that never
// proved itself: a flood of connection attempts larger than the server's peer table, and requests it
// refuses. Attackers send from 127.0.1.x, honest players from 127.0.0.x.
#include <enet/enet.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "hostile/attacker.h"
#include "hostile/join_churn.h"
#include "netcube/server/server.h"
#include "support/loopback_rig.h"
#include "tuning.h"  // the server's limits, which these tests push against

namespace netcube::hostile {
namespace {

using testing::LoopbackRig;
using testing::TestClient;

// 250 to a /24, from 127.0.1.1 on.
std::string AttackerAddress(int i) {
  return "127.0." + std::to_string(1 + i / 250) + "." + std::to_string(1 + i % 250);
}

// Every attacker address starts a handshake every 10 ms and never finishes one, so each holds as many as
// the per-address limit allows (8), renewed as soon as one is reset: together more than the server's
// whole peer table (32 players + 8 spares + 512). After `warm_up` of it, `honest` players join one after
// another, each from its own address; each must get its Welcome within 2 s.
int HonestJoinsUnderAConnectFlood(int addresses, int honest, Micros warm_up) {
  server::ServerConfig timed;
  timed.work_clock = [] {
    return std::chrono::duration_cast<Micros>(std::chrono::steady_clock::now().time_since_epoch());
  };
  auto rig = LoopbackRig::Start(timed);
  if (rig == nullptr) return -1;
  const std::clock_t cpu_before = std::clock();
  std::vector<std::unique_ptr<UdpSocket>> attackers;
  std::string error;
  for (int i = 0; i < addresses; ++i) {
    attackers.push_back(UdpSocket::Bind(AttackerAddress(i), &error));
    if (attackers.back() == nullptr) {
      ADD_FAILURE() << error;
      return -1;
    }
  }
  HandshakeFlood handshakes(attackers, rig->server().port());
  const auto flood = [&] { handshakes.Step(rig->now()); };
  rig->StepFor(warm_up, flood);

  constexpr Micros kJoinLimit{2'000'000};
  int joined = 0;
  for (int i = 0; i < honest; ++i) {
    transport::HostConfig config;
    config.bind_address = "127.0.0." + std::to_string(10 + i);
    TestClient* player = rig->AddClient(config, &error);
    if (player == nullptr) {
      ADD_FAILURE() << error;
      return -1;
    }
    bool asked = false;
    const Micros start = rig->now();
    const bool welcomed = rig->StepUntil(
        [&] {
          if (player->inbox().connected && !asked) asked = player->SendConnectRequest(rig->now(), "honest");
          return player->inbox().welcome.has_value();
        },
        kJoinLimit, flood);
    joined += welcomed ? 1 : 0;
    std::printf("  honest join %d: %s in %lld ms\n", i + 1, welcomed ? "welcomed" : "NOT welcomed",
                static_cast<long long>((rig->now() - start).count() / 1000));
  }
  const server::ServerStats stats = rig->server().stats();
  std::printf(
      "CONNECT flood from %d addresses (%llu requests): %d of %d honest joins within 2 s; "
      "%llu unproven connections reset to make room, %llu handshakes reset, %llu datagrams filtered; CPU "
      "%lld ms, network service p99 %lld ms, at most %lld ms\n",
      addresses, static_cast<unsigned long long>(handshakes.requests()), joined, honest,
      static_cast<unsigned long long>(stats.peers_evicted),
      static_cast<unsigned long long>(stats.peers_reset),
      static_cast<unsigned long long>(stats.datagrams_filtered),
      static_cast<long long>((std::clock() - cpu_before) * 1000 / CLOCKS_PER_SEC),
      static_cast<long long>(stats.network_durations.p99.count() / 1000),
      static_cast<long long>(stats.network_durations.max.count() / 1000));
  return joined;
}

TEST(Admission, AConnectFloodFromManyAddressesKeepsNoHonestPlayerOut) {
  // Long enough for the handshakes the flood holds to be reset.
  const Micros warm_up = server::kHandshakeTimeout + Micros(500'000);
  EXPECT_EQ(HonestJoinsUnderAConnectFlood(80, 9, warm_up), 9);
  EXPECT_EQ(HonestJoinsUnderAConnectFlood(160, 9, warm_up), 9);
}

// Issue 44's half-open flood at scale: more addresses than the peer table holds slots, each starting a
// handshake 100 times a second (80,000 CONNECTs a second from 800), and ten times it. Half a second of it
// fills the table many times over (kept short: ten times it is 800,000 datagrams a second).
TEST(Admission, AHalfOpenFloodAtScaleKeepsNoHonestPlayerOut) {
  const Micros warm_up{500'000};
  EXPECT_EQ(HonestJoinsUnderAConnectFlood(800, 3, warm_up), 3);
  EXPECT_EQ(HonestJoinsUnderAConnectFlood(8000, 3, warm_up), 3);
}

// Returns the handshakes (Challenges sent) a churning address (127.0.3.x, JoinChurn) got a second, after
// a second of warm-up, while an honest player joins.
double ChurnedHandshakesPerAddressPerSecond(int churners_count, bool at_the_challenge) {
  server::ServerConfig timed;
  timed.work_clock = [] {
    return std::chrono::duration_cast<Micros>(std::chrono::steady_clock::now().time_since_epoch());
  };
  auto rig = LoopbackRig::Start(timed);
  if (rig == nullptr) return -1.0;
  const std::clock_t cpu_before = std::clock();
  std::vector<std::string> addresses;
  for (int i = 0; i < churners_count; ++i) addresses.push_back("127.0.3." + std::to_string(1 + i));
  JoinChurn churners(rig->server().port(), std::move(addresses), at_the_challenge);
  std::string error;
  const auto churn = [&] {
    if (!churners.Step(rig->now(), &error)) ADD_FAILURE() << error;
  };
  rig->StepFor(Micros(1'000'000), churn);
  const server::ServerStats before = rig->server().stats();
  constexpr Micros kMeasured{2'000'000};
  rig->StepFor(kMeasured, churn);
  const server::ServerStats after = rig->server().stats();
  transport::HostConfig honest_config;
  honest_config.bind_address = "127.0.0.10";
  const Micros join_start = rig->now();
  TestClient* honest = rig->AddClient(honest_config, &error);
  bool asked = false;
  const bool welcomed = honest != nullptr && rig->StepUntil(
                                                 [&] {
                                                   if (honest->inbox().connected && !asked)
                                                     asked = honest->SendConnectRequest(rig->now(), "honest");
                                                   return honest->inbox().welcome.has_value();
                                                 },
                                                 Micros(2'000'000), churn);
  EXPECT_TRUE(welcomed);
  const double seconds = std::chrono::duration<double>(kMeasured).count();
  const double handshakes = static_cast<double>(after.challenges_sent - before.challenges_sent) / seconds;
  const double joins =
      static_cast<double>(after.challenges_confirmed - before.challenges_confirmed) / seconds;
  std::printf(
      "%d addresses joining and leaving%s: %.0f handshakes and %.0f joins (Challenges answered) a second; an "
      "honest join in %lld "
      "ms; "
      "CPU %lld ms, network service p99 %lld us\n",
      churners_count, at_the_challenge ? " at the Challenge" : "", handshakes, joins,
      static_cast<long long>((rig->now() - join_start).count() / 1000),
      static_cast<long long>((std::clock() - cpu_before) * 1000 / CLOCKS_PER_SEC),
      static_cast<long long>(after.network_durations.p99.count()));
  return handshakes / churners_count;
}

// An address may begin a handshake (and so join) while it has asked at most twice its --max-per-address
// in a count halving every 4 s: a burst of 16, then 2.8 a second sustained by default, not thousands; an
// address that keeps asking faster gets nothing.
TEST(Admission, AnAddressJoiningAndLeavingInALoopIsHeldToItsBudget) {
  for (const int churners : {24, 240}) {  // issue 44's, and ten times it
    EXPECT_LE(ChurnedHandshakesPerAddressPerSecond(churners, false), 2.8);
    EXPECT_LE(ChurnedHandshakesPerAddressPerSecond(churners, true), 2.8);
  }
}

// A request the server refuses, sent blind (never reading a reply, as from a forged source) to a server
// whose ENet would time it out after 1-2 s: the bytes that come back, over the refused peer's whole
// life, against the bytes sent. No request at all is a bare CONNECT, a handshake never finished.
// Paced in real time, since ENet resends by the real clock.
double BlindAmplification(std::span<const std::uint8_t> request, const char* what) {
  server::ServerConfig config;
  config.peer_timeout_ms = 1000;
  auto rig = LoopbackRig::Start(config);
  std::string error;
  auto blind = UdpSocket::Bind(AttackerAddress(0), &error);
  if (rig == nullptr || blind == nullptr) {
    ADD_FAILURE() << error;
    return 0.0;
  }
  const std::uint16_t port = rig->server().port();
  std::size_t sent = 0;
  std::size_t received = 0;
  const auto send = [&](const std::vector<std::uint8_t>& datagram) {
    if (blind->SendTo(port, datagram)) sent += datagram.size();
  };
  const auto real_start = std::chrono::steady_clock::now();
  const Micros virtual_start = rig->now();
  const auto paced = [&] {
    std::this_thread::sleep_until(real_start + (rig->now() - virtual_start));
    received += blind->Drain();
  };
  send(EnetConnectDatagram(7, true));
  rig->StepFor(Micros(5'000), paced);
  if (!request.empty()) send(EnetBlindJoinDatagram(0, request));
  // Until the request has been judged (or the handshake given up), the server has forgotten the peer, and
  // a little more; ENet's own timeout is 1-2 s here.
  const auto judged = [&] {
    const server::ServerStats stats = rig->server().stats();
    return stats.clients_refused + stats.packets_malformed + stats.peers_reset > 0;
  };
  EXPECT_TRUE(rig->StepUntil(judged, server::kHandshakeTimeout + Micros(500'000), paced)) << what;
  const Micros judged_at = rig->now();
  EXPECT_TRUE(rig->StepUntil([&] { return rig->server().peer_count() == 0; }, Micros(4'000'000), paced));
  const Micros forgotten_after = rig->now() - judged_at;
  rig->StepFor(Micros(1'500'000), paced);
  const double ratio = static_cast<double>(received) / static_cast<double>(sent);
  std::printf("%s, sent blind: %zu bytes sent, %zu bytes came back (%.2fx); forgotten %lld ms after\n", what,
              sent, received, ratio, static_cast<long long>(forgotten_after.count() / 1000));
  return ratio;
}

// What comes back is ENet's answer to the handshake (a 48-byte VERIFY_CONNECT for a 50-byte CONNECT)
// and the refusal once (13 bytes), none of it resent: never more than was sent. Bytes that are no
// netcube message get no refusal at all.
TEST(Admission, ARefusalToAnUnprovenAddressIsSaidOnceAtMost) {
  const std::uint8_t one_byte[] = {0x00};
  EXPECT_LE(BlindAmplification(one_byte, "refused 1-byte request"), 1.0);

  // The previous version's request, as short as it can be: it is read as far as its version and refused.
  std::vector<std::uint8_t> old(protocol::kMaxPacketBytes);
  old.resize(protocol::Encode(
      protocol::ConnectRequest{protocol::kProtocolMagic,
                               static_cast<std::uint16_t>(protocol::kProtocolVersion - 1), ""},
      old));
  ASSERT_GT(old.size(), 0U);
  EXPECT_LE(BlindAmplification(old, "refused old-version request"), 1.0);
}

// A bare CONNECT, never followed by anything: ENet answers it, and the handshake is reset after 1 s.
TEST(Admission, ABareConnectIsAnsweredOnceAtMost) { EXPECT_LE(BlindAmplification({}, "bare CONNECT"), 1.0); }

// Datagrams the honest client's own ENet host has received, for DropTheFirstDatagram.
int g_datagrams_received = 0;
// ENet's intercept for that host: the first datagram (the server's answer to its CONNECT) is lost.
int DropTheFirstDatagram(ENetHost* /*host*/, ENetEvent* /*event*/) {
  return g_datagrams_received++ == 0 ? 1 : 0;
}

// The honest side of answering each CONNECT once: a client whose answer was lost is not answered again
// while its handshake is under way (ENet ignores the resent CONNECT), but once the server has reset it
// (1 s), ENet's next resend (1.5 s after the first) starts a handshake that completes. Paced in real time,
// since ENet resends by the real clock.
TEST(Admission, AJoinWhoseHandshakeAnswerWasLostCompletesWhenItAsksAgain) {
  auto rig = LoopbackRig::Start();
  ASSERT_EQ(enet_initialize(), 0);
  ENetAddress local{};
  ASSERT_EQ(enet_address_set_host_ip(&local, "127.0.0.20"), 0);
  ENetHost* host = enet_host_create(&local, 1, protocol::kChannelCount, 0, 0);
  ASSERT_NE(host, nullptr);
  g_datagrams_received = 0;
  host->intercept = DropTheFirstDatagram;
  ENetAddress server{};
  enet_address_set_host_ip(&server, "127.0.0.1");
  server.port = rig->server().port();
  ASSERT_NE(enet_host_connect(host, &server, protocol::kChannelCount, 0), nullptr);
  const auto real_start = std::chrono::steady_clock::now();
  const Micros virtual_start = rig->now();
  bool connected = false;
  const bool joined = rig->StepUntil(
      [&] {
        ENetEvent event;
        while (enet_host_service(host, &event, 0) > 0) connected |= event.type == ENET_EVENT_TYPE_CONNECT;
        return connected;
      },
      Micros(4'000'000), [&] { std::this_thread::sleep_until(real_start + (rig->now() - virtual_start)); });
  std::printf("a join whose first answer was lost: connected after %lld ms, %d datagrams received\n",
              static_cast<long long>((rig->now() - virtual_start).count() / 1000), g_datagrams_received);
  enet_host_destroy(host);
  EXPECT_TRUE(joined);
  EXPECT_GE(g_datagrams_received, 2);
}

}  // namespace
}  // namespace netcube::hostile
