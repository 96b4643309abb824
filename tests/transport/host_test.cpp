// The ENet wrapper over real loopback sockets. Virtual time (`now`) advances 1 ms per loop iteration, so
// the conditioners' delays are exact, and every wait is bounded in virtual time: a loaded machine or a
// sanitizer build is slower, never failed. Only ENet's own timers (timeouts) read the real clock.
#include "netcube/transport/host.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <thread>

#include "netcube/protocol/messages.h"
#include "netcube/transport/udp_socket.h"
#include "nodes.h"

namespace netcube::transport {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kShortTimeoutMs = 500;
// Generous: what a test waits for takes well under a second of virtual time (ENet's timeouts here, 1 s).
constexpr Micros kWaitLimit = 30s;

// How a wait moves the virtual clock: as fast as the loop runs where only the exchanges between the hosts
// and the conditioners matter; never ahead of the real clock where ENet's timers must fire.
enum class Pace { kVirtual, kRealTime };

HostConfig LoopbackConfig(std::uint64_t seed = 1) {
  HostConfig config;
  config.bind_address = "127.0.0.1";
  config.seed = seed;
  return config;
}

// What the protocol layer's users do: encode, then send the bytes on the message's channel.
template <class M>
void SendMessage(Host& host, Micros now, PeerId peer, const M& message) {
  std::array<std::uint8_t, protocol::kMaxPacketBytes> buffer{};
  const std::size_t size = protocol::Encode(message, buffer);
  ASSERT_GT(size, 0U);
  host.Send(now, peer, protocol::ChannelOf(protocol::kTypeOf<M>), std::span(buffer.data(), size));
}

std::unique_ptr<Host> MakeServer(const HostConfig& config) {
  std::string error;
  std::unique_ptr<Host> host = Host::Listen(config, &error);
  EXPECT_NE(host, nullptr) << error;
  return host;
}

std::unique_ptr<Host> MakeClient(const HostConfig& config) {
  std::string error;
  std::unique_ptr<Host> host = Host::Outgoing(config, &error);
  EXPECT_NE(host, nullptr) << error;
  return host;
}

class TransportHost : public ::testing::Test {
 protected:
  // Services every node once per virtual millisecond until `done` holds; false after kWaitLimit.
  template <class Done>
  bool RunUntil(const std::vector<Node*>& nodes, Done done, Pace pace = Pace::kVirtual) {
    const Micros start = now_;
    const Clock::time_point real_start = Clock::now();
    while (!done()) {
      if (now_ - start >= kWaitLimit) return false;
      now_ += 1ms;
      if (pace == Pace::kRealTime) std::this_thread::sleep_until(real_start + (now_ - start));
      for (Node* node : nodes) {
        if (node->host != nullptr) node->Service(now_);
      }
    }
    return true;
  }

  // Starts server_ and client_ and connects them: server_peer_ is the client as the server knows it.
  void Connect(const HostConfig& server_config, const HostConfig& client_config) {
    server_.host = MakeServer(server_config);
    client_.host = MakeClient(client_config);
    ASSERT_TRUE(server_.host && client_.host);
    ASSERT_NE(server_.host->port(), 0);
    std::string error;
    const std::optional<PeerId> peer = client_.host->Connect("127.0.0.1", server_.host->port(), &error);
    ASSERT_TRUE(peer.has_value()) << error;
    client_peer_ = *peer;
    ASSERT_TRUE(RunUntil({&server_, &client_}, [&] {
      return client_.Find(EventType::kConnected, client_peer_) && server_.FindFirst(EventType::kConnected);
    }));
    server_peer_ = server_.FindFirst(EventType::kConnected)->peer;
    server_.events.clear();
    client_.events.clear();
  }

  Micros now_{0};
  Node server_;
  Node client_;
  PeerId client_peer_ = 0;
  PeerId server_peer_ = 0;
};

TEST_F(TransportHost, ExchangesPacketsOnBothChannels) {
  ASSERT_NO_FATAL_FAILURE(Connect(LoopbackConfig(), LoopbackConfig()));
  // The unreliable payload is larger than the MTU: it travels as unreliable fragments.
  const std::vector<std::uint8_t> small = Bytes(40, 1);
  const std::vector<std::uint8_t> large = Bytes(3000, 2);
  client_.host->Send(now_, client_peer_, protocol::Channel::kReliable, small);
  client_.host->Send(now_, client_peer_, protocol::Channel::kUnreliable, large);
  server_.host->Send(now_, server_peer_, protocol::Channel::kReliable, large);
  server_.host->Send(now_, server_peer_, protocol::Channel::kUnreliable, small);
  ASSERT_TRUE(RunUntil({&server_, &client_},
                       [&] { return server_.events.size() >= 2 && client_.events.size() >= 2; }));

  for (Node* node : {&server_, &client_}) {
    ASSERT_EQ(node->events.size(), 2U);
    std::vector<std::uint8_t> reliable;
    std::vector<std::uint8_t> unreliable;
    for (const KeptEvent& e : node->events) {
      ASSERT_EQ(e.type, EventType::kReceived);
      (e.channel == protocol::Channel::kReliable ? reliable : unreliable) = e.data;
    }
    EXPECT_EQ(reliable, node == &server_ ? small : large);
    EXPECT_EQ(unreliable, node == &server_ ? large : small);
  }
  for (Node* node : {&server_, &client_}) {
    const TransportCounters counters = node->host->counters();
    EXPECT_EQ(counters.packets_sent, 2U);
    EXPECT_EQ(counters.packets_received, 2U);
    EXPECT_EQ(counters.payload_bytes_sent, small.size() + large.size());
    EXPECT_EQ(counters.payload_bytes_received, small.size() + large.size());
    EXPECT_GT(counters.wire_bytes_sent, counters.payload_bytes_sent);  // headers, handshake, acks
    EXPECT_GT(counters.wire_bytes_received, counters.payload_bytes_received);
    EXPECT_GT(counters.wire_packets_sent, 2U);
    EXPECT_GT(counters.wire_packets_received, 2U);
    EXPECT_EQ(counters.outgoing.pushed, 2U);
    EXPECT_EQ(counters.incoming.delivered, 3U);  // the connection event, then the two packets
    EXPECT_TRUE(node->host->EnetRttMs(node == &server_ ? server_peer_ : client_peer_).has_value());
  }
}

TEST_F(TransportHost, PayloadsOverTheLargestMessageAreRefusedAtTheSender) {
  ASSERT_NO_FATAL_FAILURE(Connect(LoopbackConfig(), LoopbackConfig()));
  const std::vector<std::uint8_t> largest = Bytes(protocol::kMaxPacketBytes, 4);
  client_.host->Send(now_, client_peer_, protocol::Channel::kReliable,
                     Bytes(protocol::kMaxPacketBytes + 1, 5));
  client_.host->Send(now_, client_peer_, protocol::Channel::kReliable, largest);
  ASSERT_TRUE(RunUntil({&server_, &client_}, [&] { return !server_.events.empty(); }));
  ASSERT_EQ(server_.events.size(), 1U);
  EXPECT_EQ(server_.events[0].data, largest);
  EXPECT_EQ(client_.host->counters().packets_sent, 1U);
  EXPECT_EQ(server_.host->counters().datagrams_filtered, 0U);
}

TEST_F(TransportHost, PoliteDisconnectDeliversItsValue) {
  ASSERT_NO_FATAL_FAILURE(Connect(LoopbackConfig(), LoopbackConfig()));
  client_.host->Disconnect(now_, client_peer_, 42);
  ASSERT_TRUE(RunUntil({&server_, &client_}, [&] {
    return server_.Find(EventType::kDisconnected, server_peer_) &&
           client_.Find(EventType::kDisconnected, client_peer_);
  }));
  const KeptEvent* remote = server_.Find(EventType::kDisconnected, server_peer_);
  EXPECT_EQ(remote->disconnect_data, 42U);
  EXPECT_FALSE(remote->timed_out);
  const KeptEvent* local = client_.Find(EventType::kDisconnected, client_peer_);
  EXPECT_FALSE(local->timed_out);
  EXPECT_FALSE(client_.host->EnetRttMs(client_peer_).has_value());
}

TEST_F(TransportHost, DisconnectWithZeroIsNotATimeout) {
  ASSERT_NO_FATAL_FAILURE(Connect(LoopbackConfig(), LoopbackConfig()));
  server_.host->Disconnect(now_, server_peer_, 0);
  ASSERT_TRUE(
      RunUntil({&server_, &client_}, [&] { return client_.Find(EventType::kDisconnected, client_peer_); }));
  const KeptEvent* remote = client_.Find(EventType::kDisconnected, client_peer_);
  EXPECT_EQ(remote->disconnect_data, 0U);
  EXPECT_FALSE(remote->timed_out);
}

TEST_F(TransportHost, DroppedPeerTimesOutOnTheOtherSide) {
  HostConfig config = LoopbackConfig();
  config.timeout_ms = kShortTimeoutMs;
  ASSERT_NO_FATAL_FAILURE(Connect(config, config));
  client_.host->Drop(client_peer_);
  client_.host->Send(now_, client_peer_, protocol::Channel::kReliable, Bytes(8, 3));  // silently discarded
  ASSERT_TRUE(RunUntil(
      {&server_, &client_}, [&] { return server_.Find(EventType::kDisconnected, server_peer_); },
      Pace::kRealTime));
  EXPECT_TRUE(server_.Find(EventType::kDisconnected, server_peer_)->timed_out);
  EXPECT_EQ(server_.Find(EventType::kReceived, server_peer_), nullptr);
  EXPECT_TRUE(client_.events.empty());  // Drop reports nothing on its own side
  EXPECT_EQ(client_.host->counters().packets_sent, 0U);
}

TEST_F(TransportHost, DestroyedHostTimesOutOnTheOtherSide) {
  HostConfig config = LoopbackConfig();
  config.timeout_ms = kShortTimeoutMs;
  ASSERT_NO_FATAL_FAILURE(Connect(config, config));
  server_.host.reset();
  ASSERT_TRUE(RunUntil(
      {&client_}, [&] { return client_.Find(EventType::kDisconnected, client_peer_); }, Pace::kRealTime));
  EXPECT_TRUE(client_.Find(EventType::kDisconnected, client_peer_)->timed_out);
}

TEST_F(TransportHost, ConnectingToNobodyTimesOut) {
  HostConfig config = LoopbackConfig();
  config.timeout_ms = kShortTimeoutMs;
  std::string error;
  // A port nobody answers on: a socket of ours holds it unread, so no other process can take it meanwhile.
  const std::optional<UdpSocket> silent = UdpSocket::Open({.bind_address = "127.0.0.1"}, &error);
  ASSERT_TRUE(silent.has_value()) << error;
  client_.host = MakeClient(config);
  ASSERT_TRUE(client_.host);
  const std::optional<PeerId> peer = client_.host->Connect("127.0.0.1", silent->port(), &error);
  ASSERT_TRUE(peer.has_value()) << error;
  ASSERT_TRUE(RunUntil(
      {&client_}, [&] { return !client_.events.empty(); }, Pace::kRealTime));
  ASSERT_EQ(client_.events.size(), 1U);
  EXPECT_EQ(client_.events[0].type, EventType::kDisconnected);
  EXPECT_EQ(client_.events[0].peer, *peer);
  EXPECT_TRUE(client_.events[0].timed_out);
}

TEST_F(TransportHost, DisconnectWhileConnectingEndsAtOnce) {
  server_.host = MakeServer(LoopbackConfig());
  client_.host = MakeClient(LoopbackConfig());
  ASSERT_TRUE(server_.host && client_.host);
  std::string error;
  const std::optional<PeerId> peer = client_.host->Connect("127.0.0.1", server_.host->port(), &error);
  ASSERT_TRUE(peer.has_value()) << error;
  client_.host->Disconnect(now_, *peer, 5);
  ASSERT_TRUE(RunUntil({&server_, &client_}, [&] { return !client_.events.empty(); }));
  EXPECT_EQ(client_.events[0].type, EventType::kDisconnected);
  EXPECT_FALSE(client_.events[0].timed_out);
  // The slot is free again.
  EXPECT_TRUE(client_.host->Connect("127.0.0.1", server_.host->port(), &error).has_value()) << error;
}

TEST_F(TransportHost, LatencyDelaysEveryDeliveryBothWays) {
  constexpr double kLatencyMs = 40;
  HostConfig config = LoopbackConfig();
  config.link.latency_ms = kLatencyMs;
  const Micros one_way = 40ms;

  server_.host = MakeServer(config);
  client_.host = MakeClient(config);
  ASSERT_TRUE(server_.host && client_.host);
  EXPECT_EQ(client_.host->link(), config.link);
  std::string error;
  const Micros connect_start = now_;
  const std::optional<PeerId> peer = client_.host->Connect("127.0.0.1", server_.host->port(), &error);
  ASSERT_TRUE(peer.has_value()) << error;
  ASSERT_TRUE(RunUntil({&server_, &client_}, [&] { return !client_.events.empty(); }));
  EXPECT_EQ(client_.events[0].type, EventType::kConnected);
  EXPECT_GE(now_ - connect_start, one_way);  // the connection event crossed the incoming conditioner
  ASSERT_TRUE(RunUntil({&server_, &client_}, [&] { return !server_.events.empty(); }));
  const PeerId server_peer = server_.events[0].peer;
  server_.events.clear();
  client_.events.clear();

  const Micros sent_at = now_;
  client_.host->Send(now_, *peer, protocol::Channel::kReliable, Bytes(10, 1));
  client_.host->Send(now_, *peer, protocol::Channel::kUnreliable, Bytes(10, 2));
  ASSERT_TRUE(RunUntil({&server_, &client_}, [&] { return !server_.events.empty(); }));
  EXPECT_GE(now_ - sent_at, 2 * one_way);  // out through the client's conditioner, in through the server's
  ASSERT_TRUE(RunUntil({&server_, &client_}, [&] { return server_.events.size() == 2; }));

  const Micros reply_at = now_;
  server_.host->Send(now_, server_peer, protocol::Channel::kUnreliable, Bytes(10, 3));
  ASSERT_TRUE(RunUntil({&server_, &client_}, [&] { return !client_.events.empty(); }));
  EXPECT_GE(now_ - reply_at, 2 * one_way);
  EXPECT_EQ(client_.events[0].data, Bytes(10, 3));
}

// A server refuses each client and disconnects it at once; under heavy jitter, loss, duplication and
// reordering the refusal must still reach every client before its disconnect.
TEST_F(TransportHost, RefusalArrivesBeforeTheDisconnectUnderJitter) {
  constexpr int kClients = 6;
  const LinkSettings rough{.latency_ms = 20, .jitter_ms = 30, .loss = 0.3, .duplicate = 0.3, .reorder = 0.3};
  HostConfig server_config = LoopbackConfig(1000);
  server_config.link = rough;
  server_.host = MakeServer(server_config);
  ASSERT_TRUE(server_.host);

  std::vector<Node> clients(kClients);
  std::vector<PeerId> peers;
  for (int i = 0; i < kClients; ++i) {
    HostConfig config = LoopbackConfig(static_cast<std::uint64_t>(i + 1));
    config.link = rough;
    clients[static_cast<std::size_t>(i)].host = MakeClient(config);
    ASSERT_TRUE(clients[static_cast<std::size_t>(i)].host);
    std::string error;
    const std::optional<PeerId> peer =
        clients[static_cast<std::size_t>(i)].host->Connect("127.0.0.1", server_.host->port(), &error);
    ASSERT_TRUE(peer.has_value()) << error;
    peers.push_back(*peer);
  }

  const auto every_client_closed = [&] {
    // The server answers each connection as it is reported, like a real server loop.
    for (const KeptEvent& e : server_.events) {
      if (e.type != EventType::kConnected) continue;
      for (int k = 0; k < 5; ++k) {
        SendMessage(*server_.host, now_, e.peer, protocol::TimeEcho{.reply = true, .server_tick = 1});
      }
      SendMessage(*server_.host, now_, e.peer,
                  protocol::ConnectRefused{.reason = protocol::RefuseReason::kServerFull});
      server_.host->Disconnect(now_, e.peer, 9);
    }
    server_.events.clear();
    return std::all_of(clients.begin(), clients.end(),
                       [](const Node& c) { return c.FindFirst(EventType::kDisconnected) != nullptr; });
  };
  std::vector<Node*> nodes{&server_};
  for (Node& c : clients) nodes.push_back(&c);
  ASSERT_TRUE(RunUntil(nodes, every_client_closed)) << "not every client was refused in time";

  for (std::size_t i = 0; i < clients.size(); ++i) {
    const std::vector<KeptEvent>& events = clients[i].events;
    ASSERT_EQ(events.front().type, EventType::kConnected) << "client " << i;
    ASSERT_EQ(events.back().type, EventType::kDisconnected) << "client " << i;
    EXPECT_EQ(events.back().disconnect_data, 9U);
    EXPECT_FALSE(events.back().timed_out);
    int refusals = 0;
    for (const KeptEvent& e : events) {
      if (e.type != EventType::kReceived || e.channel != protocol::Channel::kReliable) continue;
      protocol::Message message;
      ASSERT_EQ(protocol::Decode(e.data, message), protocol::DecodeError::kNone);
      EXPECT_TRUE(std::holds_alternative<protocol::ConnectRefused>(message));
      ++refusals;
    }
    EXPECT_EQ(refusals, 1) << "client " << i;
  }
}

TEST_F(TransportHost, ReportsSetupErrors) {
  std::string error;
  HostConfig bad = LoopbackConfig();
  bad.bind_address = "not an address";
  EXPECT_EQ(Host::Listen(bad, &error), nullptr);
  EXPECT_NE(error.find("not an address"), std::string::npos) << error;

  server_.host = MakeServer(LoopbackConfig());
  ASSERT_TRUE(server_.host);
  HostConfig taken = LoopbackConfig();
  taken.port = server_.host->port();
  error.clear();
  EXPECT_EQ(Host::Listen(taken, &error), nullptr);
  EXPECT_FALSE(error.empty());

  client_.host = MakeClient(LoopbackConfig());
  ASSERT_TRUE(client_.host);
  ASSERT_TRUE(client_.host->Connect("127.0.0.1", server_.host->port(), &error).has_value()) << error;
  error.clear();
  EXPECT_FALSE(client_.host->Connect("127.0.0.1", server_.host->port(), &error).has_value());
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace netcube::transport
