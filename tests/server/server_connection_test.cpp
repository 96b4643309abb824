// Joining, refusals, leaving and timing out, over real loopback sockets on a virtual clock.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "netcube/server/server.h"
#include "support/input_driver.h"
#include "support/loopback_rig.h"
#include "tuning.h"  // the server's limits, which these tests push against

namespace netcube::server {
namespace {

using testing::LoopbackRig;
using testing::TestClient;

std::unique_ptr<LoopbackRig> MakeRig(ServerConfig config = {}) {
  return LoopbackRig::Start(std::move(config));
}

bool Announced(const TestClient& client, sim::PlayerId id, const std::string& name) {
  const auto& joined = client.inbox().joined;
  return std::any_of(joined.begin(), joined.end(),
                     [&](const protocol::JoinedPlayer& j) { return j.player_id == id && j.name == name; });
}

bool Left(const TestClient& client, sim::PlayerId id, protocol::LeaveReason reason) {
  const auto& left = client.inbox().left;
  return std::any_of(left.begin(), left.end(),
                     [&](const protocol::PlayerLeft& l) { return l.player_id == id && l.reason == reason; });
}

TEST(ServerConnection, JoinGetsWelcomeAndEveryoneIsAnnounced) {
  ServerConfig config;
  config.tick_rate = 30;
  config.snapshot_rate = 10;
  config.max_clients = 5;
  config.collisions = false;
  auto rig = MakeRig(config);
  TestClient* ann = rig->Join("ann");
  ASSERT_NE(ann, nullptr);
  TestClient* bob = rig->Join("bob");
  ASSERT_NE(bob, nullptr);

  const protocol::Welcome& welcome = *bob->inbox().welcome;
  EXPECT_EQ(ann->inbox().welcome->player_id, 0);
  EXPECT_EQ(welcome.player_id, 1);
  EXPECT_EQ(welcome.tick_rate, 30);
  EXPECT_EQ(welcome.snapshot_rate, 10);
  EXPECT_EQ(welcome.max_players, 5);
  EXPECT_FALSE(welcome.collisions);
  EXPECT_EQ(welcome.arena, sim::kStandardArena);
  EXPECT_LE(welcome.server_tick, rig->server().tick());

  ASSERT_TRUE(rig->StepUntil([&] {
    return Announced(*bob, 0, "ann") && Announced(*bob, 1, "bob") && Announced(*ann, 1, "bob") &&
           Announced(*ann, 0, "ann");
  }));
  // The Challenge comes first, alone, then (once its nonce is back) the Welcome, then the announcements.
  ASSERT_GE(bob->inbox().types.size(), 2u);
  EXPECT_EQ(bob->inbox().types[0], protocol::MessageType::kChallenge);
  EXPECT_EQ(bob->inbox().types[1], protocol::MessageType::kWelcome);

  const auto world = rig->server().world();
  ASSERT_EQ(world.size(), 2u);
  EXPECT_EQ(world[0].id, 0);
  EXPECT_EQ(world[1].id, 1);
  EXPECT_TRUE(std::abs(world[0].state.x - world[1].state.x) >= sim::kCubeSize ||
              std::abs(world[0].state.y - world[1].state.y) >= sim::kCubeSize);

  const auto clients = rig->server().clients();
  ASSERT_EQ(clients.size(), 2u);
  EXPECT_EQ(clients[0].name, "ann");
  EXPECT_EQ(clients[1].name, "bob");
  EXPECT_FALSE(clients[0].last_processed_seq.has_value());

  // Snapshots: every cube, increasing ids, no ack before any input.
  ASSERT_TRUE(rig->StepUntil([&] { return bob->inbox().snapshots >= 3; }));
  const protocol::Snapshot& snapshot = *bob->inbox().last_snapshot;
  ASSERT_EQ(snapshot.players.size(), 2u);
  EXPECT_EQ(snapshot.players[0].id, 0);
  EXPECT_EQ(snapshot.players[1].id, 1);
  EXPECT_FALSE(snapshot.has_ack);
  EXPECT_EQ(rig->server().stats().clients_peak, 2u);
}

TEST(ServerConnection, ANewcomerLearnsEveryPlayerInAFewMessages) {
  // Everyone present, kMaxJoinedPerMessage players a message in increasing id: 66 players are two
  // messages to the newcomer, where they were 66; everyone else hears of the newcomer alone.
  constexpr int kPresent = static_cast<int>(protocol::kMaxJoinedPerMessage) + 1;
  ServerConfig config;
  config.max_clients = kPresent + 1;
  config.max_per_address = config.max_clients;  // every client from 127.0.0.1
  auto rig = MakeRig(config);
  std::vector<TestClient*> present;
  for (int i = 0; i < kPresent; ++i) {
    present.push_back(rig->Join("p" + std::to_string(i)));
    ASSERT_NE(present.back(), nullptr) << i;
  }
  TestClient* newcomer = rig->Join("newcomer");
  ASSERT_NE(newcomer, nullptr);
  ASSERT_TRUE(rig->StepUntil([&] {
    return newcomer->inbox().joined.size() == kPresent + 1u && Announced(*present[0], kPresent, "newcomer");
  }));
  const auto& types = newcomer->inbox().types;
  EXPECT_EQ(std::count(types.begin(), types.end(), protocol::MessageType::kPlayerJoined), 2);
  for (int id = 0; id <= kPresent; ++id) {
    const protocol::JoinedPlayer& told = newcomer->inbox().joined[static_cast<std::size_t>(id)];
    EXPECT_EQ(told.player_id, id);
    EXPECT_EQ(told.name, id < kPresent ? "p" + std::to_string(id) : "newcomer");
  }
  EXPECT_EQ(present[0]->inbox().joined.size(), kPresent + 1u);  // one a newcomer, itself included
}

// With interest management a client is told of a player when its cube first comes into the client's set,
// and of its leaving only if it was told of it: at a thousand players a join is a few messages, not one
// to every client. 256 x 64 units, a radius of 16, cubes spawned 32 apart: nobody is relevant to anyone.
TEST(ServerConnection, WithInterestAPlayerIsNamedWhenItsCubeComesIntoTheSet) {
  ServerConfig config;
  config.interest = true;
  config.arena = sim::Arena::OfUnits(256, 64);
  config.interest_radius_units = 16;
  config.spawn_spacing_units = 32;
  auto rig = MakeRig(config);
  TestClient* ann = rig->Join("ann");
  TestClient* bob = rig->Join("bob");
  TestClient* cid = rig->Join("cid");
  ASSERT_TRUE(ann && bob && cid);
  rig->StepFor(std::chrono::seconds(1));
  // Each is told of itself alone, with its first snapshot.
  for (TestClient* client : {ann, bob, cid}) {
    ASSERT_EQ(client->inbox().joined.size(), 1u);
    EXPECT_EQ(client->inbox().joined[0].player_id, client->inbox().welcome->player_id);
  }
  const auto x_of = [&](sim::PlayerId id) { return rig->server().world()[id].state.x; };
  ASSERT_EQ(x_of(1) - x_of(0), 32 * sim::kSubUnitsPerUnit) << "bob to the right of ann";

  // Bob drives left, toward ann, until he is in her set: she is told of him, and of nobody else.
  testing::InputDriver driver(*bob, {});
  ASSERT_TRUE(rig->StepUntil(
      [&] {
        driver.Update(rig->now(), [] { return sim::kLeft; });
        return Announced(*ann, 1, "bob");
      },
      std::chrono::seconds(5)));
  EXPECT_LT(x_of(1) - x_of(0), 17 * sim::kSubUnitsPerUnit);
  EXPECT_EQ(ann->inbox().joined.size(), 2u);
  EXPECT_TRUE(Announced(*bob, 0, "ann"));

  // Cid was in neither set: nobody hears that he left. Bob was in ann's: she does.
  cid->Disconnect(rig->now());
  bob->Disconnect(rig->now());
  ASSERT_TRUE(rig->StepUntil([&] { return Left(*ann, 1, protocol::LeaveReason::kDisconnected); }));
  rig->StepFor(std::chrono::milliseconds(500));
  EXPECT_EQ(ann->inbox().left.size(), 1u);
  ASSERT_EQ(rig->server().world().size(), 1u);

  // Dee takes bob's id, far from ann: another player, not named to her. With interest management turned
  // off, every cube goes to everyone, and each is told of every player.
  TestClient* dee = rig->Join("dee");
  ASSERT_NE(dee, nullptr);
  EXPECT_EQ(dee->inbox().welcome->player_id, 1);
  rig->StepFor(std::chrono::seconds(1));
  EXPECT_EQ(ann->inbox().joined.size(), 2u);
  rig->server().SetInterest(false);
  ASSERT_TRUE(rig->StepUntil([&] { return Announced(*ann, 1, "dee") && Announced(*dee, 0, "ann"); }));
}

// For comparisons: every cube starts at the same place and, with collisions off, no cube pushes another.
TEST(ServerConnection, SharedSpawnPutsEveryCubeAtTheSamePlaceAndNobodyIsPushed) {
  ServerConfig config;
  config.collisions = false;
  config.shared_spawn = true;
  auto rig = MakeRig(config);
  TestClient* ann = rig->Join("ann");
  TestClient* bob = rig->Join("bob");
  ASSERT_NE(ann, nullptr);
  ASSERT_NE(bob, nullptr);
  rig->StepFor(std::chrono::milliseconds(500));
  const auto world = rig->server().world();
  ASSERT_EQ(world.size(), 2u);
  EXPECT_TRUE(sim::SamePhysics(world[0].state, world[1].state));
  EXPECT_EQ(world[0].state.x,
            sim::kStandardArena.width / 2 - sim::kStandardArena.width / 32);  // the first spawn slot
}

TEST(ServerConnection, LeavingFreesTheLowestIdForTheNextPlayer) {
  auto rig = MakeRig();
  TestClient* ann = rig->Join("ann");
  TestClient* bob = rig->Join("bob");
  TestClient* cid = rig->Join("cid");
  ASSERT_TRUE(ann && bob && cid);
  bob->Disconnect(rig->now());
  ASSERT_TRUE(rig->StepUntil([&] { return Left(*ann, 1, protocol::LeaveReason::kDisconnected); }));
  EXPECT_TRUE(rig->StepUntil([&] { return Left(*cid, 1, protocol::LeaveReason::kDisconnected); }));
  EXPECT_EQ(rig->server().world().size(), 2u);

  TestClient* dee = rig->Join("dee");
  ASSERT_NE(dee, nullptr);
  EXPECT_EQ(dee->inbox().welcome->player_id, 1);
  EXPECT_EQ(rig->server().stats().clients_peak, 3u);
}

TEST(ServerConnection, WrongVersionIsRefusedBeforeTheDisconnect) {
  // The version before this one (its request not padded) and a future one: both are told why.
  constexpr std::uint16_t kThis = protocol::kProtocolVersion;
  for (const std::uint16_t version : {std::uint16_t(kThis - 1), std::uint16_t(kThis + 1)}) {
    SCOPED_TRACE(version);
    auto rig = MakeRig();
    TestClient* other = rig->AddClient();
    ASSERT_NE(other, nullptr);
    ASSERT_TRUE(rig->StepUntil([&] { return other->inbox().connected; }));
    other->SendConnectRequest(rig->now(), "other", version);
    ASSERT_TRUE(rig->StepUntil([&] { return other->inbox().disconnected; }));

    ASSERT_TRUE(other->inbox().refused.has_value());
    EXPECT_EQ(other->inbox().refused->reason, protocol::RefuseReason::kVersionMismatch);
    EXPECT_EQ(other->inbox().refused->server_version, protocol::kProtocolVersion);
    ASSERT_EQ(other->inbox().messages_before_disconnect, 1u);
    EXPECT_EQ(other->inbox().types.front(), protocol::MessageType::kConnectRefused);
    EXPECT_FALSE(other->inbox().timed_out);
    EXPECT_TRUE(rig->server().clients().empty());
    EXPECT_EQ(rig->server().stats().challenges_sent, 0u);
  }
}

// Until its nonce comes back a peer is sent nothing but its Challenge: no Welcome, no snapshot or delta
// (while a player moves and snapshots flow), and nobody hears of it; it is reset in silence.
TEST(ServerConnection, AChallengedPeerGetsOnlyItsChallengeAndIsResetInSilence) {
  auto rig = MakeRig();
  TestClient* ann = rig->Join("ann");
  ASSERT_NE(ann, nullptr);
  TestClient* mute = rig->AddClient();
  ASSERT_NE(mute, nullptr);
  mute->AnswerChallenges(false);
  ASSERT_TRUE(rig->StepUntil([&] { return mute->inbox().connected; }));
  mute->SendConnectRequest(rig->now(), "mute");
  ASSERT_TRUE(rig->StepUntil([&] { return mute->inbox().challenge.has_value(); }));
  const Micros challenged_at = rig->now();
  sim::Seq seq = 0;
  const auto ann_plays = [&] {
    if (rig->now().count() % 16'000 == 0) {
      protocol::InputMessage input;
      input.inputs.push_back({seq++, sim::kRight});
      ann->Send(rig->now(), input);
    }
  };
  ASSERT_TRUE(
      rig->StepUntil([&] { return rig->server().peer_count() == 1; }, 2 * kPendingTimeout, ann_plays));
  EXPECT_GE(rig->now() - challenged_at, kPendingTimeout);
  EXPECT_EQ(mute->inbox().types, std::vector<protocol::MessageType>{protocol::MessageType::kChallenge});
  EXPECT_FALSE(mute->inbox().disconnected);  // reset: not a word more, not even a goodbye
  const auto& types = ann->inbox().types;
  const auto worlds = std::count(types.begin(), types.end(), protocol::MessageType::kSnapshot) +
                      std::count(types.begin(), types.end(), protocol::MessageType::kDeltaSnapshot);
  EXPECT_GT(worlds, 20);
  EXPECT_EQ(ann->inbox().joined.size(), 1u);  // herself
  const ServerStats stats = rig->server().stats();
  EXPECT_EQ(stats.challenges_sent, 2u);
  EXPECT_EQ(stats.challenges_confirmed, 1u);
  EXPECT_EQ(stats.clients_peak, 1u);
  EXPECT_GE(stats.peers_reset, 1u);
}

TEST(ServerConnection, FullServerRefusesWithServerFullBeforeTheDisconnect) {
  ServerConfig config;
  config.max_clients = 1;
  auto rig = MakeRig(config);
  ASSERT_NE(rig->Join("ann"), nullptr);
  TestClient* late = rig->AddClient();
  ASSERT_NE(late, nullptr);
  ASSERT_TRUE(rig->StepUntil([&] { return late->inbox().connected; }));
  late->SendConnectRequest(rig->now(), "late");
  ASSERT_TRUE(rig->StepUntil([&] { return late->inbox().disconnected; }));

  ASSERT_TRUE(late->inbox().refused.has_value());
  EXPECT_EQ(late->inbox().refused->reason, protocol::RefuseReason::kServerFull);
  EXPECT_EQ(late->inbox().messages_before_disconnect, 2u);  // the Challenge, then the refusal
  EXPECT_FALSE(late->inbox().welcome.has_value());
  EXPECT_EQ(rig->server().clients().size(), 1u);
  EXPECT_EQ(rig->server().stats().clients_refused, 1u);
}

// A request that reads as one but asks for nothing valid is refused as malformed; bytes that are no netcube
// message at all (any version's request is readable as far as its version) are not from a client to be
// told why, and their sender is reset in silence: nothing more goes to an address that proved nothing.
TEST(ServerConnection, BadRequestsAreRefusedAsMalformedAndGarbageIsResetInSilence) {
  auto rig = MakeRig();
  TestClient* nameless = rig->AddClient();
  TestClient* garbled = rig->AddClient();
  ASSERT_TRUE(nameless && garbled);
  ASSERT_TRUE(rig->StepUntil([&] { return nameless->inbox().connected && garbled->inbox().connected; }));
  nameless->SendConnectRequest(rig->now(), "");
  const std::uint8_t garbage[] = {0x01, 0x02, 0x03};
  garbled->SendRaw(rig->now(), protocol::Channel::kReliable, garbage);
  ASSERT_TRUE(
      rig->StepUntil([&] { return nameless->inbox().disconnected && rig->server().peer_count() == 0; }));

  ASSERT_TRUE(nameless->inbox().refused.has_value());
  EXPECT_EQ(nameless->inbox().refused->reason, protocol::RefuseReason::kMalformedRequest);
  EXPECT_FALSE(nameless->inbox().timed_out);
  EXPECT_TRUE(garbled->inbox().types.empty());
  EXPECT_FALSE(garbled->inbox().disconnected);
  EXPECT_EQ(rig->server().stats().packets_malformed, 1u);
  EXPECT_EQ(rig->server().stats().clients_refused, 1u);
  EXPECT_GE(rig->server().stats().peers_reset, 1u);
  EXPECT_TRUE(rig->server().clients().empty());
}

TEST(ServerConnection, SilentPendingPeerIsDisconnected) {
  auto rig = MakeRig();
  TestClient* mute = rig->AddClient();
  ASSERT_NE(mute, nullptr);
  ASSERT_TRUE(rig->StepUntil([&] { return mute->inbox().connected; }));
  const Micros connected_at = rig->now();
  ASSERT_TRUE(rig->StepUntil([&] { return mute->inbox().disconnected; }, 2 * kPendingTimeout));
  EXPECT_GE(rig->now() - connected_at, kPendingTimeout);
  EXPECT_FALSE(mute->inbox().timed_out);
  EXPECT_TRUE(rig->StepUntil([&] { return rig->server().peer_count() == 0; }));
}

TEST(ServerConnection, VanishedClientTimesOutAndPoliteLeaveIsDisconnected) {
  ServerConfig config;
  config.peer_timeout_ms = 300;  // ENet's timeouts run on real time
  auto rig = MakeRig(config);
  TestClient* ann = rig->Join("ann");
  TestClient* bob = rig->Join("bob");
  TestClient* cid = rig->Join("cid");
  ASSERT_TRUE(ann && bob && cid);

  cid->Vanish();
  // The server drops a client that says nothing for the peer timeout: ann and bob keep talking.
  const auto keep_talking = [&] {
    if (rig->now().count() % 100'000 != 0) return;
    for (TestClient* client : {ann, bob}) client->Send(rig->now(), protocol::TimeEcho{false, 1, 0});
  };
  ASSERT_TRUE(rig->StepUntil([&] { return Left(*ann, 2, protocol::LeaveReason::kTimedOut); },
                             Micros(1'000'000), keep_talking));
  EXPECT_TRUE(rig->StepUntil([&] { return Left(*bob, 2, protocol::LeaveReason::kTimedOut); },
                             Micros(1'000'000), keep_talking));
  EXPECT_EQ(rig->server().world().size(), 2u);

  bob->Disconnect(rig->now());
  ASSERT_TRUE(rig->StepUntil([&] { return Left(*ann, 1, protocol::LeaveReason::kDisconnected); },
                             Micros(1'000'000), keep_talking));
  EXPECT_TRUE(rig->StepUntil([&] { return bob->inbox().disconnected; }, Micros(1'000'000), keep_talking));
  ASSERT_EQ(rig->server().world().size(), 1u);
  EXPECT_EQ(rig->server().world()[0].id, 0);
  EXPECT_FALSE(ann->inbox().disconnected);
}

TEST(ServerConnection, TimeEchoIsAnsweredWithTheServerTick) {
  auto rig = MakeRig();
  TestClient* ann = rig->Join("ann");
  ASSERT_NE(ann, nullptr);
  rig->StepFor(Micros(200'000));
  const std::uint32_t tick_before = rig->server().tick();
  ann->Send(rig->now(), protocol::TimeEcho{false, 123456, 0});
  ASSERT_TRUE(rig->StepUntil([&] { return !ann->inbox().echoes.empty(); }));
  const protocol::TimeEcho& echo = ann->inbox().echoes.front();
  EXPECT_TRUE(echo.reply);
  EXPECT_EQ(echo.client_time_us, 123456u);
  EXPECT_GE(echo.server_tick, tick_before);
  EXPECT_LE(echo.server_tick, rig->server().tick());
}

TEST(ServerConnection, ShutdownSaysGoodbyeToEveryone) {
  auto rig = MakeRig();
  TestClient* ann = rig->Join("ann");
  TestClient* bob = rig->Join("bob");
  ASSERT_TRUE(ann && bob);
  rig->server().Shutdown(rig->now());
  ASSERT_TRUE(rig->StepUntil([&] { return ann->inbox().disconnected && bob->inbox().disconnected; }));
  EXPECT_FALSE(ann->inbox().timed_out);
  EXPECT_TRUE(rig->StepUntil([&] { return rig->server().peer_count() == 0; }));
  // A server shutting down does not announce the leaves to players it is also leaving.
  EXPECT_TRUE(ann->inbox().left.empty());
}

// The tick schedule, driven by Update alone (no clients needed).
TEST(ServerTicks, RunsEveryDueTickAndSkipsWhenHopelesslyLate) {
  ServerConfig config;
  config.bind_address = "127.0.0.1";
  config.port = 0;
  std::string error;
  auto server = Server::Create(config, Micros(1'000'000), &error);
  ASSERT_NE(server, nullptr) << error;
  EXPECT_EQ(server->next_wakeup(), Micros(1'016'666));

  server->Update(Micros(1'100'000));  // 100 ms late: catch up
  EXPECT_EQ(server->tick(), 6u);
  EXPECT_EQ(server->stats().ticks, 6u);
  EXPECT_EQ(server->next_wakeup(), Micros(1'116'666));

  server->Update(Micros(3'100'000));  // two seconds late: skip, and the tick number follows the clock
  EXPECT_EQ(server->tick(), 126u);
  EXPECT_EQ(server->stats().ticks, 7u);
  EXPECT_EQ(server->stats().ticks_skipped, 119u);

  ASSERT_TRUE(server->SetTickRate(20));
  EXPECT_EQ(server->config().tick_rate, 20);
  EXPECT_EQ(server->next_wakeup(), Micros(3'100'000 + 50'000));
  server->Update(Micros(3'200'000));
  EXPECT_EQ(server->tick(), 128u);

  EXPECT_FALSE(server->SetTickRate(0));
  EXPECT_FALSE(server->SetSnapshotRate(protocol::kMaxRate + 1));
  EXPECT_TRUE(server->SetSnapshotRate(5));
  server->SetCollisions(false);
  EXPECT_FALSE(server->config().collisions);
  EXPECT_EQ(server->config().tick_rate, 20);
}

TEST(ServerTicks, MeasuresTickDurationsWithTheWorkClock) {
  ServerConfig config;
  config.bind_address = "127.0.0.1";
  config.port = 0;
  Micros work{0};
  config.work_clock = [&work] { return work += Micros(7); };  // every tick "takes" 7 µs
  std::string error;
  auto server = Server::Create(config, Micros(0), &error);
  ASSERT_NE(server, nullptr) << error;
  for (Micros now{1000}; now <= Micros(1'000'000); now += Micros(1000)) server->Update(now);
  const TickDurations durations = server->stats().tick_durations;
  EXPECT_EQ(durations.samples, 60u);
  EXPECT_EQ(durations.p50, Micros(7));
  EXPECT_EQ(durations.max, Micros(7));
}

TEST(ServerTicks, RestartedDurationsLeaveOutTheTicksBefore) {
  ServerConfig config;
  config.bind_address = "127.0.0.1";
  config.port = 0;
  Micros work{0};
  Micros per_call{500};  // a costly start (players joining, say), then 7 µs a call
  config.work_clock = [&] { return work += per_call; };
  std::string error;
  auto server = Server::Create(config, Micros(0), &error);
  ASSERT_NE(server, nullptr) << error;
  Micros now{0};
  const auto run_for = [&](Micros duration) {
    for (const Micros end = now + duration; now < end;) server->Update(now += Micros(1000));
  };
  run_for(Micros(500'000));
  EXPECT_EQ(server->stats().tick_durations.max, Micros(500));
  server->RestartDurations();
  per_call = Micros(7);
  EXPECT_EQ(server->stats().tick_durations.samples, 0u);
  run_for(Micros(500'000));
  const ServerStats stats = server->stats();
  EXPECT_EQ(stats.tick_durations.samples, 30u);
  EXPECT_EQ(stats.tick_durations.max, Micros(7));
  EXPECT_LT(stats.network_durations.max, Micros(500));
}

TEST(ServerTicks, BadConfigIsRefusedWithAReason) {
  for (const auto& change : {+[](ServerConfig& c) { c.tick_rate = 0; },
                             +[](ServerConfig& c) { c.snapshot_rate = protocol::kMaxRate + 1; },
                             +[](ServerConfig& c) { c.max_clients = protocol::kMaxPlayers + 1; }}) {
    ServerConfig config;
    config.port = 0;
    change(config);
    std::string error;
    EXPECT_EQ(Server::Create(config, Micros(0), &error), nullptr);
    EXPECT_FALSE(error.empty());
  }
}

// The reason is optional: a failure without somewhere to write it is still just nullptr.
TEST(ServerTicks, FailsWithoutAnErrorString) {
  ServerConfig bad;
  bad.port = 0;
  bad.tick_rate = 0;
  EXPECT_EQ(Server::Create(bad, Micros(0), nullptr), nullptr);

  ServerConfig unbindable;
  unbindable.bind_address = "not-an-address";
  unbindable.port = 0;
  EXPECT_EQ(Server::Create(unbindable, Micros(0), nullptr), nullptr);

  ServerConfig config;
  config.bind_address = "127.0.0.1";
  config.port = 0;
  std::string error;
  auto first = Server::Create(config, Micros(0), &error);
  ASSERT_NE(first, nullptr) << error;
  config.port = first->port();  // taken
  EXPECT_EQ(Server::Create(config, Micros(0), nullptr), nullptr);
  EXPECT_EQ(Server::Create(config, Micros(0), &error), nullptr);
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace netcube::server
