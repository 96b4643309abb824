// Delta encoding's work is bounded by design: players who name many distinct, old baselines (each a
// snapshot they were sent) cost the server no more encoding than honest players, and the honest
// players beside them keep the server's world.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "delta_rig.h"
#include "netcube/server/server.h"

namespace netcube::server {
namespace {

using std::chrono::seconds;
using testing::LoopbackRig;
using testing::TestClient;

constexpr int kPlayers = 32;
constexpr int kHostile = 24;
constexpr std::uint32_t kHostileAge = 240;  // ticks: hostile k names the snapshot kHostileAge + k old

struct Work {
  double encodes_per_tick = 0.0;
  double deltas_share = 0.0;
  bool honest_in_sync = true;
  TickDurations tick;  // the server thread's CPU time: printed, never asserted
  TickDurations network;
};

// kPlayers at 60 snapshots a second, `hostile` of them raw clients naming a different old baseline every
// tick, the rest real clients steering at random. The work is counted over the last two seconds.
Work Play(int hostile) {
  const std::unique_ptr<LoopbackRig> rig = DeltaRig(kPlayers);
  if (rig == nullptr) return {};
  for (int p = hostile; p < kPlayers; ++p) {
    client::ClientConfig player;
    player.name = "honest" + std::to_string(p);
    AddRandomPlayer(*rig, player, static_cast<std::uint64_t>(p));
  }
  std::vector<TestClient*> liars;
  for (int k = 0; k < hostile; ++k) {
    liars.push_back(rig->Join("liar" + std::to_string(k)));
    EXPECT_NE(liars.back(), nullptr);
    if (liars.back() == nullptr) return {};
  }
  EXPECT_TRUE(rig->ConnectAll());
  std::uint32_t told_at = 0;
  const auto lie = [&] {
    const std::uint32_t tick = rig->server().tick();
    if (tick == told_at || tick <= kHostileAge + kHostile) return;
    told_at = tick;
    for (int k = 0; k < hostile; ++k) {
      const auto seen = static_cast<std::uint16_t>(tick - kHostileAge - static_cast<std::uint32_t>(k));
      liars[static_cast<std::size_t>(k)]->Send(rig->now(), protocol::SnapshotAck{seen});
    }
  };
  rig->StepFor(seconds(6), lie);  // past the hostile age, and settled
  rig->server().RestartDurations();
  const ServerStats before = rig->server().stats();
  rig->StepFor(seconds(2), lie);
  const ServerStats after = rig->server().stats();

  Work work;
  const auto ticks = static_cast<double>(after.ticks - before.ticks);
  work.encodes_per_tick = static_cast<double>(after.snapshot_encodes - before.snapshot_encodes) / ticks;
  work.tick = after.tick_durations;
  work.network = after.network_durations;
  work.deltas_share = static_cast<double>(after.delta_snapshots_sent - before.delta_snapshots_sent) /
                      static_cast<double>(after.snapshots_sent - before.snapshots_sent);
  EXPECT_EQ(after.clients, static_cast<std::size_t>(kPlayers));

  // Everyone lets go and comes to rest: every honest player then shows the server's world exactly.
  for (std::size_t p = 0; p < rig->player_count(); ++p)
    rig->SetButtons(p, [](Micros) { return std::uint8_t{0}; });
  rig->StepFor(seconds(2), lie);
  for (std::size_t p = 0; p < rig->player_count(); ++p)
    work.honest_in_sync = work.honest_in_sync && ShowsTheServersWorld(*rig, rig->player(p));
  return work;
}

TEST(DeltaWork, PlayersNamingDistinctOldBaselinesCostAboutWhatHonestOnesDo) {
  const Work honest = Play(0);
  const Work hostile = Play(kHostile);
  const auto us = [](Micros t) { return static_cast<long long>(t.count()); };
  std::printf(
      "honest: %.2f encodes a tick, %.0f%% deltas, tick p50/p99 %lld/%lld us, net %lld/%lld us\n"
      "hostile: %.2f encodes a tick, %.0f%% deltas, tick p50/p99 %lld/%lld us, net %lld/%lld us\n",
      honest.encodes_per_tick, 100 * honest.deltas_share, us(honest.tick.p50), us(honest.tick.p99),
      us(honest.network.p50), us(honest.network.p99), hostile.encodes_per_tick, 100 * hostile.deltas_share,
      us(hostile.tick.p50), us(hostile.tick.p99), us(hostile.network.p50), us(hostile.network.p99));
  // The liars' old baselines share one encode: the tick encodes the honest players' delta, the liars' one
  // and the full snapshot they get (and one more full when a delta would be longer): no more than thrice
  // the honest tick's encodes and the full snapshot.
  EXPECT_LE(hostile.encodes_per_tick, 3 * honest.encodes_per_tick + 1);
  EXPECT_TRUE(honest.honest_in_sync);
  EXPECT_TRUE(hostile.honest_in_sync);
  EXPECT_GT(honest.deltas_share, 0.9);
}

}  // namespace
}  // namespace netcube::server
