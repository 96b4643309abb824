// The in-memory network: hosts in one hub, on virtual time only (no socket, no wall clock), so every
// figure here is exact: when a connection completes, when a silent peer times out, what the conditioner did.
#include "netcube/transport/memory_network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "../support/open_sockets.h"
#include "nodes.h"

namespace netcube::transport {
namespace {

using namespace std::chrono_literals;

constexpr std::uint32_t kTimeoutMs = 500;

HostConfig Config(std::uint64_t seed = 1) {
  HostConfig config;
  config.bind_address = "127.0.0.1";
  config.seed = seed;
  config.timeout_ms = kTimeoutMs;
  return config;
}

class MemoryNetworkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sockets_before_ = test::OpenSockets();
    ASSERT_GE(sockets_before_, 0);
  }
  void TearDown() override { EXPECT_EQ(test::OpenSockets(), sockets_before_) << "a socket was opened"; }

  std::unique_ptr<Host> Listen(const HostConfig& config) {
    std::string error;
    std::unique_ptr<Host> host = network_.Listen(config, &error);
    EXPECT_NE(host, nullptr) << error;
    return host;
  }

  // Services the nodes in turn, 1 ms of virtual time apart, `ms` times.
  void Run(std::initializer_list<Node*> nodes, int ms) {
    for (int i = 0; i < ms; ++i) {
      now_ += 1ms;
      for (Node* node : nodes) {
        if (node->host != nullptr) node->Service(now_);
      }
    }
  }

  // Starts server_ and client_ and connects them: server_peer_ is the client as the server knows it.
  void Connect(const HostConfig& server_config, const HostConfig& client_config) {
    server_.host = Listen(server_config);
    std::string error;
    client_.host = network_.Outgoing(client_config, &error);
    ASSERT_TRUE(server_.host && client_.host) << error;
    const std::optional<PeerId> peer = client_.host->Connect("127.0.0.1", server_.host->port(), &error);
    ASSERT_TRUE(peer.has_value()) << error;
    client_peer_ = *peer;
    Run({&client_, &server_},
        2 + static_cast<int>(2 * (server_config.link.latency_ms + server_config.link.jitter_ms +
                                  client_config.link.latency_ms + client_config.link.jitter_ms)));
    ASSERT_TRUE(client_.Find(EventType::kConnected, client_peer_));
    ASSERT_TRUE(server_.FindFirst(EventType::kConnected));
    server_peer_ = server_.FindFirst(EventType::kConnected)->peer;
    server_.events.clear();
    client_.events.clear();
  }

  int sockets_before_ = 0;
  MemoryNetwork network_;
  Micros now_{0};
  Node server_;
  Node client_;
  PeerId client_peer_ = 0;
  PeerId server_peer_ = 0;
};

TEST_F(MemoryNetworkTest, ConnectsInEnetsThreeStepsAcrossServices) {
  server_.host = Listen(Config());
  std::string error;
  client_.host = network_.Outgoing(Config(), &error);
  ASSERT_GE(server_.host->port(), 49152);
  const std::optional<PeerId> peer = client_.host->Connect("127.0.0.1", server_.host->port(), &error);
  ASSERT_TRUE(peer);
  // The request leaves at the client's Service, the accept at the server's, the acknowledgement at the
  // client's next: the client is connected one Service before the server.
  now_ += 1ms;
  client_.Service(now_);
  server_.Service(now_);
  EXPECT_TRUE(server_.events.empty());
  client_.Service(now_);
  EXPECT_TRUE(client_.Find(EventType::kConnected, *peer));
  server_.Service(now_);
  ASSERT_TRUE(server_.FindFirst(EventType::kConnected));
}

TEST_F(MemoryNetworkTest, CarriesBothChannelsInOrderAndCountsNoHeaders) {
  ASSERT_NO_FATAL_FAILURE(Connect(Config(), Config()));
  std::vector<std::vector<std::uint8_t>> sent;
  for (std::uint8_t i = 0; i < 50; ++i) {
    sent.push_back(Bytes(1 + i * 40U, i));
    client_.host->Send(now_, client_peer_,
                       i % 2 == 0 ? protocol::Channel::kReliable : protocol::Channel::kUnreliable,
                       sent.back());
  }
  client_.host->Send(now_, client_peer_, protocol::Channel::kReliable,
                     Bytes(protocol::kMaxPacketBytes + 1, 9));
  Run({&client_, &server_}, 1);
  ASSERT_EQ(server_.events.size(), sent.size());
  for (std::size_t i = 0; i < sent.size(); ++i) {
    EXPECT_EQ(server_.events[i].type, EventType::kReceived);
    EXPECT_EQ(server_.events[i].channel,
              i % 2 == 0 ? protocol::Channel::kReliable : protocol::Channel::kUnreliable);
    EXPECT_EQ(server_.events[i].data, sent[i]) << i;
  }
  const TransportCounters client = client_.host->counters();
  const TransportCounters server = server_.host->counters();
  EXPECT_EQ(client.packets_sent, sent.size());  // the oversized one was refused
  EXPECT_EQ(server.packets_received, sent.size());
  EXPECT_EQ(server.payload_bytes_received, client.payload_bytes_sent);
  EXPECT_EQ(client.wire_bytes_sent, client.payload_bytes_sent);  // the hub has no headers
  EXPECT_EQ(client.wire_packets_sent, sent.size() + 2);          // and the request and acknowledgement
  EXPECT_FALSE(client_.host->EnetRttMs(client_peer_).has_value());
}

TEST_F(MemoryNetworkTest, AGoodbyeFollowsWhatWasSentBeforeItAndCarriesItsValue) {
  ASSERT_NO_FATAL_FAILURE(Connect(Config(), Config()));
  client_.host->Send(now_, client_peer_, protocol::Channel::kReliable, Bytes(10, 1));
  client_.host->Disconnect(now_, client_peer_, 42);
  client_.host->Send(now_, client_peer_, protocol::Channel::kReliable, Bytes(10, 2));  // after: discarded
  Run({&client_, &server_}, 2);
  ASSERT_EQ(server_.events.size(), 2U);
  EXPECT_EQ(server_.events[0].data, Bytes(10, 1));
  EXPECT_EQ(server_.events[1].type, EventType::kDisconnected);
  EXPECT_EQ(server_.events[1].disconnect_data, 42U);
  EXPECT_FALSE(server_.events[1].timed_out);
  ASSERT_EQ(client_.events.size(), 1U);
  EXPECT_EQ(client_.events[0].type, EventType::kDisconnected);
  EXPECT_FALSE(client_.events[0].timed_out);
}

TEST_F(MemoryNetworkTest, ADroppedOrDestroyedPeerTimesOutAfterTheTimeout) {
  ASSERT_NO_FATAL_FAILURE(Connect(Config(), Config()));
  server_.host->Drop(server_peer_);
  Run({&client_, &server_}, kTimeoutMs - 1);
  EXPECT_TRUE(client_.events.empty()) << "before the timeout";
  Run({&client_, &server_}, 2);
  ASSERT_EQ(client_.events.size(), 1U);
  EXPECT_EQ(client_.events[0].type, EventType::kDisconnected);
  EXPECT_TRUE(client_.events[0].timed_out);
  EXPECT_TRUE(server_.events.empty()) << "a drop says nothing here";

  ASSERT_NO_FATAL_FAILURE(Connect(Config(), Config()));
  client_.host.reset();
  Run({&server_}, kTimeoutMs + 1);
  const KeptEvent* gone = server_.Find(EventType::kDisconnected, server_peer_);
  ASSERT_NE(gone, nullptr);
  EXPECT_TRUE(gone->timed_out);
}

TEST_F(MemoryNetworkTest, NobodyThereOrAFullServerTimesTheConnectionOut) {
  HostConfig one = Config();
  one.max_peers = 1;
  ASSERT_NO_FATAL_FAILURE(Connect(one, Config()));
  std::string error;
  Node late;
  Node lost;
  late.host = network_.Outgoing(Config(), &error);
  lost.host = network_.Outgoing(Config(), &error);
  const std::optional<PeerId> refused = late.host->Connect("127.0.0.1", server_.host->port(), &error);
  const std::optional<PeerId> nowhere = lost.host->Connect("127.0.0.1", 7, &error);
  ASSERT_TRUE(refused && nowhere) << "as with UDP, nobody there is no error at once";
  Run({&late, &lost, &server_}, kTimeoutMs + 1);
  for (const auto& [node, peer] : {std::pair{&late, *refused}, std::pair{&lost, *nowhere}}) {
    const KeptEvent* event = node->Find(EventType::kDisconnected, peer);
    ASSERT_NE(event, nullptr);
    EXPECT_TRUE(event->timed_out);
  }
  EXPECT_TRUE(server_.events.empty());
}

TEST_F(MemoryNetworkTest, APortIsTakenOnceAndEphemeralPortsDiffer) {
  HostConfig fixed = Config();
  fixed.port = 7777;
  std::unique_ptr<Host> first = Listen(fixed);
  std::string error;
  EXPECT_EQ(network_.Listen(fixed, &error), nullptr);
  EXPECT_NE(error.find("in use"), std::string::npos) << error;
  std::unique_ptr<Host> a = Listen(Config());
  std::unique_ptr<Host> b = Listen(Config());
  EXPECT_NE(a->port(), b->port());
}

TEST_F(MemoryNetworkTest, IsToldFromUdp) {
  EXPECT_EQ(KindOf(&network_), NetworkKind::kMemory);
  EXPECT_EQ(KindOf(MakeNetwork(NetworkKind::kMemory).get()), NetworkKind::kMemory);
  EXPECT_EQ(KindOf(UdpNetwork().get()), NetworkKind::kUdp);
  EXPECT_EQ(KindOf(nullptr), NetworkKind::kUdp) << "a config without a network of its own is on UDP";
}

// The conditioner is the Host's, over any endpoint: latency to the millisecond, loss on the unreliable
// channel only, and the same decisions on every run.
TEST_F(MemoryNetworkTest, TheConditionerImpairsTheLinkTheSameOnEveryRun) {
  const auto run = [&](std::vector<std::int64_t>& arrivals) {
    HostConfig lossy = Config(7);
    lossy.link = {.latency_ms = 40, .jitter_ms = 10, .loss = 0.3, .duplicate = 0.1};
    now_ = Micros{0};
    ASSERT_NO_FATAL_FAILURE(Connect(Config(), lossy));
    const Micros start = now_;
    for (int i = 0; i < 300; ++i) {
      if (i < 200) {
        client_.host->Send(now_, client_peer_, protocol::Channel::kUnreliable,
                           Bytes(20, static_cast<std::uint8_t>(i)));
      }
      if (i < 200 && i % 10 == 0)
        client_.host->Send(now_, client_peer_, protocol::Channel::kReliable, Bytes(4, 0));
      Run({&client_, &server_}, 1);
      for (const KeptEvent& e : server_.events) {
        arrivals.push_back((now_ - start).count() * (e.channel == protocol::Channel::kReliable ? -1 : 1));
      }
      server_.events.clear();
    }
    const LinkConditionerCounters& out = client_.host->counters().outgoing;
    EXPECT_GT(out.dropped, 30U);
    EXPECT_GT(out.duplicated, 5U);
  };
  std::vector<std::int64_t> first;
  std::vector<std::int64_t> second;
  ASSERT_NO_FATAL_FAILURE(run(first));
  ASSERT_NO_FATAL_FAILURE(run(second));
  EXPECT_EQ(first, second);
  const auto reliable = std::count_if(first.begin(), first.end(), [](std::int64_t at) { return at < 0; });
  EXPECT_EQ(reliable, 20) << "reliable traffic is never lost";
  EXPECT_LT(first.size(), 220U) << "30% of the unreliable packets lost, 10% duplicated";
  const std::int64_t earliest = *std::min_element(
      first.begin(), first.end(), [](std::int64_t a, std::int64_t b) { return std::abs(a) < std::abs(b); });
  EXPECT_GE(std::abs(earliest), 30'000) << "40 ms +/- 10 ms";
}

}  // namespace
}  // namespace netcube::transport
