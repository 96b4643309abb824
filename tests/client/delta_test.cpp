// Delta snapshots end to end: real clients against the real server over loopback, through links that
// lose, duplicate and reorder packets. Whatever arrives, the world a client shows (its own cube's server
// state and every remote cube's latest state) is the server's world at that snapshot's tick, bit for bit.
#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

#include "loopback_test.h"
#include "netcube/client/input_script.h"

namespace netcube::client {
namespace {

using server::SnapshotEncoding;

testing::Buttons Random(std::uint64_t seed) {
  std::string error;
  const InputScript script = InputScript::Parse("random", &error).value();
  return [script, seed](Micros now) { return script.ButtonsAt(now, seed); };
}

ClientConfig BadLink(std::string name, std::uint64_t seed) {
  ClientConfig config = Behind(Named(std::move(name)), {30, 20, 0.15, 0.1, 0.1});
  config.seed = seed;
  return config;
}

// Records the server's world after every tick, and compares each player's shown world with it. The
// record is taken after each step, so a player accepted or gone in the same step as a tick (after its
// snapshot went out) shows there too; and a client forgets a player on PlayerLeft, before snapshots say
// so. Near such changes only the cubes shown are compared (each must be the server's, exactly); elsewhere
// the whole world must be the same.
class WorldChecker {
 public:
  explicit WorldChecker(LoopbackRig& rig) : rig_(rig) {}

  void Step() {
    const server::Server& server = rig_.server();
    const auto world = server.world();
    std::vector<sim::PlayerId> ids;
    for (const sim::PlayerCube& cube : world) ids.push_back(cube.id);
    if (ids != ids_) changes_.push_back(server.tick());
    ids_ = ids;
    worlds_.try_emplace(server.tick(), world.begin(), world.end());
    for (std::size_t p = 0; p < rig_.player_count(); ++p) Check(rig_.player(p));
  }

  int compared() const { return compared_; }
  int mismatched() const { return mismatched_; }

 private:
  bool NearChange(std::uint32_t tick) const {
    return std::any_of(changes_.begin(), changes_.end(),
                       [tick](std::uint32_t c) { return tick + 30 >= c && tick <= c + 30; });
  }

  void Check(const Client& client) {
    const std::optional<Tick> tick = client.newest_snapshot_tick();
    if (!tick || !client.player_id() || !client.local().present) return;
    const auto it = worlds_.find(static_cast<std::uint32_t>(*tick));
    if (it == worlds_.end()) return;
    std::vector<sim::PlayerCube> shown;
    for (const RemoteView& remote : client.remotes()) shown.push_back({remote.id, remote.latest_state});
    shown.push_back({*client.player_id(), client.local().server_state});
    std::sort(shown.begin(), shown.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    const std::vector<sim::PlayerCube>& truth = it->second;
    bool same = NearChange(it->first) || shown.size() == truth.size();
    for (const sim::PlayerCube& cube : shown) {
      const auto match =
          std::find_if(truth.begin(), truth.end(), [&](const auto& t) { return t.id == cube.id; });
      same = same && match != truth.end() && sim::SamePhysics(match->state, cube.state);
    }
    ++compared_;
    if (!same) ++mismatched_;
  }

  LoopbackRig& rig_;
  std::map<std::uint32_t, std::vector<sim::PlayerCube>> worlds_;
  std::vector<sim::PlayerId> ids_;
  std::vector<std::uint32_t> changes_;
  int compared_ = 0;
  int mismatched_ = 0;
};

class DeltaSnapshots : public ::testing::TestWithParam<int> {};

TEST_P(DeltaSnapshots, ClientWorldsEqualTheServersThroughLossDuplicationAndReordering) {
  server::ServerConfig config;
  config.snapshot_rate = GetParam();
  const auto rig = StartRig(config);
  for (std::uint64_t p = 0; p < 4; ++p) AddPlayer(*rig, BadLink("p" + std::to_string(p), 100 + p));
  ASSERT_TRUE(rig->ConnectAll());
  for (std::size_t p = 0; p < rig->player_count(); ++p) rig->SetButtons(p, Random(p + 1));
  WorldChecker checker(*rig);
  rig->StepFor(seconds(3), [&] { checker.Step(); });

  // A player leaves and a new one takes its id at once: the old one reads as left, the new one as joined.
  rig->player(1).Disconnect(rig->now());
  AddPlayer(*rig, BadLink("newcomer", 200));
  rig->SetButtons(4, Random(9));
  rig->StepFor(seconds(2), [&] { checker.Step(); });

  EXPECT_GT(checker.compared(), 5000);
  EXPECT_EQ(checker.mismatched(), 0);
  const server::ServerStats stats = rig->server().stats();
  EXPECT_GT(stats.delta_snapshots_sent, stats.snapshots_sent / 2);
  for (const std::size_t p : {0u, 2u, 3u, 4u}) {
    const Metrics m = rig->player(p).metrics();
    EXPECT_GT(m.snapshots_delta, m.snapshots_full) << p;
    EXPECT_GE(m.snapshots_full, 1u) << p;  // the first one, with no baseline yet
    EXPECT_EQ(m.packets_malformed, 0u) << p;
  }
}

INSTANTIATE_TEST_SUITE_P(SnapshotRates, DeltaSnapshots, ::testing::Values(20, 60));

TEST(DeltaSnapshotsLive, SwitchingTheEncodingKeepsTheWorldsEqual) {
  const auto rig = StartRig();
  for (int p = 0; p < 3; ++p) AddPlayer(*rig, Named("p" + std::to_string(p)));
  ASSERT_TRUE(rig->ConnectAll());
  for (std::size_t p = 0; p < rig->player_count(); ++p) rig->SetButtons(p, Random(p + 20));
  WorldChecker checker(*rig);
  rig->StepFor(seconds(1), [&] { checker.Step(); });
  const Metrics before = rig->player(0).metrics();
  EXPECT_GT(before.snapshots_delta, 10u);

  rig->server().SetSnapshotEncoding(SnapshotEncoding::kFull);
  rig->StepFor(seconds(1), [&] { checker.Step(); });
  const Metrics full = rig->player(0).metrics();
  EXPECT_GE(full.snapshots_full - before.snapshots_full, 18u);   // 20 Hz
  EXPECT_LE(full.snapshots_delta - before.snapshots_delta, 1u);  // one maybe in flight

  rig->server().SetSnapshotEncoding(SnapshotEncoding::kDelta);
  rig->StepFor(seconds(1), [&] { checker.Step(); });
  const Metrics m = rig->player(0).metrics();
  EXPECT_GE(m.snapshots_delta - full.snapshots_delta, 18u);
  EXPECT_EQ(checker.mismatched(), 0);
  EXPECT_GT(checker.compared(), 2000);
  // On a clean link every client holds the same newest snapshot: one encode serves them all.
  const server::ServerStats stats = rig->server().stats();
  EXPECT_LT(stats.snapshot_encodes * 2, stats.snapshots_sent);
}

// Players come and go (issue 41): with 50 players at 60 snapshots a second, one joins or leaves every
// two seconds (1 in 100 a second), and the players who stay keep getting deltas (at least 9 in 10 of their
// snapshots), every world they show the server's.
TEST(DeltaSnapshotsLive, PlayersWhoStayKeepTheirDeltasWhileOneInAHundredComesOrGoesEachSecond) {
  constexpr int kPlayers = 49;
  server::ServerConfig config;
  config.snapshot_rate = 60;
  config.max_clients = kPlayers + 2;
  config.max_per_address = kPlayers + 2 + server::kSpareConnectionSlots;  // everyone on 127.0.0.1
  const auto rig = StartRig(config);
  for (int p = 0; p < kPlayers; ++p) AddPlayer(*rig, Named("p" + std::to_string(p)));
  ASSERT_TRUE(rig->ConnectAll());
  for (std::size_t p = 0; p < rig->player_count(); ++p) rig->SetButtons(p, Random(p + 40));
  WorldChecker checker(*rig);
  rig->StepFor(seconds(2), [&] { checker.Step(); });
  // The deltas and the full snapshots the players have received so far.
  const auto received = [&rig] {
    std::pair<std::uint64_t, std::uint64_t> n;
    for (std::size_t p = 0; p < rig->player_count(); ++p) {
      n.first += rig->player(p).metrics().snapshots_delta;
      n.second += rig->player(p).metrics().snapshots_full;
    }
    return n;
  };
  const auto [delta_before, full_before] = received();
  const server::ServerStats before = rig->server().stats();
  // Twelve seconds: a newcomer joins, stays two seconds and leaves; two seconds later the next joins.
  testing::TestClient* newcomer = nullptr;
  for (int event = 0; event < 6; ++event) {
    if (newcomer == nullptr) {
      newcomer = rig->Join("newcomer" + std::to_string(event));
      ASSERT_NE(newcomer, nullptr);
    } else {
      newcomer->Disconnect(rig->now());
      newcomer = nullptr;
    }
    rig->StepFor(seconds(2), [&] { checker.Step(); });
  }
  const auto [delta_after, full_after] = received();
  const std::uint64_t deltas = delta_after - delta_before;
  const std::uint64_t fulls = full_after - full_before;
  std::printf("players who stayed: %llu deltas, %llu full snapshots (%.1f%% deltas)\n",
              static_cast<unsigned long long>(deltas), static_cast<unsigned long long>(fulls),
              100.0 * static_cast<double>(deltas) / static_cast<double>(deltas + fulls));
  EXPECT_GE(deltas * 10, (deltas + fulls) * 9);
  EXPECT_EQ(checker.mismatched(), 0);
  // Each of them a replay that says who came and went (protocol 12): no replay ended for them, and no
  // snapshot was sent full for want of one.
  const server::ServerStats after = rig->server().stats();
  EXPECT_EQ(after.deltas_declined, before.deltas_declined);
}

TEST(DeltaSnapshotsLive, IdleClientsAcknowledgeWithoutInputsAndCostABitPerCube) {
  const auto rig = StartRig();
  for (int p = 0; p < 3; ++p) AddPlayer(*rig, Named("p" + std::to_string(p)));
  ASSERT_TRUE(rig->ConnectAll());
  ASSERT_TRUE(rig->StepUntil([&] { return rig->AllSettled(); }, seconds(3)));
  const server::ServerStats before = rig->server().stats();
  rig->StepFor(seconds(2));
  const server::ServerStats after = rig->server().stats();
  const std::uint64_t snapshots = after.snapshots_sent - before.snapshots_sent;
  EXPECT_EQ(after.delta_snapshots_sent - before.delta_snapshots_sent, snapshots);
  // Nobody moves and nobody sends inputs: each delta is a replay, its 58-bit header (protocol 12), a bit
  // per cube and the ack. No input was ever applied either: no ack.
  EXPECT_EQ((after.snapshot_bytes_sent - before.snapshot_bytes_sent) / snapshots, (58u + 3 + 1 + 7) / 8);
  EXPECT_EQ(after.inputs.processed, before.inputs.processed);
}

// A round trip longer than the worlds a client keeps: at 60 snapshots a second and 600 ms each way, the
// newest snapshot the client has told the server of is about 72 ticks old, and the client keeps 64. The
// server makes deltas only against snapshots the client told of and still holds, so this client gets full
// snapshots, never a delta it would have to drop, and every world it shows is still the server's; the
// near one beside it gets deltas.
TEST(DeltaSnapshotsLive,
     AClientWhoseRoundTripOutlastsTheWorldsItKeepsGetsFullSnapshotsNeverADeltaItCannotUse) {
  server::ServerConfig config;
  config.snapshot_rate = 60;
  const auto rig = StartRig(config);
  ClientConfig far = Named("far");
  far.link.latency_ms = 600;
  AddPlayer(*rig, far);
  AddPlayer(*rig, Named("near"));
  ASSERT_TRUE(rig->ConnectAll());
  for (std::size_t p = 0; p < rig->player_count(); ++p) rig->SetButtons(p, Random(p + 40));
  WorldChecker checker(*rig);
  const Metrics before = rig->player(0).metrics();
  rig->StepFor(seconds(10), [&] { checker.Step(); });
  const Metrics m = rig->player(0).metrics();
  std::printf("far player, 10 s: %llu deltas, %llu full, %llu dropped without their baseline\n",
              static_cast<unsigned long long>(m.snapshots_delta - before.snapshots_delta),
              static_cast<unsigned long long>(m.snapshots_full - before.snapshots_full),
              static_cast<unsigned long long>(m.snapshots_no_baseline - before.snapshots_no_baseline));
  EXPECT_EQ(m.snapshots_no_baseline - before.snapshots_no_baseline, 0u);
  EXPECT_GT(m.snapshots_full - before.snapshots_full, 500u);
  EXPECT_EQ(m.packets_malformed, 0u);
  EXPECT_EQ(checker.mismatched(), 0);
  EXPECT_GT(checker.compared(), 10000);
  const Metrics near = rig->player(1).metrics();
  EXPECT_EQ(near.snapshots_no_baseline, 0u);
  EXPECT_GT(near.snapshots_delta, near.snapshots_full * 10);
}

}  // namespace
}  // namespace netcube::client
