// Interest management over real loopback, against the real server, on a virtual clock: a cube comes into a
// client's relevant set with its exact state and is said to have left it, under loss, duplication and
// reordering; a snapshot keeps to its byte budget and every member's state is refreshed in turn.
#include <algorithm>
#include <cstdio>

#include "loopback_test.h"

namespace netcube::client {
namespace {

ClientConfig OnABadLink(const char* name) {
  return Behind(Named(name, PresetSettings(Preset::kFull)), {40, 10, 0.1, 0.1, 0.1});
}

// The server's state of cube `id` now.
const sim::PlayerCube* ServerCube(LoopbackRig& rig, sim::PlayerId id) {
  for (const sim::PlayerCube& cube : rig.server().world()) {
    if (cube.id == id) return &cube;
  }
  return nullptr;
}

// Two players 32 units apart in a 256-unit arena with an interest radius of 16: neither is relevant to the
// other (a cube comes in within 16 units, leaves beyond 32). One drives up to the other, stops, and drives
// away again.
TEST(Interest, ACubeComesInWithItsExactStateAndIsSaidToLeave) {
  const auto rig = StartRig(SparseInterest());
  Client& watcher = AddPlayer(*rig, OnABadLink("watcher"));
  Client& driver = AddPlayer(*rig, OnABadLink("driver"));
  ASSERT_TRUE(rig->ConnectAll());
  const sim::PlayerId driven = *driver.player_id();
  rig->StepFor(seconds(1));
  EXPECT_EQ(FindRemote(watcher, driven), nullptr) << "32 units away: not relevant";
  EXPECT_GT(watcher.metrics().snapshots_interest, 0u);

  // Left, toward the watcher, for a second (about 14 units): 18 units apart, then 4 more.
  rig->SetButtons(1, Hold(sim::kLeft, rig->now(), milliseconds(1300)));
  ASSERT_TRUE(rig->StepUntil([&] { return FindRemote(watcher, driven) != nullptr; }, seconds(5)));
  rig->StepFor(seconds(2));
  ASSERT_TRUE(rig->StepUntil([&] { return driver.Settled(); }, seconds(10)));
  rig->StepFor(seconds(1));
  const RemoteView* seen = FindRemote(watcher, driven);
  ASSERT_NE(seen, nullptr);
  const sim::PlayerCube* truth = ServerCube(*rig, driven);
  ASSERT_NE(truth, nullptr);
  EXPECT_TRUE(sim::SamePhysics(seen->latest_state, truth->state)) << "the server's state, bit for bit";
  EXPECT_DOUBLE_EQ(seen->drawn.x, ToUnits(truth->state.x));

  // Right, away, for four seconds: past 32 units it has left, and is no longer drawn.
  rig->SetButtons(1, Hold(sim::kRight, rig->now(), seconds(4)));
  ASSERT_TRUE(rig->StepUntil([&] { return FindRemote(watcher, driven) == nullptr; }, seconds(6)));
  const double gone_at = ToUnits(ServerCube(*rig, driven)->state.x) - watcher.local().server.x;
  EXPECT_GT(gone_at, 32.0);
  rig->StepFor(seconds(4));
  EXPECT_EQ(FindRemote(watcher, driven), nullptr);
  EXPECT_EQ(driver.metrics().corrections, 0u);
  EXPECT_GT(watcher.metrics().snapshots_stale, 0u);  // duplicates came, and were dropped
}

// Twelve players wandering in and out of each other's sets on a bad link (10% loss, duplication and
// reordering), their buttons turning every 400 ms: the states of cubes that did nothing but Move since one
// their client told of go predicted, none is ever missing its baseline, and at rest every player draws
// every member of its set as the server has it, bit for bit.
TEST(Interest, PredictedStatesAreTheServersUnderLossDuplicationAndReordering) {
  server::ServerConfig config = SparseInterest();
  config.arena = sim::Arena::OfUnits(96, 32);
  config.spawn_spacing_units = 8;
  constexpr std::size_t kPlayers = 12;
  config.max_clients = kPlayers;
  config.max_per_address = kPlayers;
  const auto rig = StartRig(config);
  for (std::size_t i = 0; i < kPlayers; ++i) AddPlayer(*rig, OnABadLink("wanderer"));
  ASSERT_TRUE(rig->ConnectAll());
  const Micros start = rig->now();
  const Micros wander = seconds(8);
  for (std::size_t i = 0; i < kPlayers; ++i) {
    rig->SetButtons(i, [i, start, wander](Micros now) -> std::uint8_t {
      if (now < start || now >= start + wander) return 0;
      const auto turn = static_cast<std::uint64_t>((now - start) / milliseconds(400));
      std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull ^ (turn + 1) * 0xC2B2AE3D27D4EB4Full;
      h ^= h >> 29;
      return static_cast<std::uint8_t>(h & sim::kButtonMask);
    });
  }
  const server::ServerStats before = rig->server().stats();
  rig->StepFor(wander + seconds(4));
  const server::ServerStats after = rig->server().stats();
  const std::uint64_t states = after.interest_states - before.interest_states;
  const std::uint64_t predicted = after.interest_predicted - before.interest_predicted;
  std::printf("[interest predicted] states %llu, predicted %llu\n", static_cast<unsigned long long>(states),
              static_cast<unsigned long long>(predicted));
  EXPECT_GT(predicted, states / 4);
  std::size_t compared = 0;
  std::uint64_t late = 0;
  for (std::size_t p = 0; p < kPlayers; ++p) {
    const Client& client = rig->player(p);
    EXPECT_EQ(client.metrics().snapshots_no_baseline, 0u) << p;
    late += client.metrics().snapshots_late;
    for (const RemoteView& seen : client.remotes()) {
      const sim::PlayerCube* truth = ServerCube(*rig, seen.id);
      ASSERT_NE(truth, nullptr);
      EXPECT_TRUE(sim::SameCarried(seen.latest_state, truth->state)) << p << " sees " << seen.id;
      ++compared;
    }
  }
  EXPECT_GT(compared, kPlayers);
  EXPECT_GT(late, 0u) << "some overtaken: late ones predict from states held too";
}

// Eighteen players within 25 units of each other, each asking for a budget of 128 bytes (the server's is
// 1,200): each snapshot carries the states it can (the nearest and the stalest first), names every member,
// and keeps to the budget; every player's view of every other ends at the server's state.
TEST(Interest, ASnapshotKeepsToItsBudgetAndEveryMemberIsRefreshed) {
  server::ServerConfig config;
  config.interest = true;
  config.arena = sim::Arena::OfUnits(128, 32);  // spawn slots 8 x 2 units: 18 players within 25 units
  config.interest_radius_units = 32;
  config.spawn_spacing_units = 1;
  config.max_clients = 20;
  config.max_per_address = 20;
  const auto rig = StartRig(config);
  const auto asking = [](const char* name) {
    ClientConfig client = Named(name, PresetSettings(Preset::kFull));
    client.snapshot_budget = 128;
    return client;
  };
  // A player far from the others makes every set partial.
  AddPlayer(*rig, asking("far"));
  ASSERT_TRUE(rig->ConnectAll());
  rig->SetButtons(0, Hold(sim::kRight, rig->now(), seconds(6)));
  rig->StepFor(seconds(6));
  constexpr std::size_t kPlayers = 18;  // 17 members of each set near the others: 15 whole states fit
  for (std::size_t i = 1; i < kPlayers; ++i) AddPlayer(*rig, asking("p"));
  ASSERT_TRUE(rig->ConnectAll());
  rig->StepFor(seconds(10));
  const server::ServerStats stats = rig->server().stats();
  std::printf(
      "[interest budget] snapshots %llu interest %llu, members %llu states %llu, largest %llu B, "
      "stalest %llu ticks (near %llu)\n",
      static_cast<unsigned long long>(stats.snapshots_sent),
      static_cast<unsigned long long>(stats.interest_snapshots_sent),
      static_cast<unsigned long long>(stats.interest_members),
      static_cast<unsigned long long>(stats.interest_states),
      static_cast<unsigned long long>(stats.largest_snapshot_bytes),
      static_cast<unsigned long long>(stats.stalest_member_ticks),
      static_cast<unsigned long long>(stats.stalest_near_member_ticks));
  EXPECT_GT(stats.interest_snapshots_sent, 0u);
  EXPECT_LE(stats.largest_snapshot_bytes, 128u);
  EXPECT_LT(stats.interest_states, stats.interest_members) << "the budget held states back";
  EXPECT_LE(stats.stalest_member_ticks, 12u) << "every member refreshed within four snapshots";
  for (std::size_t p = 1; p < kPlayers; ++p) {
    for (std::size_t q = 1; q < kPlayers; ++q) {
      if (p == q) continue;
      const RemoteView* seen = FindRemote(rig->player(p), *rig->player(q).player_id());
      ASSERT_NE(seen, nullptr) << p << " sees " << q;
      EXPECT_TRUE(sim::SamePhysics(seen->latest_state, ServerCube(*rig, *rig->player(q).player_id())->state));
    }
  }
}

// More players than a whole-world snapshot holds, with interest management off: every snapshot after
// the last join is an InterestSnapshot of every cube, the states the budget holds carried, each cube's
// refreshed within a second; at rest every player draws every other as the server has it, bit for bit.
TEST(Interest, AWorldPastTheWholeWorldSnapshotReachesEveryoneInInterestSnapshots) {
  server::ServerConfig config;
  config.arena = sim::Arena::OfUnits(256, 144);
  config.max_clients = protocol::kMaxWholeWorldCubes + 4;
  config.max_per_address = config.max_clients;
  const auto rig = StartRig(config);
  for (std::size_t i = 0; i < config.max_clients; ++i) AddPlayer(*rig, Named("p"));
  ASSERT_TRUE(rig->ConnectAll());
  rig->StepFor(milliseconds(200));
  const server::ServerStats before = rig->server().stats();
  rig->StepFor(seconds(2));
  const server::ServerStats after = rig->server().stats();
  EXPECT_GT(after.interest_snapshots_sent, before.interest_snapshots_sent);
  EXPECT_EQ(after.snapshots_sent - before.snapshots_sent,
            after.interest_snapshots_sent - before.interest_snapshots_sent)
      << "no Snapshot or DeltaSnapshot of more than 256 cubes";
  // Still cubes do nothing but Move: their states go predicted, a few bits each, so every member's fits.
  EXPECT_GT(after.interest_predicted - before.interest_predicted,
            (after.interest_states - before.interest_states) * 9 / 10);
  EXPECT_LE(after.stalest_member_ticks, 60u) << "every cube refreshed within a second";
  for (const std::size_t p : {std::size_t{0}, config.max_clients - 1}) {
    std::size_t drawn = 0;
    for (std::size_t q = 0; q < config.max_clients; ++q) {
      if (q == p) continue;
      const sim::PlayerId id = *rig->player(q).player_id();
      const RemoteView* seen = FindRemote(rig->player(p), id);
      ASSERT_NE(seen, nullptr) << p << " sees " << q;
      EXPECT_TRUE(sim::SamePhysics(seen->latest_state, ServerCube(*rig, id)->state)) << p << " sees " << q;
      ++drawn;
    }
    EXPECT_EQ(drawn, config.max_clients - 1);
  }
}

}  // namespace
}  // namespace netcube::client
