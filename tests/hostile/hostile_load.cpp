// netcube-hostile-load: one of issue 44's attacks, on the wall clock, against a netcube-server running
// as its own process on 127.0.0.1, for a while, then a line of what it sent. With honest netcube-bots
// beside it (scripts/hostile-real-time.sh), it shows what an attack costs the players, not only the
// server: the attacks of tests/hostile/ and tests/discovery/, which run on virtual time.
//   churn      clients joining and leaving in a loop (to the Welcome), one an address (JoinChurn)
//   half-open  a CONNECT from each address every 10 ms, never acknowledged (HandshakeFlood)
//   discovery  discovery queries from each address in turn, --rate a second in all
//   liars      players that change keys at every input and tell, each tick, of the oldest snapshot they
//              may (issue 44, item 5: each would have the server keep a baseline of its own)
// Addresses 127.1.x.y, 250 to a /24: never the honest players' 127.0.0.x.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "hostile/attacker.h"
#include "hostile/join_churn.h"
#include "netcube/protocol/discovery.h"
#include "netcube/sim/world.h"

namespace netcube::hostile {
namespace {

using Clock = std::chrono::steady_clock;

// SIGINT or SIGTERM ends the attack early, still saying what it sent.
volatile std::sig_atomic_t stop_requested = 0;
void RequestStop(int) { stop_requested = 1; }

std::string LoadAddress(int i) {
  return "127.1." + std::to_string(i / 250) + "." + std::to_string(1 + i % 250);
}

struct Load {
  std::string attack;
  int addresses = 24;
  std::uint16_t port = 0;
  double seconds = 10;
  int rate = 1000;  // discovery queries a second, in all
};

Micros Since(Clock::time_point start) { return std::chrono::duration_cast<Micros>(Clock::now() - start); }

bool Going(Micros now, Micros end) { return now < end && stop_requested == 0; }

std::vector<std::unique_ptr<UdpSocket>> Sockets(int count, std::string* error) {
  std::vector<std::unique_ptr<UdpSocket>> sockets;
  for (int i = 0; i < count; ++i) {
    sockets.push_back(UdpSocket::Bind(LoadAddress(i), error));
    if (sockets.back() == nullptr) return {};
  }
  return sockets;
}

// Players that join, then at each new server tick send an input with other keys than the last and tell
// of the snapshot kHeldBaselines - 1 ticks old. How many were welcomed, or -1 with `error` when one
// could not be made.
long long Lie(const Load& load, Clock::time_point start, Micros end, std::string* error) {
  struct Liar {
    std::unique_ptr<testing::TestClient> client;
    testing::InputSender inputs;
    bool asked = false;
    std::uint32_t told_at = 0;
  };
  std::vector<Liar> liars(static_cast<std::size_t>(load.addresses));
  for (int k = 0; k < load.addresses; ++k) {
    transport::HostConfig config;
    config.bind_address = LoadAddress(k);
    liars[static_cast<std::size_t>(k)].client = testing::TestClient::Connect(load.port, config, error);
    if (liars[static_cast<std::size_t>(k)].client == nullptr) return -1;
  }
  constexpr std::uint32_t kOldestAge = protocol::kHeldBaselines - 1;
  for (Micros now = Since(start); Going(now, end); now = Since(start)) {
    for (std::size_t k = 0; k < liars.size(); ++k) {
      Liar& liar = liars[k];
      liar.client->Poll(now);
      const testing::Inbox& inbox = liar.client->inbox();
      if (inbox.connected && !liar.asked) liar.asked = liar.client->SendConnectRequest(now, "liar");
      const std::uint32_t tick = inbox.newest_server_tick;
      if (!inbox.welcome || tick == liar.told_at || tick <= kOldestAge) continue;
      liar.told_at = tick;
      const sim::Input input =
          liar.inputs.Add(static_cast<std::uint8_t>((tick + k) % (sim::kButtonMask + 1)));
      // The last few inputs resent, as a client whose acks come does: the queue stays bounded.
      liar.inputs.Acknowledge(static_cast<sim::Seq>(input.seq - protocol::kMaxInputsPerPacket));
      liar.client->Send(now, liar.inputs.Message());
      liar.client->Send(now, protocol::SnapshotAck{static_cast<std::uint16_t>(tick - kOldestAge)});
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return std::count_if(liars.begin(), liars.end(),
                       [](const Liar& liar) { return liar.client->inbox().welcome.has_value(); });
}

// Runs the attack until `load.seconds` have passed (or a stop is asked); the datagrams or connections it
// began (for liars: how many were welcomed), or -1.
long long Run(const Load& load, std::string* error) {
  const Clock::time_point start = Clock::now();
  const Micros end = std::chrono::duration_cast<Micros>(std::chrono::duration<double>(load.seconds));
  if (load.attack == "churn") {
    std::vector<std::string> addresses;
    for (int i = 0; i < load.addresses; ++i) addresses.push_back(LoadAddress(i));
    JoinChurn churn(load.port, std::move(addresses), false);
    for (Micros now = Since(start); Going(now, end); now = Since(start)) {
      if (!churn.Step(now, error)) return -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return static_cast<long long>(churn.starts());
  }
  if (load.attack == "liars") return Lie(load, start, end, error);
  const std::vector<std::unique_ptr<UdpSocket>> sockets = Sockets(load.addresses, error);
  if (sockets.empty()) return -1;
  if (load.attack == "half-open") {
    HandshakeFlood flood(sockets, load.port);
    // The flood's round every 10 ms of its clock: each period late rounds are skipped, not bunched.
    for (Micros now = Since(start); Going(now, end); now = Since(start)) {
      flood.Step(Micros(now.count() / 10'000 * 10'000));
      std::this_thread::sleep_until(start + Micros((now.count() / 10'000 + 1) * 10'000));
    }
    return static_cast<long long>(flood.requests());
  }
  std::array<std::uint8_t, protocol::kDiscoveryQueryBytes> query{};
  protocol::EncodeDiscoveryQuery({protocol::kProtocolVersion, 1}, query);
  long long sent = 0;
  std::size_t next = 0;
  for (Micros now = Since(start); Going(now, end); now = Since(start)) {
    const long long due = now.count() * load.rate / 1'000'000;
    for (; sent < due; ++sent, next = (next + 1) % sockets.size()) sockets[next]->SendTo(load.port, query);
    for (const auto& socket : sockets) socket->Drain();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return sent;
}

}  // namespace
}  // namespace netcube::hostile

int main(int argc, char** argv) {
  netcube::hostile::Load load;
  CLI::App app{"netcube-hostile-load: one of issue 44's attacks on a local netcube-server, for a while"};
  app.add_option("--attack", load.attack, "churn, half-open, discovery or liars")
      ->required()
      ->check(CLI::IsMember({"churn", "half-open", "discovery", "liars"}));
  app.add_option("--port", load.port, "The server's UDP port (its discovery port for discovery)")->required();
  app.add_option("--addresses", load.addresses, "Attacking addresses, 127.1.x.y")
      ->check(CLI::Range(1, 250 * 256))
      ->capture_default_str();
  app.add_option("--seconds", load.seconds, "How long")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  app.add_option("--rate", load.rate, "discovery: queries a second, in all")
      ->check(CLI::Range(1, 1'000'000))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  std::signal(SIGINT, netcube::hostile::RequestStop);
  std::signal(SIGTERM, netcube::hostile::RequestStop);
  std::string error;
  const auto started = netcube::hostile::Clock::now();
  const long long begun = netcube::hostile::Run(load, &error);
  if (begun < 0) {
    std::fprintf(stderr, "netcube-hostile-load: %s\n", error.c_str());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(netcube::hostile::Clock::now() - started).count();
  if (load.attack == "liars") {
    std::printf("liars from %d addresses for %.1f s: %lld welcomed\n", load.addresses, seconds, begun);
  } else {
    std::printf("%s from %d addresses for %.1f s: %lld %s (%.0f a second)\n", load.attack.c_str(),
                load.addresses, seconds, begun,
                load.attack == "churn" ? "connections begun" : "datagrams sent",
                static_cast<double>(begun) / seconds);
  }
  return 0;
}
