// The responder and the browser over real loopback sockets: what a reply says, the padding rule on the
// wire, malformed queries, the rate limit; then the executables' discovery flags and --find.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "netcube/discovery/browser.h"
#include "netcube/discovery/responder.h"
#include "netcube/transport/udp_socket.h"
#include "support/command.h"

namespace netcube::discovery {
namespace {

using transport::ParseIpv4;
using transport::UdpEndpoint;
using transport::UdpSocket;
using Clock = std::chrono::steady_clock;
constexpr std::chrono::seconds kDeadline{10};  // generous: a loaded machine, ASan

protocol::DiscoveryReply Info(const std::string& name) {
  protocol::DiscoveryReply info;
  info.port = 7777;
  info.players = 3;
  info.max_players = 16;
  info.tick_rate = 30;
  info.snapshot_rate = 10;
  info.name = name;
  return info;
}

ResponderConfig LoopbackResponder() {
  ResponderConfig config;
  config.bind_address = "127.0.0.1";
  config.port = 0;
  config.multicast = false;
  return config;
}

// Calls `step` until `done` holds or the deadline passes; true if it held.
bool PumpUntil(const std::function<void()>& step, const std::function<bool()>& done) {
  const auto deadline = Clock::now() + kDeadline;
  while (!done()) {
    if (Clock::now() >= deadline) return false;
    step();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// A raw UDP socket on its own loopback source address, for hand-made datagrams.
UdpSocket RawSocket(const std::string& address) {
  std::string error;
  std::optional<UdpSocket> socket = UdpSocket::Open({address, 0, false, false}, &error);
  EXPECT_TRUE(socket.has_value()) << error;
  return std::move(*socket);
}

std::array<std::uint8_t, protocol::kDiscoveryQueryBytes> Query(std::uint32_t client_time_us) {
  std::array<std::uint8_t, protocol::kDiscoveryQueryBytes> bytes{};
  protocol::EncodeDiscoveryQuery({protocol::kProtocolVersion, client_time_us}, bytes);
  return bytes;
}

TEST(Discovery, BrowserHearsTheResponderWithEveryField) {
  std::string error;
  auto responder = Responder::Open(LoopbackResponder(), &error);
  ASSERT_NE(responder, nullptr) << error;
  BrowserConfig browser_config;
  browser_config.port = responder->port();
  browser_config.targets = {"127.0.0.1"};
  auto browser = Browser::Open(browser_config, &error);
  ASSERT_NE(browser, nullptr) << error;

  const auto start = Clock::now();
  const auto now = [&] { return std::chrono::duration_cast<Micros>(Clock::now() - start); };
  ASSERT_TRUE(PumpUntil(
      [&] {
        browser->Service(now());
        responder->Service(now(), Info("loopback arena"));
      },
      [&] { return !browser->servers().empty(); }));

  const FoundServer& found = browser->servers().front();
  EXPECT_EQ(found.address, "127.0.0.1");
  EXPECT_EQ(found.port, 7777);
  EXPECT_EQ(found.reply.name, "loopback arena");
  EXPECT_EQ(found.reply.players, 3);
  EXPECT_EQ(found.reply.max_players, 16);
  EXPECT_EQ(found.reply.tick_rate, 30);
  EXPECT_EQ(found.reply.snapshot_rate, 10);
  EXPECT_TRUE(found.compatible());
  EXPECT_GE(found.round_trip, Micros{0});
  EXPECT_LT(found.round_trip, std::chrono::duration_cast<Micros>(kDeadline));
  EXPECT_EQ(browser->counters().queries_sent, 1U);
  EXPECT_EQ(browser->counters().replies_received, 1U);
  EXPECT_EQ(responder->counters().queries_answered, 1U);
  EXPECT_EQ(responder->counters().queries_malformed, 0U);

  // A server bound to one address names it; the browser connects there, not to the reply's source.
  protocol::DiscoveryReply named = Info("named");
  named.address = 0x0A000005;  // 10.0.0.5
  const Micros later = now() + browser_config.query_interval;
  ASSERT_TRUE(PumpUntil(
      [&] {
        browser->Service(later);
        responder->Service(later, named);
      },
      [&] { return browser->servers().size() == 2; }));
  EXPECT_EQ(browser->servers().back().address, "10.0.0.5");
  EXPECT_EQ(browser->servers().back().reply.name, "named");

  // Silent servers leave the list.
  browser->Service(later + browser_config.forget_after + Micros{1});
  EXPECT_TRUE(browser->servers().empty());
}

// Over the wire, the longest reply a query can draw is no larger than the query itself.
TEST(Discovery, ReplyIsNeverLargerThanTheQuery) {
  std::string error;
  auto responder = Responder::Open(LoopbackResponder(), &error);
  ASSERT_NE(responder, nullptr) << error;
  UdpSocket peer = RawSocket("127.0.0.2");
  const UdpEndpoint to{*ParseIpv4("127.0.0.1"), responder->port()};
  ASSERT_TRUE(peer.SendTo(to, Query(42)));
  std::array<std::uint8_t, 512> reply{};
  UdpEndpoint from;
  std::optional<std::size_t> length;
  ASSERT_TRUE(PumpUntil(
      [&] { responder->Service(Micros{0}, Info(std::string(protocol::kMaxServerNameLength, 'W'))); },
      [&] { return (length = peer.Receive(reply, from)).has_value(); }));
  EXPECT_EQ(*length, protocol::kDiscoveryQueryBytes);
  EXPECT_EQ(responder->counters().bytes_sent, responder->counters().bytes_received);
  protocol::DiscoveryReply decoded;
  ASSERT_EQ(protocol::DecodeDiscoveryReply(std::span(reply.data(), *length), decoded),
            protocol::DecodeError::kNone);
  EXPECT_EQ(decoded.client_time_us, 42U);
}

TEST(Discovery, MalformedQueriesAreDroppedAndCounted) {
  std::string error;
  auto responder = Responder::Open(LoopbackResponder(), &error);
  ASSERT_NE(responder, nullptr) << error;
  UdpSocket hostile = RawSocket("127.0.0.3");
  const UdpEndpoint to{*ParseIpv4("127.0.0.1"), responder->port()};
  const auto query = Query(1);
  std::vector<std::vector<std::uint8_t>> bad = {
      std::vector<std::uint8_t>(query.begin(), query.begin() + 10),  // unpadded: would amplify
      std::vector<std::uint8_t>(1400, 0xAB),                         // oversized garbage
  };
  auto dirty = std::vector<std::uint8_t>(query.begin(), query.end());
  dirty.back() = 0xFF;  // non-zero padding
  bad.push_back(dirty);
  protocol::DiscoveryReply reply_bytes = Info("not a query");
  std::vector<std::uint8_t> reply(protocol::kDiscoveryQueryBytes);
  reply.resize(protocol::EncodeDiscoveryReply(reply_bytes, reply));  // a reply sent to a responder
  bad.push_back(reply);
  for (const auto& datagram : bad) ASSERT_TRUE(hostile.SendTo(to, datagram));

  ASSERT_TRUE(PumpUntil([&] { responder->Service(Micros{0}, Info("arena")); },
                        [&] { return responder->counters().queries_malformed == bad.size(); }));
  EXPECT_EQ(responder->counters().queries_answered, 0U);
  // Then a good query from the same source is still answered, and nothing else came back.
  ASSERT_TRUE(hostile.SendTo(to, query));
  std::array<std::uint8_t, 512> in{};
  UdpEndpoint from;
  std::optional<std::size_t> length;
  ASSERT_TRUE(PumpUntil([&] { responder->Service(Micros{0}, Info("arena")); },
                        [&] { return (length = hostile.Receive(in, from)).has_value(); }));
  protocol::DiscoveryReply decoded;
  ASSERT_EQ(protocol::DecodeDiscoveryReply(std::span(in.data(), *length), decoded),
            protocol::DecodeError::kNone);
  EXPECT_EQ(decoded.client_time_us, 1U);
  EXPECT_FALSE(hostile.Receive(in, from).has_value());
  EXPECT_EQ(responder->counters().queries_malformed, bad.size());
}

TEST(Discovery, RepliesAreRateLimited) {
  ResponderConfig config = LoopbackResponder();
  config.burst = 5;
  config.replies_per_second = 10;
  config.burst_per_source = 100;  // this test is about the bucket of all sources
  std::string error;
  auto responder = Responder::Open(config, &error);
  ASSERT_NE(responder, nullptr) << error;
  UdpSocket flooder = RawSocket("127.0.0.4");
  const UdpEndpoint to{*ParseIpv4("127.0.0.1"), responder->port()};
  const auto total = [&] {
    return responder->counters().queries_answered + responder->counters().queries_rate_limited;
  };

  // 20 queries at one instant: the burst is answered, the rest dropped.
  for (std::uint32_t i = 0; i < 20; ++i) ASSERT_TRUE(flooder.SendTo(to, Query(i)));
  ASSERT_TRUE(
      PumpUntil([&] { responder->Service(Micros{0}, Info("arena")); }, [&] { return total() == 20; }));
  EXPECT_EQ(responder->counters().queries_answered, 5U);
  EXPECT_EQ(responder->counters().queries_rate_limited, 15U);

  // Half a second later the bucket has refilled by 5. The flooder's /24 is no longer quiet: it may spend
  // what is above half the burst (2), a quiet source of another /24 the rest (3).
  for (std::uint32_t i = 0; i < 20; ++i) ASSERT_TRUE(flooder.SendTo(to, Query(i)));
  ASSERT_TRUE(
      PumpUntil([&] { responder->Service(Micros{500'000}, Info("arena")); }, [&] { return total() == 40; }));
  EXPECT_EQ(responder->counters().queries_answered, 7U);
  UdpSocket quiet = RawSocket("127.0.1.4");
  for (std::uint32_t i = 0; i < 20; ++i) ASSERT_TRUE(quiet.SendTo(to, Query(i)));
  ASSERT_TRUE(
      PumpUntil([&] { responder->Service(Micros{500'000}, Info("arena")); }, [&] { return total() == 60; }));
  EXPECT_EQ(responder->counters().queries_answered, 10U);
  EXPECT_EQ(responder->counters().queries_rate_limited, 50U);
}

TEST(Discovery, OneNoisyHostCannotSpendEveryonesReplies) {
  std::string error;
  auto responder = Responder::Open(LoopbackResponder(), &error);
  ASSERT_NE(responder, nullptr) << error;
  const ResponderConfig defaults;
  UdpSocket noisy = RawSocket("127.0.0.4");
  UdpSocket honest = RawSocket("127.0.0.5");
  const UdpEndpoint to{*ParseIpv4("127.0.0.1"), responder->port()};
  const auto total = [&] {
    return responder->counters().queries_answered + responder->counters().queries_rate_limited;
  };

  // More queries at one instant than the bucket of all sources holds, then one from another host.
  const auto flood = static_cast<std::uint32_t>(defaults.burst) * 2;
  for (std::uint32_t i = 0; i < flood; ++i) ASSERT_TRUE(noisy.SendTo(to, Query(i)));
  ASSERT_TRUE(
      PumpUntil([&] { responder->Service(Micros{0}, Info("arena")); }, [&] { return total() == flood; }));
  ASSERT_TRUE(honest.SendTo(to, Query(7)));
  ASSERT_TRUE(
      PumpUntil([&] { responder->Service(Micros{0}, Info("arena")); }, [&] { return total() == flood + 1; }));

  EXPECT_EQ(responder->counters().queries_answered,
            static_cast<std::uint64_t>(defaults.burst_per_source) + 1);
  std::array<std::uint8_t, protocol::kDiscoveryQueryBytes> in{};
  UdpEndpoint from;
  ASSERT_TRUE(PumpUntil([] {}, [&] { return honest.Receive(in, from).has_value(); }));
  EXPECT_EQ(from, to);
}

struct FloodRun {
  int answered = 0;           // of kFloodQueries, the browser's
  std::uint64_t replies = 0;  // to everyone, while the browser asked
  double reflection = 0.0;    // bytes sent / received meanwhile
  double service_ms = 0.0;    // the responder's, all of it
};
constexpr int kFloodQueries = 8;

// A flood of queries from `sources` sources (forged, on a real LAN: they never read a reply; here each
// binds its own 127.0.x.y, 200 to a /24) at `per_ms` a millisecond, while a browser (127.0.0.5) asks once a
// second, as browsers do, kFloodQueries times. On the virtual clock the responder is given, so the rates
// are exact whatever the machine's load.
FloodRun RunFlood(int sources, int per_ms, bool answered_before) {
  std::string error;
  auto responder = Responder::Open(LoopbackResponder(), &error);
  EXPECT_NE(responder, nullptr) << error;
  if (responder == nullptr) return {};
  const UdpEndpoint to{*ParseIpv4("127.0.0.1"), responder->port()};
  std::vector<UdpSocket> flood;
  for (int i = 0; i < sources; ++i) {
    flood.push_back(RawSocket("127.0." + std::to_string(2 + i / 200) + "." + std::to_string(1 + i % 200)));
  }
  UdpSocket browser = RawSocket("127.0.0.5");
  std::array<std::uint8_t, 512> in{};
  UdpEndpoint from;
  FloodRun run;
  Micros now{0};
  const auto service = [&] {
    const auto start = Clock::now();
    responder->Service(now, Info("arena"));
    run.service_ms += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  };
  const auto ask = [&] { EXPECT_TRUE(browser.SendTo(to, Query(static_cast<std::uint32_t>(now.count())))); };
  // One step of a millisecond: `per_ms` queries from the next flooding sources, then the browser's if it
  // asks (last in the queue: the flood's are served first), the responder serviced, and whatever came back
  // to the browser counted.
  std::size_t next_source = 0;
  const auto step = [&](bool browser_asks) {
    now += Micros{1000};
    for (int i = 0; i < per_ms; ++i) {
      flood[next_source].SendTo(to, Query(1));
      next_source = (next_source + 1) % flood.size();
    }
    if (browser_asks) ask();
    service();
    while (browser.Receive(in, from).has_value()) ++run.answered;
  };
  if (answered_before) {  // as a browser on the LAN would have been
    ask();
    EXPECT_TRUE(PumpUntil(service, [&] { return browser.Receive(in, from).has_value(); }));
  }
  for (int i = 0; i < 1000; ++i) step(false);  // the flood at full strength
  const ResponderCounters before = responder->counters();
  for (int q = 0; q < kFloodQueries; ++q) {
    for (int i = 0; i < 1000; ++i) step(i == 0);
  }
  // The last replies may still be in the socket's buffer.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  while (browser.Receive(in, from).has_value()) ++run.answered;
  const ResponderCounters& after = responder->counters();
  run.replies = after.queries_answered - before.queries_answered;
  run.reflection = static_cast<double>(after.bytes_sent - before.bytes_sent) /
                   static_cast<double>(after.bytes_received - before.bytes_received);
  std::printf(
      "queries from %d sources at %d/s, the browser %s: answered %d of %d times; %llu replies in %d s, "
      "reflection %.4fx; the responder's service %.0f ms\n",
      sources, per_ms * 1000, answered_before ? "answered before" : "new", run.answered, kFloodQueries,
      static_cast<unsigned long long>(run.replies), kFloodQueries, run.reflection, run.service_ms);
  return run;
}

// The flood draws no more replies than the budget of all sources allows.
void ExpectWithinTheBudget(const FloodRun& run) {
  const ResponderConfig defaults;
  EXPECT_LE(run.replies,
            static_cast<std::uint64_t>(defaults.replies_per_second * kFloodQueries + defaults.burst));
}

// The flood may spend the replies of sources that ask faster than browsers do, not those of a browser
// that asks as browsers do: one already answered, and one that first asks during the flood, at the
// flood of issue 44 (400 sources, 1,000 a second) and at ten times it.
TEST(Discovery, AFloodFromManySourcesCannotSilenceABrowserAlreadyAnswered) {
  const FloodRun run = RunFlood(400, 1, /*answered_before=*/true);
  EXPECT_GE(run.answered, kFloodQueries / 2 + 2);  // at least half, with room to spare
  ExpectWithinTheBudget(run);
}

TEST(Discovery, AFloodFromManySourcesCannotSilenceABrowserThatFirstAsksDuringIt) {
  for (const int scale : {1, 10}) {
    const FloodRun run = RunFlood(400 * scale, scale, /*answered_before=*/false);
    EXPECT_GE(run.answered, kFloodQueries / 2 + 2) << scale << "x";
    ExpectWithinTheBudget(run);
  }
}

TEST(Discovery, BrowserKeepsOnlyAnswersToItsOwnQueries) {
  BrowserConfig browser_config;
  browser_config.port = 9;  // nothing answers there: the test plays the server
  browser_config.targets = {"127.0.0.1"};
  std::string error;
  auto browser = Browser::Open(browser_config, &error);
  ASSERT_NE(browser, nullptr) << error;
  browser->Service(Micros{1000});  // its query carries client_time_us 1000
  UdpSocket server = RawSocket("127.0.0.5");
  const UdpEndpoint to{*ParseIpv4("127.0.0.1"), browser->port()};
  std::vector<std::uint8_t> bytes(protocol::kDiscoveryQueryBytes);
  protocol::DiscoveryReply forged = Info("forged");
  forged.client_time_us = 999;  // no query of the browser's
  bytes.resize(protocol::EncodeDiscoveryReply(forged, bytes));
  ASSERT_TRUE(server.SendTo(to, bytes));
  ASSERT_TRUE(server.SendTo(to, std::vector<std::uint8_t>{1, 2, 3}));  // garbage
  protocol::DiscoveryReply answer = Info("real");
  answer.client_time_us = 1000;
  bytes.assign(protocol::kDiscoveryQueryBytes, 0);
  bytes.resize(protocol::EncodeDiscoveryReply(answer, bytes));
  ASSERT_TRUE(server.SendTo(to, bytes));

  ASSERT_TRUE(PumpUntil(
      [&] { browser->Service(Micros{3500}); },
      [&] { return browser->counters().replies_received + browser->counters().replies_dropped == 3; }));
  ASSERT_EQ(browser->servers().size(), 1U);
  EXPECT_EQ(browser->servers().front().reply.name, "real");
  EXPECT_EQ(browser->servers().front().address, "127.0.0.5");
  EXPECT_EQ(browser->servers().front().round_trip, Micros{2500});
  EXPECT_EQ(browser->counters().replies_dropped, 2U);
}

}  // namespace
}  // namespace netcube::discovery
