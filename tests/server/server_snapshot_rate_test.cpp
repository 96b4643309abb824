// Snapshot rates: each client gets snapshots at the rate it asked for (SnapshotRate), at most the tick
// rate, and one that never asked gets the server's.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <set>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "netcube/server/server.h"
#include "support/loopback_rig.h"

namespace netcube::server {
namespace {

using testing::LoopbackRig;
using testing::TestClient;

TEST(ServerSnapshotRate, EachClientGetsTheRateItAskedForUpToTheTickRate) {
  ServerConfig config;  // 60 ticks and 20 snapshots a second
  std::string error;
  auto rig = LoopbackRig::Create(config, &error);
  ASSERT_NE(rig, nullptr) << error;
  struct Asker {
    const char* name;
    int asked;  // 0: never asks
    int expected_rate;
  };
  constexpr std::array<Asker, 4> kAskers = {
      {{"steady", 0, 20}, {"eager", 60, 60}, {"greedy", 240, 60}, {"frugal", 5, 5}}};
  std::vector<TestClient*> clients;
  for (const Asker& asker : kAskers) {
    clients.push_back(rig->Join(asker.name));
    ASSERT_NE(clients.back(), nullptr);
    if (asker.asked > 0) {
      ASSERT_TRUE(
          clients.back()->Send(rig->now(), protocol::SnapshotRate{static_cast<std::uint8_t>(asker.asked)}));
    }
  }
  rig->StepFor(std::chrono::seconds(1));  // the requests arrive

  std::vector<std::size_t> before;
  for (TestClient* client : clients) before.push_back(client->inbox().snapshots);
  constexpr int kSeconds = 3;
  rig->StepFor(std::chrono::seconds(kSeconds));

  const std::vector<ClientInfo> infos = rig->server().clients();
  ASSERT_EQ(infos.size(), kAskers.size());
  for (std::size_t i = 0; i < kAskers.size(); ++i) {
    SCOPED_TRACE(kAskers[i].name);
    const auto received = static_cast<int>(clients[i]->inbox().snapshots - before[i]);
    EXPECT_NEAR(received, kAskers[i].expected_rate * kSeconds, 2);
    EXPECT_EQ(infos[i].snapshot_rate, kAskers[i].expected_rate);
    EXPECT_EQ(infos[i].own_snapshot_rate, kAskers[i].asked > 0);
  }
  EXPECT_EQ(rig->server().stats().packets_malformed, 0u);
}

TEST(ServerSnapshotRate, ARequestOutOfTurnOrOnTheWrongChannelChangesNothing) {
  std::string error;
  auto rig = LoopbackRig::Create({}, &error);
  ASSERT_NE(rig, nullptr) << error;
  TestClient* ann = rig->Join("ann");
  TestClient* early = rig->AddClient();
  ASSERT_TRUE(ann && early);
  ASSERT_TRUE(rig->StepUntil([&] { return early->inbox().connected; }));

  // Not a player yet: its first reliable message must be a ConnectRequest.
  early->Send(rig->now(), protocol::SnapshotRate{60});
  ASSERT_TRUE(rig->StepUntil([&] { return early->inbox().refused.has_value(); }));
  EXPECT_EQ(early->inbox().refused->reason, protocol::RefuseReason::kMalformedRequest);

  // A player's request on the unreliable channel is dropped and counted.
  std::array<std::uint8_t, protocol::kMaxPacketBytes> bytes{};
  const std::size_t size = protocol::Encode(protocol::SnapshotRate{60}, bytes);
  ann->SendRaw(rig->now(), protocol::Channel::kUnreliable, std::span(bytes.data(), size));
  ASSERT_TRUE(rig->StepUntil([&] { return rig->server().stats().packets_malformed == 2; }));
  EXPECT_EQ(rig->server().clients()[0].snapshot_rate, 20);
  EXPECT_FALSE(rig->server().clients()[0].own_snapshot_rate);
}

}  // namespace
}  // namespace netcube::server

namespace netcube::server {
namespace {

TEST(ServerSnapshotRate, TheOperatorsCapHoldsWhateverAClientAsksAndTheWelcomeSaysIt) {
  ServerConfig config;  // 60 ticks and 20 snapshots a second
  config.max_snapshot_rate = 30;
  std::string error;
  auto rig = testing::LoopbackRig::Create(config, &error);
  ASSERT_NE(rig, nullptr) << error;
  testing::TestClient* greedy = rig->Join("greedy");
  ASSERT_NE(greedy, nullptr);
  EXPECT_EQ(greedy->inbox().welcome->max_snapshot_rate, 30);
  EXPECT_EQ(greedy->inbox().welcome->snapshot_rate, 20);
  ASSERT_TRUE(greedy->Send(rig->now(), protocol::SnapshotRate{60}));
  rig->StepFor(std::chrono::seconds(1));
  const std::size_t before = greedy->inbox().snapshots;
  rig->StepFor(std::chrono::seconds(3));
  EXPECT_NEAR(static_cast<int>(greedy->inbox().snapshots - before), 30 * 3, 2);
  EXPECT_EQ(rig->server().clients()[0].snapshot_rate, 30);
  EXPECT_FALSE(rig->server().SetSnapshotRate(40));  // the server's own rate stays within the cap
  EXPECT_TRUE(rig->server().SetSnapshotRate(30));
}

constexpr int kWatched = 10;  // snapshots a second, a spectator's

// A raw client seated as a spectator, welcomed; null if it is not within 2 s.
testing::TestClient* Watch(testing::LoopbackRig& rig) {
  testing::TestClient* watcher = rig.AddClient();
  if (watcher == nullptr ||
      !rig.StepUntil([&] { return watcher->inbox().connected; }, std::chrono::seconds(2)))
    return nullptr;
  watcher->Send(rig.now(), protocol::ConnectRequest{protocol::kProtocolMagic, protocol::kProtocolVersion,
                                                    "watcher", true});
  const bool welcomed =
      rig.StepUntil([&] { return watcher->inbox().welcome.has_value(); }, std::chrono::seconds(2));
  return welcomed ? watcher : nullptr;
}

// A spectator gets the spectators' rate (here half a player's) and no more, whatever it asks; less when it
// asks for less; a player beside it gets the server's.
TEST(ServerSnapshotRate, ASpectatorGetsTheSpectatorsRateAtMost) {
  ServerConfig config;  // 60 ticks and 20 snapshots a second
  config.max_snapshot_rate = 30;
  config.spectator_snapshot_rate = kWatched;
  config.peer_timeout_ms = 60'000;  // the raw clients send nothing they need not
  std::string error;
  auto rig = testing::LoopbackRig::Create(config, &error);
  ASSERT_NE(rig, nullptr) << error;
  testing::TestClient* player = rig->Join("player");
  ASSERT_NE(player, nullptr);
  testing::TestClient* watcher = Watch(*rig);
  ASSERT_NE(watcher, nullptr);
  const protocol::Welcome& welcome = *watcher->inbox().welcome;
  EXPECT_TRUE(welcome.spectator);
  EXPECT_EQ(welcome.snapshot_rate, kWatched);
  EXPECT_EQ(welcome.max_snapshot_rate, kWatched);
  EXPECT_EQ(player->inbox().welcome->snapshot_rate, 20);
  EXPECT_EQ(player->inbox().welcome->max_snapshot_rate, 30);

  const auto received_in = [&](int seconds) {
    rig->StepFor(std::chrono::seconds(1));  // any request arrives
    const std::size_t watched = watcher->inbox().snapshots;
    const std::size_t played = player->inbox().snapshots;
    rig->StepFor(std::chrono::seconds(seconds));
    return std::pair{static_cast<int>(watcher->inbox().snapshots - watched),
                     static_cast<int>(player->inbox().snapshots - played)};
  };
  // Every client shares each snapshot here (no interest management): the spectator's are some of the
  // player's, every other one, not snapshots of ticks of their own.
  std::set<std::uint32_t> watched_ticks;
  std::set<std::uint32_t> played_ticks;
  const auto file_ticks = [&] {
    if (watcher->inbox().last_snapshot) watched_ticks.insert(watcher->inbox().last_snapshot->server_tick);
    if (player->inbox().last_snapshot) played_ticks.insert(player->inbox().last_snapshot->server_tick);
  };
  rig->StepFor(std::chrono::seconds(1), file_ticks);
  EXPECT_NEAR(static_cast<int>(watched_ticks.size()), kWatched, 2);
  EXPECT_TRUE(
      std::includes(played_ticks.begin(), played_ticks.end(), watched_ticks.begin(), watched_ticks.end()));
  auto [watched, played] = received_in(3);
  EXPECT_NEAR(watched, kWatched * 3, 2);
  EXPECT_NEAR(played, 20 * 3, 2);
  ASSERT_TRUE(watcher->Send(rig->now(), protocol::SnapshotRate{60}));
  std::tie(watched, played) = received_in(3);
  EXPECT_NEAR(watched, kWatched * 3, 2) << "capped";
  ASSERT_TRUE(watcher->Send(rig->now(), protocol::SnapshotRate{5}));
  std::tie(watched, played) = received_in(3);
  EXPECT_NEAR(watched, 5 * 3, 2);
  EXPECT_EQ(rig->server().stats().packets_malformed, 0u);
}

// By default a spectator gets what a player does; an operator may give spectators less, or let them ask
// for more than the server's own rate (up to the cap).
TEST(ServerSnapshotRate, TheSpectatorsRateIsTheOperators) {
  ServerConfig config;
  std::string error;
  {
    auto rig = testing::LoopbackRig::Create(config, &error);
    ASSERT_NE(rig, nullptr) << error;
    testing::TestClient* watcher = Watch(*rig);
    ASSERT_NE(watcher, nullptr);
    EXPECT_EQ(watcher->inbox().welcome->snapshot_rate, 20);
    EXPECT_EQ(watcher->inbox().welcome->max_snapshot_rate, 60) << "the tick rate";
  }
  config.spectator_snapshot_rate = 0;
  EXPECT_EQ(Server::Create(config, Micros(0), &error), nullptr);
  EXPECT_EQ(error, "spectator snapshot rate must be in [1, 240]");

  config.spectator_snapshot_rate = 40;
  config.max_snapshot_rate = 30;
  auto rig = testing::LoopbackRig::Create(config, &error);
  ASSERT_NE(rig, nullptr) << error;
  testing::TestClient* watcher = Watch(*rig);
  ASSERT_NE(watcher, nullptr);
  EXPECT_EQ(watcher->inbox().welcome->snapshot_rate, 20) << "the server's, below the spectators' cap";
  EXPECT_EQ(watcher->inbox().welcome->max_snapshot_rate, 30) << "the operator's cap, below theirs";
}

TEST(ServerSnapshotRate, ACapBelowTheServersOwnRateIsRefused) {
  ServerConfig config;
  config.snapshot_rate = 30;
  config.max_snapshot_rate = 20;
  std::string error;
  EXPECT_EQ(Server::Create(config, Micros(0), &error), nullptr);
  EXPECT_EQ(error, "max snapshot rate must be in [snapshot rate, 240]");
}

}  // namespace
}  // namespace netcube::server
