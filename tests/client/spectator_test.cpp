// Spectators over real loopback, against the real server, on a virtual clock: a connection without a cube
// sees every cube as the server has it, is seated apart from the players, controls nothing, and with
// interest management gets the cubes around its camera (the player it follows, or a point it names).
#include <algorithm>
#include <set>

#include "loopback_test.h"

namespace netcube::client {
namespace {

ClientConfig Spectator(const char* name, std::optional<sim::PlayerId> follow = std::nullopt) {
  ClientConfig config = Named(name);
  config.spectate = true;
  config.follow = follow;
  return config;
}

TEST(Spectator, SeesEveryCubeAsTheServerHasItWithoutOneOfItsOwn) {
  const auto rig = StartRig();
  Client& driver = AddPlayer(*rig, Named("driver"));
  Client& other = AddPlayer(*rig, Named("other"));
  Client& watcher = AddPlayer(*rig, Spectator("watcher"));
  ASSERT_TRUE(rig->ConnectAll());
  EXPECT_TRUE(watcher.spectator());
  EXPECT_FALSE(watcher.player_id().has_value());
  EXPECT_FALSE(driver.spectator());
  EXPECT_EQ(rig->server().stats().clients, 2u);
  EXPECT_EQ(rig->server().stats().spectators, 1u);

  rig->SetButtons(0, Hold(sim::kLeft | sim::kUp, rig->now(), milliseconds(700)));
  rig->StepFor(seconds(1));
  ASSERT_TRUE(rig->StepUntil([&] { return rig->AllSettled(); }, seconds(10)));
  rig->StepFor(milliseconds(500));
  ASSERT_EQ(watcher.remotes().size(), 2u) << "both players, and no cube of its own";
  EXPECT_FALSE(watcher.local().present);
  for (Client* player : {&driver, &other}) {
    const sim::PlayerId id = *player->player_id();
    const RemoteView* seen = FindRemote(watcher, id);
    ASSERT_NE(seen, nullptr);
    EXPECT_TRUE(sim::SamePhysics(seen->latest_state, rig->ServerCube(id)->state)) << "bit for bit";
    EXPECT_EQ(seen->name, id == *driver.player_id() ? "driver" : "other");
  }
  EXPECT_EQ(driver.remotes().size(), 1u) << "a spectator is in nobody's world";
  EXPECT_EQ(watcher.metrics().packets_malformed, 0u);

  // It keeps its seat while it watches (its snapshot acknowledgements are heard), and gives it up.
  rig->StepFor(seconds(6));
  EXPECT_EQ(watcher.state(), ConnectionState::kConnected);
  watcher.Disconnect(rig->now());
  ASSERT_TRUE(rig->StepUntil([&] { return rig->server().stats().spectators == 0; }, seconds(3)));
  EXPECT_EQ(rig->server().stats().clients, 2u);
  EXPECT_EQ(rig->server().stats().packets_malformed, 0u);
}

TEST(Spectator, SeatsAreCountedApartFromPlayers) {
  server::ServerConfig config;
  config.max_clients = 1;
  config.max_spectators = 1;
  const auto rig = StartRig(config);
  Client& player = AddPlayer(*rig, Named("player"));
  Client& watcher = AddPlayer(*rig, Spectator("watcher"));
  ASSERT_TRUE(rig->ConnectAll()) << "a spectator seat beside a full server";
  Client& second_watcher = AddPlayer(*rig, Spectator("second"));
  Client& second_player = AddPlayer(*rig, Named("late"));
  ASSERT_TRUE(rig->StepUntil(
      [&] {
        return second_watcher.state() == ConnectionState::kRefused &&
               second_player.state() == ConnectionState::kRefused;
      },
      seconds(5)));
  EXPECT_EQ(second_watcher.status(), protocol::ToString(protocol::RefuseReason::kNoSpectatorSeat));
  EXPECT_EQ(second_player.status(), protocol::ToString(protocol::RefuseReason::kServerFull));
  EXPECT_EQ(player.state(), ConnectionState::kConnected);
  EXPECT_EQ(watcher.state(), ConnectionState::kConnected);

  // With no seat for spectators, none may watch.
  config.max_spectators = 0;
  const auto closed = StartRig(config);
  Client& refused = AddPlayer(*closed, Spectator("nobody"));
  ASSERT_TRUE(closed->StepUntil([&] { return refused.state() == ConnectionState::kRefused; }, seconds(5)));
  EXPECT_EQ(refused.status(), protocol::ToString(protocol::RefuseReason::kNoSpectatorSeat));
}

// A raw spectator sends what only a player may (an input, a tag), and a point off the arena; a raw player
// sends a Viewpoint. Each is dropped and counted; no cube moves or appears.
TEST(Spectator, ControlsNothing) {
  const auto rig = StartRig();
  Client& player = AddPlayer(*rig, Named("player"));
  ASSERT_TRUE(rig->ConnectAll());
  testing::TestClient* watcher = rig->AddClient();
  ASSERT_NE(watcher, nullptr);
  ASSERT_TRUE(rig->StepUntil([&] { return watcher->inbox().connected; }, seconds(2)));
  watcher->Send(rig->now(),
                protocol::ConnectRequest{protocol::kProtocolMagic, protocol::kProtocolVersion, "raw", true});
  ASSERT_TRUE(rig->StepUntil([&] { return watcher->inbox().welcome.has_value(); }, seconds(2)));
  EXPECT_TRUE(watcher->inbox().welcome->spectator);
  EXPECT_EQ(watcher->inbox().welcome->player_id, 0);
  const sim::PlayerCube before = *rig->ServerCube(*player.player_id());

  protocol::InputMessage input;
  input.inputs.push_back({0, sim::kRight});
  watcher->Send(rig->now(), input);
  watcher->Send(rig->now(), protocol::Tag{});
  watcher->Send(rig->now(), protocol::Viewpoint{false, 0, 64, 0});   // x = 64: off the 64-unit arena
  watcher->Send(rig->now(), protocol::Viewpoint{false, 0, 63, 35});  // its far corner: fine
  testing::TestClient* raw_player = rig->Join("raw-player");
  ASSERT_NE(raw_player, nullptr);
  raw_player->Send(rig->now(), protocol::Viewpoint{true, 0, 0, 0});
  rig->StepFor(milliseconds(300));
  EXPECT_EQ(rig->server().stats().packets_malformed, 4u);
  EXPECT_EQ(rig->server().world().size(), 2u);
  EXPECT_TRUE(sim::SamePhysics(rig->ServerCube(*player.player_id())->state, before.state));
  EXPECT_FALSE(watcher->inbox().disconnected) << "four offences are forgiven";
}

// Three players 32 units apart in a 256-unit arena, interest radius 16: a spectator following the last
// sees only that one; moved to a point by the first, it sees the first and the last leaves its set.
TEST(Spectator, ItsRelevantSetFollowsItsCamera) {
  const auto rig = StartRig(SparseInterest());
  for (const char* name : {"p0", "p1", "p2"}) AddPlayer(*rig, Named(name));
  ASSERT_TRUE(rig->ConnectAll());
  const sim::PlayerId first = *rig->player(0).player_id();
  const sim::PlayerId last = *rig->player(2).player_id();
  Client& watcher = AddPlayer(*rig, Spectator("watcher", last));
  ASSERT_TRUE(rig->ConnectAll());
  rig->StepFor(seconds(1));
  ASSERT_EQ(watcher.remotes().size(), 1u);
  EXPECT_EQ(watcher.remotes()[0].id, last);
  EXPECT_TRUE(sim::SamePhysics(watcher.remotes()[0].latest_state, rig->ServerCube(last)->state));
  EXPECT_GT(watcher.metrics().snapshots_interest, 0u);

  const sim::CubeState& at = rig->ServerCube(first)->state;
  watcher.Watch(protocol::Viewpoint{false, 0, static_cast<int>(at.x / sim::kSubUnitsPerUnit),
                                    static_cast<int>(at.y / sim::kSubUnitsPerUnit)});
  ASSERT_TRUE(rig->StepUntil(
      [&] { return FindRemote(watcher, last) == nullptr && FindRemote(watcher, first) != nullptr; },
      seconds(2)));
  const RemoteView* seen = FindRemote(watcher, first);
  ASSERT_NE(seen, nullptr);
  EXPECT_TRUE(sim::SamePhysics(seen->latest_state, at));
  EXPECT_EQ(rig->server().stats().packets_malformed, 0u);
}

// With interest management a spectator following a player gets some of that player's snapshots (10 a
// second, the spectators' rate here, of its 20) and the player's relevant set: what the player sees, bit for
// bit.
TEST(Spectator, FollowingAPlayerItSeesWhatThePlayerSeesWithThePlayersSnapshots) {
  server::ServerConfig config = SparseInterest();
  config.interest_radius_units = 40;  // the middle player sees another, 32 units away
  config.spectator_snapshot_rate = 10;
  const auto rig = StartRig(config);
  Settings steady;
  steady.adaptive_snapshot_rate = false;  // the server's 20 a second, on ticks of each player's own phase
  for (const char* name : {"p0", "p1", "p2"}) AddPlayer(*rig, Named(name, steady));
  ASSERT_TRUE(rig->ConnectAll());
  Client& middle = rig->player(1);
  Client& watcher = AddPlayer(*rig, Spectator("watcher", *middle.player_id()));
  ASSERT_TRUE(rig->ConnectAll());
  rig->StepFor(seconds(1));

  std::set<Tick> watched;
  std::set<Tick> played;
  rig->StepFor(seconds(2), [&] {
    if (const std::optional<Tick> tick = watcher.newest_snapshot_tick()) watched.insert(*tick);
    if (const std::optional<Tick> tick = middle.newest_snapshot_tick()) played.insert(*tick);
  });
  EXPECT_NEAR(static_cast<double>(watched.size()), 2 * config.spectator_snapshot_rate, 2);
  EXPECT_NEAR(static_cast<double>(played.size()), 2 * 20, 2);
  EXPECT_TRUE(std::includes(played.begin(), played.end(), watched.begin(), watched.end()))
      << "its snapshots are of the player's ticks";

  // The player's own cube and the cubes it sees, no other.
  ASSERT_GE(middle.remotes().size(), 1u);
  ASSERT_EQ(watcher.remotes().size(), middle.remotes().size() + 1);
  for (const RemoteView& seen : watcher.remotes()) {
    EXPECT_TRUE(seen.id == *middle.player_id() || FindRemote(middle, seen.id) != nullptr);
    EXPECT_TRUE(sim::SamePhysics(seen.latest_state, rig->ServerCube(seen.id)->state));
  }
  EXPECT_EQ(rig->server().stats().packets_malformed, 0u);
}

}  // namespace
}  // namespace netcube::client
