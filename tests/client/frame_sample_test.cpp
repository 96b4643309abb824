// What the comparison's new measures show, measured on real clients over loopback: prediction puts the
// drawn cube where the keys put it (a naive client trails them by a round trip of motion), prediction
// without reconciliation drifts from the keys, and interpolation draws remote cubes without jumps.
#include "netcube/client/frame_sample.h"

#include <algorithm>
#include <array>
#include <vector>

#include "loopback_test.h"

namespace netcube::client {
namespace {

Settings Techniques(bool prediction, bool reconciliation, bool interpolation) {
  Settings settings = PresetSettings(Preset::kNaive);
  settings.prediction = prediction;
  settings.reconciliation = reconciliation;
  settings.interpolation = interpolation;
  return settings;
}

struct Samples {
  std::vector<std::vector<FrameSample>> of;  // per player, one per 1/60 s frame
};

// Four players with the same keys and the same link (60 ms each way, 15 ms jitter) on a server whose
// cubes spawn alike and never collide: naive, prediction only, prediction + reconciliation, and
// naive + interpolation. Sampled at 60 frames a second against the server's world.
Samples Compare() {
  server::ServerConfig config;
  config.collisions = false;
  config.shared_spawn = true;
  const std::unique_ptr<LoopbackRig> rig = StartRig(config);
  const std::array<Settings, 4> builds{Techniques(false, false, false), Techniques(true, false, false),
                                       Techniques(true, true, false), Techniques(false, false, true)};
  for (std::size_t i = 0; i < builds.size(); ++i) {
    ClientConfig player = Named("p" + std::to_string(i), builds[i]);
    player.link = {.latency_ms = 60, .jitter_ms = 15};
    player.seed = 5;
    AddPlayer(*rig, std::move(player));
  }
  EXPECT_TRUE(rig->ConnectAll());
  const Micros start = rig->now();
  for (std::size_t i = 0; i < builds.size(); ++i) {
    // Right for 1.5 s, a pause, down for 1 s: presses that start and stop.
    rig->SetButtons(i, [start](Micros now) -> std::uint8_t {
      const Micros t = now - start;
      if (t < milliseconds(1500)) return sim::kRight;
      if (t >= milliseconds(2500) && t < milliseconds(3500)) return sim::kDown;
      return 0;
    });
  }
  Samples run;
  run.of.resize(builds.size());
  std::vector<FrameSampler> samplers(builds.size());
  for (std::int64_t frame = 0; frame < 5 * 60; ++frame) {
    const Micros due = start + Micros(frame * 1'000'000 / 60);
    while (rig->now() < due) rig->Step();
    for (std::size_t i = 0; i < builds.size(); ++i) {
      const Client& player = rig->player(i);
      const std::uint8_t held = frame < 90 ? sim::kRight : 0;  // only the press detector reads it
      run.of[i].push_back(samplers[i].Sample(frame, rig->now() - start, held, player, rig->server().world()));
    }
  }
  return run;
}

double Max(const std::vector<FrameSample>& samples,
           std::optional<double> (*value)(const FrameSample&) noexcept) {
  double max = 0.0;
  for (const FrameSample& s : samples) max = std::max(max, value(s).value_or(0.0));
  return max;
}

TEST(FrameSample, PredictionIsOnYourKeysWithoutReconciliationItDriftsAndInterpolationDoesNotJump) {
  const Samples run = Compare();
  const SampleSummary naive = Summarize(run.of[0]);
  const SampleSummary predicted_only = Summarize(run.of[1]);
  const SampleSummary reconciled = Summarize(run.of[2]);
  const SampleSummary interpolated = Summarize(run.of[3]);

  // Without prediction the drawn cube trails the keys by about a round trip (120-150 ms) of motion at up
  // to 15 units/s; with prediction and reconciliation it is exactly where they put it.
  EXPECT_GT(Max(run.of[0], &KeysError), 1.0);
  EXPECT_GT(naive.keys_error.count, 200U);
  EXPECT_EQ(Max(run.of[2], &KeysError), 0.0);
  EXPECT_EQ(reconciled.drift.max, 0.0);
  EXPECT_GT(reconciled.drift.count, 200U);
  // Prediction alone restarts from the server's older state at every snapshot: it drifts from the keys.
  EXPECT_GT(predicted_only.drift.max, 0.5);
  EXPECT_EQ(naive.drift.count, 0U) << "no prediction, no drift to measure";

  // The naive clients draw each snapshot as it comes: under jitter some frames bring two ticks' steps and
  // some none. Interpolation moves the remote cubes a little every frame.
  EXPECT_GT(naive.remote_jumps_rate, 1.0);
  EXPECT_GT(naive.remote_frozen_share, 0.05);
  EXPECT_LT(interpolated.remote_jumps_rate, naive.remote_jumps_rate / 4.0);
  EXPECT_LT(interpolated.remote_frozen_share, naive.remote_frozen_share / 4.0);
  EXPECT_GT(interpolated.remote_jumps_per_s.count, 200U);
}

}  // namespace
}  // namespace netcube::client
