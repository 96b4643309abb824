#include "netcube/transport/link_conditioner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <span>

namespace netcube::transport {
namespace {

using namespace std::chrono_literals;

constexpr int kPackets = 20'000;
constexpr Micros kPushInterval = 1ms;
constexpr Micros kPollInterval = 100us;  // the resolution of every measured delivery time

ConditionedPacket Numbered(std::uint32_t number, std::uint32_t peer = 0, bool reliable = false) {
  ConditionedPacket packet;
  packet.peer = peer;
  packet.channel = reliable ? 0 : 1;
  packet.reliable = reliable;
  packet.data.resize(sizeof number);
  std::memcpy(packet.data.data(), &number, sizeof number);
  return packet;
}

void Push(LinkConditioner& conditioner, Micros now, const ConditionedPacket& packet) {
  conditioner.Push(now, packet.peer, packet.channel, packet.reliable, packet.data);
}

// Appends copies: the conditioner's own buffers are reused after the next Poll.
void Poll(LinkConditioner& conditioner, Micros now, std::vector<ConditionedPacket>& out) {
  conditioner.Poll(now, [&out](const ConditionedPacket& packet) { out.push_back(packet); });
}

std::uint32_t NumberOf(const ConditionedPacket& packet) {
  std::uint32_t number = 0;
  std::memcpy(&number, packet.data.data(), sizeof number);
  return number;
}

struct Delivery {
  std::uint32_t number = 0;
  std::uint32_t peer = 0;
  Micros pushed_at{0};
  Micros delivered_at{0};
  friend bool operator==(const Delivery&, const Delivery&) = default;
};

// Pushes `count` numbered packets, one every kPushInterval, spread round-robin over `peers`; `reliable`
// picks which are reliable. Polls every kPollInterval until nothing is left in flight.
template <class IsReliable>
std::vector<Delivery> RunTraffic(LinkConditioner& conditioner, int count, std::uint32_t peers,
                                 IsReliable reliable) {
  std::vector<Delivery> deliveries;
  std::vector<ConditionedPacket> due;
  const Micros push_end = kPushInterval * count;
  for (Micros now{0}; now < push_end || conditioner.in_flight() > 0; now += kPollInterval) {
    if (now < push_end && now % kPushInterval == Micros{0}) {
      const auto number = static_cast<std::uint32_t>(now / kPushInterval);
      Push(conditioner, now, Numbered(number, number % peers, reliable(number)));
    }
    due.clear();
    Poll(conditioner, now, due);
    for (const ConditionedPacket& packet : due) {
      const std::uint32_t number = NumberOf(packet);
      deliveries.push_back({number, packet.peer, kPushInterval * number, now});
    }
  }
  return deliveries;
}

std::vector<Delivery> RunUnreliable(LinkConditioner& conditioner, int count = kPackets) {
  return RunTraffic(conditioner, count, 1, [](std::uint32_t) { return false; });
}

double DelayMs(const Delivery& d) {
  return std::chrono::duration<double, std::milli>(d.delivered_at - d.pushed_at).count();
}

int CountOutOfOrder(const std::vector<Delivery>& deliveries) {
  int out_of_order = 0;
  for (std::size_t i = 1; i < deliveries.size(); ++i) {
    if (deliveries[i].number < deliveries[i - 1].number) ++out_of_order;
  }
  return out_of_order;
}

TEST(LinkConditioner, ZeroSettingsChangeNothing) {
  LinkConditioner conditioner(7);
  std::vector<ConditionedPacket> pushed;
  for (std::uint32_t i = 0; i < 200; ++i) {
    ConditionedPacket packet;
    packet.peer = i % 3;
    packet.channel = static_cast<std::uint8_t>(i % 2);
    packet.reliable = i % 5 == 0;
    packet.data.assign(i % 17, static_cast<std::uint8_t>(i * 31));
    pushed.push_back(packet);
  }
  const Micros now = 123'456us;
  for (const ConditionedPacket& packet : pushed) Push(conditioner, now, packet);

  std::vector<ConditionedPacket> out;
  Poll(conditioner, now, out);
  ASSERT_EQ(out.size(), pushed.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i].peer, pushed[i].peer) << i;
    EXPECT_EQ(out[i].channel, pushed[i].channel) << i;
    EXPECT_EQ(out[i].reliable, pushed[i].reliable) << i;
    EXPECT_EQ(out[i].data, pushed[i].data) << i;
  }
  EXPECT_EQ(conditioner.in_flight(), 0U);
  EXPECT_EQ(conditioner.counters().pushed, pushed.size());
  EXPECT_EQ(conditioner.counters().delivered, pushed.size());
  EXPECT_EQ(
      conditioner.counters().dropped + conditioner.counters().duplicated + conditioner.counters().reordered,
      0U);
}

TEST(LinkConditioner, ZeroSettingsDeliverEveryPacketAtItsPushTime) {
  LinkConditioner conditioner(7);
  const std::vector<Delivery> deliveries = RunUnreliable(conditioner, 1000);
  ASSERT_EQ(deliveries.size(), 1000U);
  for (std::size_t i = 0; i < deliveries.size(); ++i) {
    EXPECT_EQ(deliveries[i].number, i);
    EXPECT_EQ(deliveries[i].delivered_at, deliveries[i].pushed_at);
  }
}

TEST(LinkConditioner, LossDuplicationAndDelayMatchTheSettings) {
  LinkConditioner conditioner(42);
  conditioner.SetSettings({.latency_ms = 100, .jitter_ms = 20, .loss = 0.1, .duplicate = 0.05});
  const std::vector<Delivery> deliveries = RunUnreliable(conditioner);

  std::map<std::uint32_t, int> copies;
  double delay_sum_ms = 0.0;
  double min_delay_ms = std::numeric_limits<double>::max();
  double max_delay_ms = 0.0;
  for (const Delivery& d : deliveries) {
    ++copies[d.number];
    delay_sum_ms += DelayMs(d);
    min_delay_ms = std::min(min_delay_ms, DelayMs(d));
    max_delay_ms = std::max(max_delay_ms, DelayMs(d));
  }
  const double arrived = static_cast<double>(copies.size()) / kPackets;
  const double duplicated =
      static_cast<double>(deliveries.size() - copies.size()) / static_cast<double>(copies.size());
  const double mean_delay_ms = delay_sum_ms / static_cast<double>(deliveries.size());
  EXPECT_NEAR(arrived, 0.9, 0.01);
  EXPECT_NEAR(duplicated, 0.05, 0.01);
  EXPECT_TRUE(std::all_of(copies.begin(), copies.end(), [](const auto& c) { return c.second <= 2; }));
  EXPECT_NEAR(mean_delay_ms, 100.0, 1.0);
  // Within ± jitter (plus the poll resolution), and actually spread across it.
  EXPECT_GE(min_delay_ms, 80.0);
  EXPECT_LE(max_delay_ms, 120.1);
  EXPECT_LT(min_delay_ms, 81.0);
  EXPECT_GT(max_delay_ms, 119.0);

  const LinkConditionerCounters& counters = conditioner.counters();
  EXPECT_EQ(counters.pushed, static_cast<std::uint64_t>(kPackets));
  EXPECT_EQ(counters.dropped, kPackets - copies.size());
  EXPECT_EQ(counters.duplicated, deliveries.size() - copies.size());
  EXPECT_EQ(counters.delivered, deliveries.size());
  EXPECT_EQ(counters.reordered, 0U);
}

TEST(LinkConditioner, JitterLargerThanLatencyNeverDeliversEarly) {
  LinkConditioner conditioner(3);
  conditioner.SetSettings({.latency_ms = 5, .jitter_ms = 20});
  for (const Delivery& d : RunUnreliable(conditioner, 5000)) {
    ASSERT_GE(d.delivered_at, d.pushed_at);
    ASSERT_LE(DelayMs(d), 25.1);
  }
}

TEST(LinkConditioner, ReorderHoldsPacketsBehindLaterOnes) {
  LinkConditioner conditioner(11);
  conditioner.SetSettings({.latency_ms = 50, .reorder = 0.1});
  const std::vector<Delivery> deliveries = RunUnreliable(conditioner);
  ASSERT_EQ(deliveries.size(), static_cast<std::size_t>(kPackets));

  const double reordered = static_cast<double>(conditioner.counters().reordered) / kPackets;
  EXPECT_NEAR(reordered, 0.1, 0.01);
  int held = 0;
  for (const Delivery& d : deliveries) {
    const double delay_ms = DelayMs(d);
    ASSERT_TRUE(delay_ms == 50.0 || delay_ms == 50.0 + kReorderHoldMs) << delay_ms;
    if (delay_ms > 50.0) ++held;
  }
  EXPECT_EQ(static_cast<std::uint64_t>(held), conditioner.counters().reordered);
  EXPECT_GT(CountOutOfOrder(deliveries), 0);
}

TEST(LinkConditioner, NoJitterAndNoReorderKeepOrder) {
  LinkConditioner conditioner(11);
  conditioner.SetSettings({.latency_ms = 50, .loss = 0.2, .duplicate = 0.2});
  const std::vector<Delivery> deliveries = RunUnreliable(conditioner);
  // What the loss left arrives, once or twice (about 0.8 x 1.2 of what was pushed), each copy 50 ms late.
  const LinkConditionerCounters& counters = conditioner.counters();
  ASSERT_EQ(counters.pushed, static_cast<std::uint64_t>(kPackets));
  ASSERT_EQ(deliveries.size(), counters.pushed - counters.dropped + counters.duplicated);
  EXPECT_NEAR(static_cast<double>(deliveries.size()) / kPackets, 0.8 * 1.2, 0.02);
  for (std::size_t i = 0; i < deliveries.size(); ++i) {
    ASSERT_NEAR(DelayMs(deliveries[i]), 50.0, 0.01) << i;
    if (i > 0) {
      ASSERT_LE(deliveries[i - 1].number, deliveries[i].number) << i;
    }
  }
}

TEST(LinkConditioner, SameSeedSameNetworkDifferentSeedDifferentNetwork) {
  const LinkSettings harsh{.latency_ms = 80, .jitter_ms = 30, .loss = 0.2, .duplicate = 0.1, .reorder = 0.1};
  LinkConditioner a(2024);
  LinkConditioner b(2024);
  LinkConditioner c(2025);
  a.SetSettings(harsh);
  b.SetSettings(harsh);
  c.SetSettings(harsh);
  const std::vector<Delivery> run_a = RunUnreliable(a, 5000);
  const std::vector<Delivery> run_b = RunUnreliable(b, 5000);
  const std::vector<Delivery> run_c = RunUnreliable(c, 5000);
  EXPECT_EQ(run_a, run_b);
  EXPECT_NE(run_a, run_c);
}

// A fingerprint of one schedule, fixed in the source: every compiler and standard library must produce
// the very same network from the same seed.
TEST(LinkConditioner, KnownSeedGivesTheKnownSchedule) {
  LinkConditioner conditioner(12345);
  conditioner.SetSettings({.latency_ms = 80, .jitter_ms = 30, .loss = 0.2, .duplicate = 0.1, .reorder = 0.1});
  std::uint64_t fingerprint = 0xCBF29CE484222325ULL;  // FNV-1a over (number, delivery time)
  for (const Delivery& d : RunUnreliable(conditioner, 2000)) {
    for (const std::uint64_t value :
         {std::uint64_t{d.number}, static_cast<std::uint64_t>(d.delivered_at.count())}) {
      fingerprint = (fingerprint ^ value) * 0x100000001B3ULL;
    }
  }
  EXPECT_EQ(fingerprint, 10688872306942959502ULL);
}

// Comparisons depend on this: a packet's fate depends on the seed and the moment it was pushed, not on
// what else the conditioner carried, so clients with different traffic meet the same network.
TEST(LinkConditioner, SameSeedSameMomentSameFateWhateverElseWasCarried) {
  const LinkSettings harsh{.latency_ms = 80, .jitter_ms = 30, .loss = 0.2, .duplicate = 0.1, .reorder = 0.1};
  LinkConditioner busy(7);
  LinkConditioner sparse(7);
  busy.SetSettings(harsh);
  sparse.SetSettings(harsh);
  std::vector<LinkDecision> busy_log;
  std::vector<LinkDecision> sparse_log;
  busy.SetLog([&](const LinkDecision& d) { busy_log.push_back(d); });
  sparse.SetLog([&](const LinkDecision& d) { sparse_log.push_back(d); });
  std::vector<ConditionedPacket> sink;
  for (std::uint32_t ms = 0; ms < 3000; ++ms) {
    const Micros now = std::chrono::milliseconds(ms);
    // Both carry the same packet every 3 ms; the busy one also carries packets of its own in between, and
    // other peers' and channels' packets at the same moments.
    if (ms % 3 == 0) {
      Push(sparse, now, Numbered(ms, 1));
      Push(busy, now, Numbered(ms, 2, /*reliable=*/true));
      Push(busy, now, Numbered(ms, 1));
    } else {
      Push(busy, now, Numbered(ms, 1));
      Push(busy, now, Numbered(ms, 3));
    }
    Poll(busy, now, sink);
    Poll(sparse, now, sink);
  }
  std::vector<LinkDecision> shared;
  for (const LinkDecision& d : busy_log) {
    if (d.at.count() % 3000 == 0 && !d.reliable) shared.push_back(d);
  }
  ASSERT_EQ(shared.size(), sparse_log.size());
  int drops = 0;
  for (std::size_t i = 0; i < shared.size(); ++i) {
    EXPECT_EQ(shared[i].at, sparse_log[i].at);
    EXPECT_EQ(shared[i].dropped, sparse_log[i].dropped) << i;
    EXPECT_EQ(shared[i].duplicated, sparse_log[i].duplicated) << i;
    EXPECT_EQ(shared[i].reordered, sparse_log[i].reordered) << i;
    EXPECT_EQ(shared[i].delay, sparse_log[i].delay) << i;
    drops += sparse_log[i].dropped ? 1 : 0;
  }
  EXPECT_NEAR(drops, 200, 50);  // 20% of 1000
}

TEST(LinkConditioner, ReliablePacketsAreOnlyDelayed) {
  LinkConditioner conditioner(99);
  conditioner.SetSettings(
      {.latency_ms = 100, .jitter_ms = 50, .loss = 0.5, .duplicate = 0.5, .reorder = 0.5});
  // Every third packet is reliable, spread over three peers; the unreliable ones in between take losses.
  const std::vector<Delivery> deliveries =
      RunTraffic(conditioner, kPackets, 3, [](std::uint32_t number) { return number % 3 != 1; });

  std::map<std::uint32_t, std::vector<const Delivery*>> reliable_by_peer;
  std::set<std::uint32_t> seen;
  for (const Delivery& d : deliveries) {
    if (d.number % 3 == 1) continue;
    EXPECT_TRUE(seen.insert(d.number).second) << "duplicated " << d.number;
    reliable_by_peer[d.peer].push_back(&d);
  }
  const auto expected_reliable =
      static_cast<std::size_t>(kPackets - (kPackets + 1) / 3);  // all but n % 3 == 1
  EXPECT_EQ(seen.size(), expected_reliable);
  for (const auto& [peer, list] : reliable_by_peer) {
    for (std::size_t i = 1; i < list.size(); ++i) {
      ASSERT_LT(list[i - 1]->number, list[i]->number) << "peer " << peer;
      ASSERT_LE(list[i - 1]->delivered_at, list[i]->delivered_at);
    }
    for (const Delivery* d : list) {
      ASSERT_GE(DelayMs(*d), 50.0);
      ASSERT_LE(DelayMs(*d), 150.1);  // FIFO waits only behind earlier packets, themselves within bounds
    }
  }
  // The unreliable third did suffer.
  EXPECT_GT(conditioner.counters().dropped, 0U);
  EXPECT_GT(conditioner.counters().duplicated, 0U);
  EXPECT_GT(conditioner.counters().reordered, 0U);
}

TEST(LinkConditioner, NewSettingsApplyToLaterPacketsOnly) {
  LinkConditioner conditioner(5);
  conditioner.SetSettings({.latency_ms = 100});
  Push(conditioner, 0ms, Numbered(0));
  Push(conditioner, 0ms, Numbered(1, 0, true));
  conditioner.SetSettings({});
  Push(conditioner, 10ms, Numbered(2));
  Push(conditioner, 10ms, Numbered(3, 0, true));

  std::vector<ConditionedPacket> out;
  Poll(conditioner, 10ms, out);
  ASSERT_EQ(out.size(), 1U);  // the unreliable packet overtakes; the reliable one waits its turn
  EXPECT_EQ(NumberOf(out[0]), 2U);
  out.clear();
  Poll(conditioner, 99ms, out);
  EXPECT_TRUE(out.empty());
  Poll(conditioner, 100ms, out);
  ASSERT_EQ(out.size(), 3U);
  EXPECT_EQ(NumberOf(out[0]), 0U);
  EXPECT_EQ(NumberOf(out[1]), 1U);
  EXPECT_EQ(NumberOf(out[2]), 3U);
}

TEST(LinkConditioner, IsActiveWhileItImpairsOrHoldsAnything) {
  LinkConditioner conditioner(3);
  EXPECT_FALSE(conditioner.IsActive());
  for (const LinkSettings settings :
       {LinkSettings{.latency_ms = 1}, LinkSettings{.jitter_ms = 1}, LinkSettings{.loss = 0.1},
        LinkSettings{.duplicate = 0.1}, LinkSettings{.reorder = 0.1}}) {
    conditioner.SetSettings(settings);
    EXPECT_TRUE(conditioner.IsActive());
  }
  conditioner.SetSettings({.latency_ms = 5});
  Push(conditioner, 0ms, Numbered(0));
  conditioner.SetSettings({});
  EXPECT_TRUE(conditioner.IsActive());  // until the packet in flight is out, later ones must queue behind
  std::vector<ConditionedPacket> out;
  Poll(conditioner, 5ms, out);
  EXPECT_EQ(out.size(), 1U);
  EXPECT_FALSE(conditioner.IsActive());
  conditioner.CountPassedThrough();
  EXPECT_EQ(conditioner.counters().pushed, 2U);
  EXPECT_EQ(conditioner.counters().delivered, 2U);
}

TEST(LinkConditioner, DeliveredBytesStayValidUntilTheNextPollAndTheirBuffersAreReused) {
  LinkConditioner conditioner(3);
  conditioner.SetSettings({.latency_ms = 1});
  std::vector<const std::uint8_t*> buffers;
  std::vector<std::uint32_t> numbers;
  for (std::uint32_t round = 0; round < 3; ++round) {
    for (std::uint32_t i = 0; i < 4; ++i) Push(conditioner, Micros(round * 1000), Numbered(round * 4 + i));
    std::vector<std::span<const std::uint8_t>> delivered;
    conditioner.Poll(Micros(round * 1000 + 1000),
                     [&](const ConditionedPacket& p) { delivered.push_back(p.data); });
    // Read after the whole Poll: nothing delivered in it was overwritten.
    for (const std::span<const std::uint8_t> bytes : delivered) {
      std::uint32_t number = 0;
      std::memcpy(&number, bytes.data(), sizeof number);
      numbers.push_back(number);
      if (round == 0) buffers.push_back(bytes.data());
      if (round == 2) {
        EXPECT_NE(std::find(buffers.begin(), buffers.end(), bytes.data()), buffers.end());
      }
    }
  }
  EXPECT_EQ(numbers, (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
}

TEST(LinkConditioner, OutOfRangeSettingsAreClamped) {
  LinkConditioner conditioner(1);
  conditioner.SetSettings({.latency_ms = -5,
                           .jitter_ms = std::numeric_limits<double>::quiet_NaN(),
                           .loss = 2.0,
                           .duplicate = -1.0,
                           .reorder = std::numeric_limits<double>::quiet_NaN()});
  EXPECT_EQ(conditioner.settings(), (LinkSettings{.latency_ms = 0, .jitter_ms = 0, .loss = 1.0}));
  Push(conditioner, 0ms, Numbered(0));
  EXPECT_EQ(conditioner.counters().dropped, 1U);
}

}  // namespace
}  // namespace netcube::transport
