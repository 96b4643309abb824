// The adaptive snapshot rate over real loopback: an observer behind a lossy, jittery link asks the server
// for every tick's snapshot and draws remote cubes with less delay than the same observer at the server's
// rate; once its link turns clean it asks for the server's rate back. Its loss estimate stays true across
// the change. Without interpolation there is no buffer to shorten: the observer asks for the server's rate
// back at once, and for every tick's snapshot again once it interpolates.
#include <algorithm>
#include <optional>
#include <vector>

#include "loopback_test.h"

namespace netcube::client {
namespace {

const server::ClientInfo& InfoOf(const std::vector<server::ClientInfo>& infos, const Client& client) {
  const auto it = std::find_if(infos.begin(), infos.end(),
                               [&](const server::ClientInfo& c) { return c.id == client.player_id(); });
  if (it == infos.end()) throw std::runtime_error("no such client at the server");
  return *it;
}

TEST(SnapshotRate, AnObserverBehindABadLinkAsksForEveryTickAndGivesItBackWhenTheLinkHeals) {
  server::ServerConfig config;
  config.collisions = false;
  auto rig = StartRig(config);
  AddPlayer(*rig, Named("mover"));
  transport::LinkSettings bad;
  bad.latency_ms = 50;
  bad.jitter_ms = 30;
  bad.loss = 0.1;
  ClientConfig adaptive = Named("adaptive");
  adaptive.link = bad;
  adaptive.seed = 3;
  ClientConfig fixed = Named("fixed");
  fixed.settings.adaptive_snapshot_rate = false;
  fixed.link = bad;
  fixed.seed = 3;
  Client& asker = AddPlayer(*rig, adaptive);
  Client& stayer = AddPlayer(*rig, fixed);
  ASSERT_TRUE(rig->ConnectAll());
  rig->SetButtons(0, [](Micros now) {
    return (now.count() / 1'000'000) % 2 == 0 ? std::uint8_t{sim::kRight} : std::uint8_t{sim::kLeft};
  });

  rig->StepFor(seconds(15));
  const Metrics a = asker.metrics();
  const Metrics s = stayer.metrics();
  EXPECT_EQ(a.snapshot_rate, 60);
  EXPECT_TRUE(a.snapshot_rate_asked);
  EXPECT_EQ(s.snapshot_rate, 20);
  EXPECT_FALSE(s.snapshot_rate_asked);
  const std::vector<server::ClientInfo> infos = rig->server().clients();
  EXPECT_EQ(InfoOf(infos, asker).snapshot_rate, 60);
  EXPECT_TRUE(InfoOf(infos, asker).own_snapshot_rate);
  EXPECT_EQ(InfoOf(infos, stayer).snapshot_rate, 20);
  EXPECT_FALSE(InfoOf(infos, stayer).own_snapshot_rate);
  // Loss counted at the rate the snapshots came at, after the change as before it.
  EXPECT_NEAR(a.snapshot_loss, 0.1, 0.04);
  EXPECT_NEAR(s.snapshot_loss, 0.1, 0.04);
  EXPECT_GT(a.snapshots_per_second, 45.0);
  // Each snapshot the buffer must ride out costs a third of the delay.
  EXPECT_LT(a.interp_delay_ms, 0.8 * s.interp_delay_ms);
  std::printf("bad link: delay %.1f ms at %d/s, %.1f ms at %d/s; loss seen %.3f and %.3f\n",
              a.interp_delay_ms, a.snapshot_rate, s.interp_delay_ms, s.snapshot_rate, a.snapshot_loss,
              s.snapshot_loss);

  // Healed: once the bad samples have left the 10 s window, the server's rate is enough again.
  asker.SetLink({});
  rig->StepFor(seconds(15));
  EXPECT_EQ(asker.metrics().snapshot_rate, 20);
  EXPECT_FALSE(asker.metrics().snapshot_rate_asked);
  EXPECT_EQ(InfoOf(rig->server().clients(), asker).snapshot_rate, 20);
  EXPECT_EQ(asker.metrics().interp_underruns, 0u);
}

TEST(SnapshotRate, WithoutInterpolationTheObserverTakesTheServersRate) {
  auto rig = StartRig({});
  AddPlayer(*rig, Named("mover"));
  ClientConfig bad = Named("observer");
  bad.link.latency_ms = 50;
  bad.link.jitter_ms = 30;
  bad.link.loss = 0.1;
  Client& observer = AddPlayer(*rig, bad);
  ASSERT_TRUE(rig->ConnectAll());
  rig->StepFor(seconds(3));
  ASSERT_EQ(observer.metrics().snapshot_rate, 60);
  Settings drawn_as_they_come = observer.settings();
  drawn_as_they_come.interpolation = false;
  observer.SetSettings(drawn_as_they_come);
  rig->StepFor(seconds(3));
  EXPECT_EQ(observer.metrics().snapshot_rate, 20);
  EXPECT_EQ(InfoOf(rig->server().clients(), observer).snapshot_rate, 20);
  drawn_as_they_come.interpolation = true;
  observer.SetSettings(drawn_as_they_come);
  rig->StepFor(seconds(3));
  EXPECT_EQ(observer.metrics().snapshot_rate, 60);
}

}  // namespace
}  // namespace netcube::client
