// netcube-hostile-load, the attacker of scripts/hostile-real-time.sh: each attack comes from 127.1.x.y
// only, reaches what it attacks, and stops by itself in the time it was given.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "netcube/protocol/discovery.h"
#include "netcube/transport/udp_socket.h"
#include "support/command.h"
#include "support/server_thread.h"

namespace netcube::hostile {
namespace {

using testing::RunCommand;

std::string Load(const std::string& attack, int addresses, std::uint16_t port, const char* seconds = "0.6") {
  return std::string(NETCUBE_HOSTILE_LOAD_EXE) + " --attack " + attack + " --addresses " +
         std::to_string(addresses) + " --port " + std::to_string(port) + " --seconds " + seconds +
         " --rate 500";
}

// The datagrams a socket on 127.0.0.1 receives while `command` runs: their sources, and how many.
struct Received {
  std::set<std::string> sources;
  std::size_t datagrams = 0;
  std::size_t discovery_queries = 0;
  testing::CommandResult result;
};

Received RunAgainstASocket(const std::string& attack, int addresses) {
  std::string error;
  transport::UdpSocketConfig config;
  config.bind_address = "127.0.0.1";
  std::optional<transport::UdpSocket> socket = transport::UdpSocket::Open(config, &error);
  EXPECT_TRUE(socket.has_value()) << error;
  Received received;
  if (!socket) return received;
  std::atomic<bool> done{false};
  std::thread run([&] {
    received.result = RunCommand(Load(attack, addresses, socket->port()));
    done = true;
  });
  std::array<std::uint8_t, 512> buffer{};
  transport::UdpEndpoint from;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!done && std::chrono::steady_clock::now() < give_up) {
    while (const std::optional<std::size_t> size = socket->Receive(buffer, from)) {
      ++received.datagrams;
      received.sources.insert(transport::FormatIpv4(from.address));
      protocol::DiscoveryQuery query;
      if (protocol::DecodeDiscoveryQuery(std::span(buffer.data(), *size), query) ==
          protocol::DecodeError::kNone)
        ++received.discovery_queries;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  run.join();
  return received;
}

TEST(HostileLoad, AHalfOpenFloodComesFromEachAddressEveryTenMilliseconds) {
  // 100 addresses (a round's burst well within the receiving socket's buffer), 60 rounds in 0.6 s, some
  // skipped on a busy machine.
  const Received received = RunAgainstASocket("half-open", 100);
  EXPECT_EQ(received.result.exit_code, 0) << received.result.output;
  EXPECT_EQ(received.sources.size(), 100U);
  EXPECT_GE(received.datagrams, 100U * 20);
  EXPECT_LE(received.datagrams, 100U * 61);
  EXPECT_NE(received.result.output.find("half-open from 100 addresses"), std::string::npos)
      << received.result.output;
}

TEST(HostileLoad, ADiscoveryFloodKeepsItsRateAcrossItsSources) {
  // 260 sources, past a /24 (127.1.0.1 .. 127.1.1.10), each used in turn.
  const Received received = RunAgainstASocket("discovery", 260);
  EXPECT_EQ(received.result.exit_code, 0) << received.result.output;
  EXPECT_EQ(received.sources.size(), 260U);
  EXPECT_TRUE(received.sources.contains("127.1.0.1") && received.sources.contains("127.1.1.10"));
  EXPECT_EQ(received.discovery_queries, received.datagrams);
  EXPECT_GE(received.datagrams, 250U);  // 500 a second for 0.6 s
  EXPECT_LE(received.datagrams, 301U);
}

TEST(HostileLoad, ChurnersAndLiarsPlayAgainstARealServer) {
  testing::ServerThread server(/*max_clients=*/8);
  ASSERT_NE(server.port(), 0) << server.error();
  // Long enough for four handshakes on a loaded machine, under a sanitizer.
  const testing::CommandResult liars = RunCommand(Load("liars", 4, server.port(), "2"));
  EXPECT_EQ(liars.exit_code, 0) << liars.output;
  EXPECT_NE(liars.output.find("liars from 4 addresses"), std::string::npos) << liars.output;
  EXPECT_NE(liars.output.find("4 welcomed"), std::string::npos) << liars.output;
  const testing::CommandResult churn = RunCommand(Load("churn", 4, server.port()));
  EXPECT_EQ(churn.exit_code, 0) << churn.output;
  EXPECT_NE(churn.output.find("churn from 4 addresses"), std::string::npos) << churn.output;
}

TEST(HostileLoad, ABadAttackSaysWhatIsWrong) {
  const testing::CommandResult result =
      RunCommand(std::string(NETCUBE_HOSTILE_LOAD_EXE) + " --attack flood --port 1");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("--attack"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace netcube::hostile
