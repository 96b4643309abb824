// ENet 1.3.17's parked commands, attacked from 127.0.0.2 over a connection that never sent its
// ConnectRequest (issue 27). A sequenced (unreliable) command naming a reliable sequence number its channel
// has not delivered yet waits in ENet until that number is delivered, and ENet charges it only its data:
// zero-length ones cost memory without limit. ENet finds each one's place in a sorted list by walking back
// from the end, so in descending order every command walks the whole list. The datagram filter must bound
// both while an honest player on 127.0.0.1 plays on, in sync and answered.
#include <enet/enet.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "hostile/attacker.h"
#include "netcube/server/server.h"
#include "support/input_driver.h"
#include "support/loopback_rig.h"

namespace netcube::hostile {
namespace {

using testing::InputDriver;
using testing::LoopbackRig;

// As many zero-length commands as ENet reads in one datagram: its 4,096-byte buffer, less the 2-byte header.
constexpr std::size_t kCommandsPerDatagram =
    (ENET_PROTOCOL_MAXIMUM_MTU - 2) / sizeof(ENetProtocolSendUnreliable);
// 64 datagrams (256 KiB) a millisecond: as fast as the attacker likes, within the kernel's receive buffer.
constexpr std::size_t kDatagramsPerStep = 64;
// The target is 100 ms: a generous margin for a loaded machine (today's main takes seconds).
constexpr Micros kMaxNetworkService{1'000'000};
// Unreliable sequence numbers 1 to 65535 under each reliable number.
constexpr std::size_t kUnreliableSeqs = 0xFFFF;
constexpr std::uint8_t kUnreliableChannel = 1;
// Honest TimeEcho requests: one with each of the attack's first bursts (within the server's burst of
// 10), and one every 100 ms otherwise (its rate is 20 a second).
constexpr int kEchoedBursts = 8;
constexpr int kEchoIntervalSteps = 100;

enum class Order { kAscending, kDescending };

struct Figures {
  std::size_t growth_bytes = 0;       // the process's resident set, at worst
  Micros cpu_time{0};                 // the process's (the server's, mostly) while attacked
  Micros longest_network_service{0};  // the server's, between two ticks, by the wall clock
  Micros worst_round_trip{0};         // of the honest player's TimeEcho requests, by the wall clock
  std::uint64_t datagrams_sent = 0;
  std::uint64_t datagrams_filtered = 0;
  bool honest_disconnected = true;
  bool honest_in_sync = false;
};

Micros WallClock() {
  return std::chrono::duration_cast<Micros>(std::chrono::steady_clock::now().time_since_epoch());
}

// `commands` zero-length unreliable commands on channel 1, which has delivered no reliable number: the
// n-th of them in ascending order names reliable number 1 + n / 65535 (all within the 4,096 the filter
// lets through) and unreliable number 1 + n % 65535. Sent in `order`, in full datagrams, while ann plays.
void Attack(std::size_t commands, Order order, Figures& out) {
  server::ServerConfig config;
  config.collisions = false;
  config.work_clock = WallClock;
  std::string error;
  auto rig = LoopbackRig::Create(config, &error);
  ASSERT_NE(rig, nullptr) << error;
  testing::TestClient* ann = rig->Join("ann");
  ASSERT_NE(ann, nullptr);
  auto intruder = EnetIntruder::Connect("127.0.0.2", rig->server().port(), &error);
  ASSERT_NE(intruder, nullptr) << error;
  ASSERT_TRUE(
      rig->StepUntil([&] { return intruder->connected(); }, Micros(500'000), [&] { intruder->Service(); }));

  const sim::CubeState start = rig->server().world()[0].state;
  InputDriver driver(*ann, {});
  std::uint8_t buttons = sim::kDown;
  const auto zigzag = [&buttons] { return buttons ^= (sim::kLeft | sim::kRight); };
  std::vector<Micros> echo_sent_at;
  std::size_t echoes_seen = 0;
  const auto send_echo = [&] {
    ann->Send(rig->now(), protocol::TimeEcho{false, static_cast<std::uint32_t>(echo_sent_at.size()), 0});
    echo_sent_at.push_back(WallClock());
  };
  const auto time_echoes = [&] {
    const auto& echoes = ann->inbox().echoes;
    for (; echoes_seen < echoes.size(); ++echoes_seen) {
      out.worst_round_trip =
          std::max(out.worst_round_trip, WallClock() - echo_sent_at.at(echoes[echoes_seen].client_time_us));
    }
  };

  // Made before the clock starts: what the attacker spends making them is not the server's.
  std::vector<std::vector<std::uint8_t>> datagrams;
  for (std::size_t made = 0; made < commands;) {
    std::vector<std::uint8_t>& datagram = datagrams.emplace_back();
    for (std::size_t c = 0; c < kCommandsPerDatagram && made < commands; ++c, ++made) {
      const std::size_t n = order == Order::kAscending ? made : commands - 1 - made;
      EnetIntruder::AppendEmptyUnreliable(datagram, kUnreliableChannel,
                                          static_cast<std::uint16_t>(1 + n / kUnreliableSeqs),
                                          static_cast<std::uint16_t>(1 + n % kUnreliableSeqs));
    }
  }
  const std::size_t resident_before = ResidentBytes();
  const std::clock_t cpu_before = std::clock();
  int bursts = 0;
  int steps = 0;
  int steps_since_attack = 0;
  const auto attacking = [&] { return out.datagrams_sent < datagrams.size(); };
  const auto burst = [&] {
    for (std::size_t d = 0; d < kDatagramsPerStep && attacking(); ++d) {
      intruder->SendCommands(datagrams[out.datagrams_sent++]);
    }
  };
  // Within the server's 2 s for a ConnectRequest, so that the intruder keeps what ENet parked. A stall
  // shows in the network service of the tick after it.
  const bool settled = rig->StepUntil(
      [&] {
        driver.Update(rig->now(), zigzag, attacking());
        time_echoes();
        const std::size_t resident = ResidentBytes();
        out.growth_bytes =
            std::max(out.growth_bytes, resident > resident_before ? resident - resident_before : 0);
        return !attacking() && steps_since_attack > kEchoIntervalSteps && driver.AllAcknowledged();
      },
      Micros(1'500'000),
      [&] {
        intruder->Service();
        if ((attacking() && bursts < kEchoedBursts) || ++steps % kEchoIntervalSteps == 0) send_echo();
        if (attacking()) {
          burst();
          ++bursts;
        } else {
          ++steps_since_attack;
        }
      });
  EXPECT_TRUE(settled);
  rig->StepFor(Micros(20'000));  // a tick, which records the network service before it
  out.cpu_time = Micros((std::clock() - cpu_before) * 1'000'000LL / CLOCKS_PER_SEC);
  const server::ServerStats stats = rig->server().stats();
  out.longest_network_service = stats.network_durations.max;
  out.datagrams_filtered = stats.datagrams_filtered;
  out.honest_disconnected = ann->inbox().disconnected;
  out.honest_in_sync =
      sim::SamePhysics(rig->server().world()[0].state, testing::Replay(start, driver.sent()));
  std::printf(
      "%zu %s commands in %llu datagrams: resident set +%zu kB; CPU %lld ms; longest network service %lld "
      "ms; honest round trip at worst %lld ms; %llu datagrams filtered\n",
      commands, order == Order::kAscending ? "ascending" : "descending",
      static_cast<unsigned long long>(out.datagrams_sent), out.growth_bytes / 1024,
      static_cast<long long>(out.cpu_time.count() / 1000),
      static_cast<long long>(out.longest_network_service.count() / 1000),
      static_cast<long long>(out.worst_round_trip.count() / 1000),
      static_cast<unsigned long long>(out.datagrams_filtered));
}

TEST(EnetParked, AMillionUnreliableCommandsWaitingForReliableNumbersCostNoMemory) {
  Figures figures;
  ASSERT_NO_FATAL_FAILURE(Attack(1'000'000, Order::kAscending, figures));
  EXPECT_LE(figures.growth_bytes, kMaxGrowthBytes);
  EXPECT_FALSE(figures.honest_disconnected);
  EXPECT_TRUE(figures.honest_in_sync);
}

TEST(EnetParked, UnreliableCommandsInDescendingOrderDoNotStallTheServer) {
  for (const std::size_t commands : {40'000U, 80'000U}) {
    Figures figures;
    ASSERT_NO_FATAL_FAILURE(Attack(commands, Order::kDescending, figures));
    EXPECT_LE(figures.longest_network_service, kMaxNetworkService) << commands << " commands";
    EXPECT_LE(figures.growth_bytes, kMaxGrowthBytes) << commands << " commands";
    EXPECT_FALSE(figures.honest_disconnected) << commands << " commands";
    EXPECT_TRUE(figures.honest_in_sync) << commands << " commands";
  }
}

}  // namespace
}  // namespace netcube::hostile
