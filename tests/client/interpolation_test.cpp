// Entity interpolation and correction smoothing over real loopback, on a virtual clock.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "loopback_test.h"
#include "netcube/client/input_script.h"

namespace netcube::client {
namespace {

// The mover's path must not be blocked by the observer's cube.
server::ServerConfig WithoutCollisions() {
  server::ServerConfig config;
  config.collisions = false;
  return config;
}

TEST(Interpolation, AViewIntervalRefreshesTheRemoteCubesAsADisplayWould) {
  const auto rig = StartRig(WithoutCollisions());
  Client& mover = AddPlayer(*rig, Named("mover", PresetSettings(Preset::kPredicted)));
  ClientConfig observer_config = Named("observer", PresetSettings(Preset::kFull));
  observer_config.view_interval = Micros(16'667);  // a 60 Hz display
  Client& observer = AddPlayer(*rig, observer_config);
  ASSERT_TRUE(rig->ConnectAll());
  const sim::PlayerId id = *mover.player_id();
  rig->SetButtons(0, Hold(sim::kRight, rig->now() + milliseconds(50), milliseconds(1500)));
  rig->StepFor(milliseconds(500));
  // A second of steady motion: the rig updates every client every millisecond, the observer draws the
  // mover anew 60 times.
  int refreshes = 0;
  int updates = 0;
  std::optional<double> last_x;
  rig->StepFor(milliseconds(1000), [&] {
    ++updates;
    const RemoteView* r = FindRemote(observer, id);
    ASSERT_NE(r, nullptr);
    if (last_x && r->drawn.x != *last_x) ++refreshes;
    last_x = r->drawn.x;
  });
  EXPECT_GE(updates, 990);
  EXPECT_GE(refreshes, 58);
  EXPECT_LE(refreshes, 61);
  EXPECT_EQ(observer.metrics().interp_underruns, 0u);
}

TEST(Interpolation, RemoteCubeTrailsTheServerByTheDelayAndNeverJumpsBack) {
  const auto rig = StartRig(WithoutCollisions());
  Client& mover = AddPlayer(*rig, Named("mover", PresetSettings(Preset::kPredicted)));
  Settings observer_settings = PresetSettings(Preset::kFull);
  observer_settings.adaptive_delay = false;
  observer_settings.interp_delay_ms = 100;
  Client& observer = AddPlayer(*rig, Named("observer", observer_settings));
  ASSERT_TRUE(rig->ConnectAll());
  const sim::PlayerId id = *mover.player_id();
  const double start_x = rig->ServerCube(id)->state.x / double{sim::kSubUnitsPerUnit};

  // The server's x of the mover at every step, and the observer's drawn x.
  std::vector<std::pair<Micros, double>> server_path;
  std::vector<std::pair<Micros, double>> drawn_path;
  rig->SetButtons(0, Hold(sim::kRight, rig->now() + milliseconds(50), milliseconds(1500)));
  const auto record = [&] {
    server_path.emplace_back(rig->now(), rig->ServerCube(id)->state.x / double{sim::kSubUnitsPerUnit});
    if (const RemoteView* r = FindRemote(observer, id)) drawn_path.emplace_back(rig->now(), r->drawn.x);
  };
  rig->StepFor(milliseconds(2500), record);

  // Never backward.
  double largest_back = 0.0;
  for (std::size_t i = 1; i < drawn_path.size(); ++i) {
    largest_back = std::max(largest_back, drawn_path[i - 1].second - drawn_path[i].second);
  }
  EXPECT_EQ(largest_back, 0.0);

  // While the cube moves, the drawn x equals the server's x of about 100 ms earlier. The server's x
  // changes once per tick; between changes it is interpolated in time, like the drawn path.
  std::vector<std::pair<Micros, double>> changes;
  for (const auto& point : server_path) {
    if (changes.empty() || point.second != changes.back().second) changes.push_back(point);
  }
  const auto server_time_of = [&changes](double x) {
    for (std::size_t i = 1; i < changes.size(); ++i) {
      const auto& [t0, x0] = changes[i - 1];
      const auto& [t1, x1] = changes[i];
      if (x >= x0 && x < x1)
        return static_cast<double>(t0.count()) +
               (x - x0) / (x1 - x0) * static_cast<double>((t1 - t0).count());
    }
    return -1e18;
  };
  std::vector<double> lags_ms;
  const double end_x = server_path.back().second;
  for (const auto& [t, x] : drawn_path) {
    if (x < start_x + 1.0 || x > end_x - 1.0) continue;  // moving steadily, away from start and stop
    lags_ms.push_back((static_cast<double>(t.count()) - server_time_of(x)) / 1000.0);
  }
  ASSERT_GT(lags_ms.size(), 500u);
  const auto [lo, hi] = std::minmax_element(lags_ms.begin(), lags_ms.end());
  double mean = 0.0;
  for (double lag : lags_ms) mean += lag / static_cast<double>(lags_ms.size());
  std::printf(
      "[interpolation] fixed delay 100 ms: drawn trails the server by %.1f ms (min %.1f, max %.1f); "
      "underruns %llu\n",
      mean, *lo, *hi, static_cast<unsigned long long>(observer.metrics().interp_underruns));
  EXPECT_GE(*lo, 95.0);
  EXPECT_LE(*hi, 115.0);
  EXPECT_NEAR(mean, 102.0, 5.0);
  EXPECT_EQ(observer.metrics().interp_underruns, 0u);
  EXPECT_NEAR(observer.metrics().interp_delay_ms, 100.0, 1e-9);
}

struct UnderrunRun {
  std::uint64_t underruns = 0;
  double delay_ms = 0.0;
  double extrapolation_ms = 0.0;
  double snapshot_loss = 0.0;
  double buffer_depth_mean = 0.0;
};

// An observer behind 50 ms (one way), +-20 ms jitter and 5% loss watches a circling player for 20 s.
UnderrunRun WatchOverABadLink(bool adaptive, int fixed_delay_ms) {
  const auto rig = StartRig(WithoutCollisions());
  AddPlayer(*rig, Named("mover", PresetSettings(Preset::kPredicted)));
  Settings settings = PresetSettings(Preset::kFull);
  settings.adaptive_delay = adaptive;
  settings.interp_delay_ms = fixed_delay_ms;
  settings.adaptive_snapshot_rate = false;  // both at the server's rate: the delay is the one difference
  ClientConfig config = Named("observer", settings);
  config.link.latency_ms = 50;
  config.link.jitter_ms = 20;
  config.link.loss = 0.05;
  config.seed = 9;
  Client& observer = AddPlayer(*rig, config);
  EXPECT_TRUE(rig->ConnectAll());
  std::string error;
  const InputScript circle = *InputScript::Parse("circle", &error);
  const Micros start = rig->now();
  rig->SetButtons(0, [&](Micros now) { return circle.ButtonsAt(now - start, 1); });
  rig->StepFor(seconds(2));  // warm-up: the estimates settle
  const Metrics before = observer.metrics();
  UnderrunRun run;
  int samples = 0;
  rig->StepFor(seconds(20), [&] {
    run.buffer_depth_mean += observer.metrics().buffer_depth;
    ++samples;
  });
  const Metrics after = observer.metrics();
  run.underruns = after.interp_underruns - before.interp_underruns;
  run.delay_ms = after.interp_delay_ms;
  run.extrapolation_ms = after.extrapolation_ms - before.extrapolation_ms;
  run.snapshot_loss = after.snapshot_loss;
  run.buffer_depth_mean /= samples;
  return run;
}

TEST(Interpolation, AdaptiveDelayKeepsTheBufferFromRunningDryUnderLossAndJitter) {
  const UnderrunRun adaptive = WatchOverABadLink(true, 100);
  const UnderrunRun tight = WatchOverABadLink(false, 50);
  for (const auto& [label, r] : {std::pair{"adaptive", adaptive}, std::pair{"fixed 50 ms", tight}}) {
    std::printf(
        "[interpolation %s] 20 s: underruns %llu, delay %.1f ms, extrapolating %.0f ms, buffer depth "
        "%.2f, measured snapshot loss %.3f\n",
        label, static_cast<unsigned long long>(r.underruns), r.delay_ms, r.extrapolation_ms,
        r.buffer_depth_mean, r.snapshot_loss);
  }
  EXPECT_LE(adaptive.underruns, 3u);
  // Above the 50 ms snapshot interval by most of the 40 ms jitter spread; where it ends depends on where
  // the seed's losses fall in the last 10 s (a run's figures: docs/BENCHMARKS.md, "Network profiles").
  EXPECT_GT(adaptive.delay_ms, 80.0);
  EXPECT_LT(adaptive.delay_ms, 300.0);
  // At least ten times as often: what the seeded draws give (the challenge's extra round trip before the
  // Welcome moved them; docs/BENCHMARKS.md).
  EXPECT_GE(tight.underruns, 10 * std::max<std::uint64_t>(adaptive.underruns, 1));
}

// Two players run into each other: the server pushes them apart, which neither predicted.
struct CollisionRun {
  std::uint64_t corrections = 0;
  double max_correction = 0.0;
  double largest_drawn_step = 0.0;  // units per 1 ms step
  bool settled_equal = false;
};

CollisionRun Collide(Settings settings) {
  server::ServerConfig server_config;
  server_config.collisions = true;
  const auto rig = StartRig(server_config);
  ClientConfig config = Named("a", settings);
  config.link.latency_ms = 50;
  Client& a = AddPlayer(*rig, config);
  config.name = "b";
  Client& b = AddPlayer(*rig, config);
  EXPECT_TRUE(rig->ConnectAll());
  const sim::CubeState sa = rig->ServerCube(*a.player_id())->state;
  const sim::CubeState sb = rig->ServerCube(*b.player_id())->state;
  // Each drives toward the other along the axis that separates them most.
  const bool along_x = std::abs(sb.x - sa.x) >= std::abs(sb.y - sa.y);
  const bool b_after_a = along_x ? sb.x > sa.x : sb.y > sa.y;
  const std::uint8_t forward = along_x ? sim::kRight : sim::kDown;
  const std::uint8_t backward = along_x ? sim::kLeft : sim::kUp;
  rig->SetButtons(0, Hold(b_after_a ? forward : backward, rig->now(), milliseconds(1500)));
  rig->SetButtons(1, Hold(b_after_a ? backward : forward, rig->now(), milliseconds(1500)));

  CollisionRun run;
  Vec2 previous_a = a.local().drawn;
  Vec2 previous_b = b.local().drawn;
  const auto track = [&] {
    run.largest_drawn_step = std::max(
        {run.largest_drawn_step, Length(a.local().drawn - previous_a), Length(b.local().drawn - previous_b)});
    previous_a = a.local().drawn;
    previous_b = b.local().drawn;
  };
  rig->StepFor(milliseconds(1500), track);
  EXPECT_TRUE(rig->StepUntil([&] { return rig->AllSettled(); }, seconds(5), track));
  run.corrections = a.metrics().corrections + b.metrics().corrections;
  run.max_correction = std::max(a.metrics().max_correction, b.metrics().max_correction);
  run.settled_equal = sim::SamePhysics(a.local().predicted_state, a.local().server_state) &&
                      sim::SamePhysics(b.local().predicted_state, b.local().server_state);
  return run;
}

TEST(Interpolation, AnUnderrunIsOneEpisodeHoweverManyCubesRunDry) {
  const auto rig = StartRig();
  for (const char* name : {"a", "b", "c"}) AddPlayer(*rig, Named(name, PresetSettings(Preset::kPredicted)));
  Client& observer = AddPlayer(*rig, Named("observer", PresetSettings(Preset::kFull)));
  ASSERT_TRUE(rig->ConnectAll());
  for (std::size_t i = 0; i < 3; ++i) rig->SetButtons(i, Hold(sim::kUp, rig->now(), seconds(10)));
  rig->StepFor(seconds(1));
  ASSERT_EQ(observer.remotes().size(), 3u);
  const std::uint64_t before = observer.metrics().interp_underruns;
  rig->DestroyServer();  // no more snapshots: every remote cube runs dry at once
  rig->StepFor(seconds(1));
  EXPECT_EQ(observer.metrics().interp_underruns, before + 1);
}

TEST(Smoothing, CollisionCorrectionsAreBlendedNotSnapped) {
  // The prediction advances once per 1/60 s, by at most kMaxSpeed (0.25 units); a smoothed correction
  // adds a few percent of the remaining offset per 1 ms step.
  constexpr double kMaxDrawnStep = 0.35;
  const CollisionRun smooth = Collide(PresetSettings(Preset::kFull));
  const CollisionRun snapping = Collide(PresetSettings(Preset::kPredicted));
  for (const auto& [label, r] : {std::pair{"smoothing on", smooth}, std::pair{"smoothing off", snapping}}) {
    std::printf("[collision %s] corrections %llu (max %.3f units), largest drawn step per ms %.3f units\n",
                label, static_cast<unsigned long long>(r.corrections), r.max_correction,
                r.largest_drawn_step);
  }
  EXPECT_GT(smooth.corrections, 0u);
  EXPECT_GT(snapping.corrections, 0u);
  EXPECT_LE(smooth.largest_drawn_step, kMaxDrawnStep);
  EXPECT_GT(snapping.largest_drawn_step, kMaxDrawnStep);
  EXPECT_TRUE(smooth.settled_equal);
  EXPECT_TRUE(snapping.settled_equal);
}

}  // namespace
}  // namespace netcube::client
