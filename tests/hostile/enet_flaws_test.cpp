// ENet 1.3.17's flaws, attacked from 127.0.0.2: bogus fragment starts (a memory bomb) and datagrams too
// large for ENet's buffer (which stopped the server reading). The server's datagram filter and its
// receive loop must hold both off while an honest player on 127.0.0.1 plays on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "hostile/attacker.h"
#include "netcube/server/server.h"
#include "support/input_driver.h"
#include "support/loopback_rig.h"

namespace netcube::hostile {
namespace {

using testing::InputDriver;
using testing::LoopbackRig;

constexpr std::uint16_t kFragmentStarts = 2000;
constexpr int kStartsPerStep = 50;  // paced, so the kernel's buffer drops none of them

struct IntruderRig {
  std::unique_ptr<LoopbackRig> rig;
  std::unique_ptr<EnetIntruder> intruder;
};

// A server, and an ENet connection to it from 127.0.0.2 that has sent nothing of netcube's protocol.
void ConnectIntruder(IntruderRig& out) {
  std::string error;
  out.rig = LoopbackRig::Create({}, &error);
  ASSERT_NE(out.rig, nullptr) << error;
  out.intruder = EnetIntruder::Connect("127.0.0.2", out.rig->server().port(), &error);
  ASSERT_NE(out.intruder, nullptr) << error;
  EnetIntruder* intruder = out.intruder.get();
  ASSERT_TRUE(out.rig->StepUntil([intruder] { return intruder->connected(); }, Micros(5'000'000),
                                 [intruder] { intruder->Service(); }));
}

// Sends kFragmentStarts fragment commands, each opening a reassembly of its own, and returns how much
// the process (the server in it) grew meanwhile.
std::size_t GrowthUnderFragmentStarts(IntruderRig& r, Fragment fragment) {
  const std::size_t before = ResidentBytes();
  for (std::uint16_t i = 1; i <= kFragmentStarts; ++i) {
    fragment.reliable_seq = i;
    fragment.start_seq = i;
    r.intruder->SendCommands(EnetIntruder::Encode(fragment));
    if (i % kStartsPerStep == 0) {
      r.rig->Step();
      r.intruder->Service();
    }
  }
  r.rig->StepFor(Micros(100'000), [&r] { r.intruder->Service(); });
  const std::size_t after = ResidentBytes();
  const std::size_t growth = after > before ? after - before : 0;
  std::printf("resident set: %zu kB -> %zu kB, %llu datagrams filtered\n", before / 1024, after / 1024,
              static_cast<unsigned long long>(r.rig->server().stats().datagrams_filtered));
  return growth;
}

TEST(EnetFlaws, ImpossibleFragmentStartsAreFilteredAndCostNoMemory) {
  IntruderRig r;
  ASSERT_NO_FATAL_FAILURE(ConnectIntruder(r));
  // ENet 1.3.17 allocates a 128 KiB bitmap for each: 250 MB for 2,000.
  Fragment bomb;
  bomb.count = 1U << 20;
  bomb.total_length = 1;
  const std::size_t growth = GrowthUnderFragmentStarts(r, bomb);
  EXPECT_LE(growth, kMaxGrowthBytes);
  EXPECT_EQ(r.rig->server().stats().datagrams_filtered, kFragmentStarts);
  EXPECT_NE(r.rig->Join("ann"), nullptr);
}

TEST(EnetFlaws, OpenReassembliesPerPeerAreBounded) {
  IntruderRig r;
  ASSERT_NO_FATAL_FAILURE(ConnectIntruder(r));
  // Consistent claims, each the first half of a message that never completes: ENet would keep every one.
  Fragment half;
  half.count = 2;
  half.total_length = 2 * 1000;
  half.length = 1000;
  const std::size_t growth = GrowthUnderFragmentStarts(r, half);
  EXPECT_LE(growth, kMaxGrowthBytes);
  // A handful are let through, up to the per-peer bound; the rest are dropped.
  EXPECT_GE(r.rig->server().stats().datagrams_filtered, kFragmentStarts - 16U);
  EXPECT_NE(r.rig->Join("ann"), nullptr);
}

struct FloodedPlayer {
  std::unique_ptr<LoopbackRig> rig;
  testing::TestClient* ann = nullptr;
  std::unique_ptr<UdpSocket> flood;
  sim::CubeState start;  // ann's cube as the flood begins
};

// A server without collisions, one honest player on 127.0.0.1 (ann), and a flooding socket on 127.0.0.2.
void StartFlood(FloodedPlayer& out) {
  server::ServerConfig config;
  config.collisions = false;
  std::string error;
  out.rig = LoopbackRig::Create(config, &error);
  ASSERT_NE(out.rig, nullptr) << error;
  out.ann = out.rig->Join("ann");
  ASSERT_NE(out.ann, nullptr);
  out.flood = UdpSocket::Bind("127.0.0.2", &error);
  ASSERT_NE(out.flood, nullptr) << error;
  out.start = out.rig->server().world()[0].state;
}

TEST(EnetFlaws, APlayerStaysInSyncThroughAFloodOfOversizedDatagrams) {
  FloodedPlayer scene;
  ASSERT_NO_FATAL_FAILURE(StartFlood(scene));
  LoopbackRig* rig = scene.rig.get();
  testing::TestClient* ann = scene.ann;
  UdpSocket* flood = scene.flood.get();
  const sim::CubeState start = scene.start;

  // 5,000-byte datagrams, more than ENet's 4 KiB receive buffer: 20 every millisecond for 2 s.
  constexpr std::size_t kFloodDatagrams = 40'000;
  constexpr int kPerStep = 20;
  const std::vector<std::uint8_t> oversized(5000, 0xEE);
  std::size_t sent = 0;
  const std::uint16_t port = rig->server().port();
  InputDriver driver(*ann, {});
  std::uint8_t buttons = sim::kDown;
  const auto zigzag = [&buttons] { return buttons ^= (sim::kLeft | sim::kRight); };
  // How far the server's acknowledgement trails ann's newest input, at worst, during the flood: the
  // server must keep reading ann's packets between the attacker's.
  int worst_ack_lag = 0;
  ASSERT_TRUE(rig->StepUntil(
      [&] {
        driver.Update(rig->now(), zigzag, sent < kFloodDatagrams);
        const auto& snapshot = ann->inbox().last_snapshot;
        if (sent < kFloodDatagrams && snapshot && snapshot->has_ack) {
          worst_ack_lag = std::max(worst_ack_lag, sim::SeqDiff(driver.sent().back().seq, snapshot->ack));
        }
        return sent == kFloodDatagrams && driver.AllAcknowledged();
      },
      Micros(20'000'000),
      [&] {
        for (int i = 0; i < kPerStep && sent < kFloodDatagrams; ++i)
          sent += flood->SendTo(port, oversized) ? 1U : 0U;
      }));
  std::printf("worst acknowledgement lag during the flood: %d inputs; %llu datagrams unreadable\n",
              worst_ack_lag, static_cast<unsigned long long>(rig->server().stats().receive_errors));
  EXPECT_FALSE(ann->inbox().disconnected);
  // A snapshot every 50 ms acknowledges the inputs of about 3 ticks before it.
  EXPECT_LE(worst_ack_lag, 10);
  EXPECT_GT(rig->server().stats().receive_errors, kFloodDatagrams / 2);
  EXPECT_TRUE(sim::SamePhysics(rig->server().world()[0].state, testing::Replay(start, driver.sent())));
}

// Small datagrams the filter drops, faster than ENet reads them in one service call (256): ENet reads no
// more per call, and a call that reports nothing (all dropped) used to end the server's pump there, so
// the socket's queue grew by the difference every millisecond, up to its 4 MiB, and an honest packet
// waited behind it (or was dropped by the kernel once it was full). Measured in virtual milliseconds
// (the rig's steps), which the machine's load does not change.
TEST(EnetFlaws, APlayerIsAnsweredPromptlyThroughAFloodOfFilteredDatagrams) {
  FloodedPlayer scene;
  ASSERT_NO_FATAL_FAILURE(StartFlood(scene));
  LoopbackRig* rig = scene.rig.get();
  testing::TestClient* ann = scene.ann;
  UdpSocket* flood = scene.flood.get();
  const sim::CubeState start = scene.start;

  // An ENet header addressed to peer 0 and a command number ENet does not have: dropped by the filter.
  const std::vector<std::uint8_t> garbage = {0x00, 0x00, 0x1F, 0x00, 0x00, 0x00, 0x00, 0x00};
  constexpr int kPerStep = 512;
  constexpr int kFloodSteps = 300;
  constexpr int kEchoIntervalSteps = 50;  // within the server's 20 TimeEcho replies a second
  const std::uint16_t port = rig->server().port();
  InputDriver driver(*ann, {});
  std::uint8_t buttons = sim::kDown;
  const auto zigzag = [&buttons] { return buttons ^= (sim::kLeft | sim::kRight); };
  int steps = 0;
  std::uint64_t sent = 0;
  std::vector<Micros> echo_sent_at;
  std::size_t echoes_seen = 0;
  Micros worst_round_trip{0};
  ASSERT_TRUE(rig->StepUntil(
      [&] {
        driver.Update(rig->now(), zigzag, steps < kFloodSteps);
        for (const auto& echoes = ann->inbox().echoes; echoes_seen < echoes.size(); ++echoes_seen) {
          worst_round_trip =
              std::max(worst_round_trip, rig->now() - echo_sent_at.at(echoes[echoes_seen].client_time_us));
        }
        return steps >= kFloodSteps && driver.AllAcknowledged();
      },
      Micros(5'000'000),
      [&] {
        if (steps++ >= kFloodSteps) return;
        if (steps % kEchoIntervalSteps == 0) {
          ann->Send(rig->now(),
                    protocol::TimeEcho{false, static_cast<std::uint32_t>(echo_sent_at.size()), 0});
          echo_sent_at.push_back(rig->now());
        }
        for (int i = 0; i < kPerStep; ++i) sent += flood->SendTo(port, garbage) ? 1U : 0U;
      }));
  const server::ServerStats stats = rig->server().stats();
  std::printf(
      "%llu small datagrams, %d a millisecond: %llu filtered; %zu of %zu TimeEcho requests answered, the "
      "slowest in %lld virtual ms\n",
      static_cast<unsigned long long>(sent), kPerStep,
      static_cast<unsigned long long>(stats.datagrams_filtered), echoes_seen, echo_sent_at.size(),
      static_cast<long long>(worst_round_trip.count() / 1000));
  EXPECT_FALSE(ann->inbox().disconnected);
  EXPECT_EQ(echoes_seen, echo_sent_at.size());
  // The request and the reply each wait for a service or two: 2-3 steps without the flood.
  EXPECT_LE(worst_round_trip, Micros(5'000));
  EXPECT_GE(stats.datagrams_filtered, sent * 9 / 10);
  EXPECT_TRUE(sim::SamePhysics(rig->server().world()[0].state, testing::Replay(start, driver.sent())));
}

}  // namespace
}  // namespace netcube::hostile
