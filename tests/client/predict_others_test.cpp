// The other family (predict_others) over real loopback, on a virtual clock: remote cubes drawn at the
// present, and the same frames on every run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "loopback_test.h"

namespace netcube::client {
namespace {

ClientConfig Behind(std::string name, const Settings& settings, double one_way_ms) {
  ClientConfig config = Named(std::move(name), settings);
  config.link.latency_ms = one_way_ms;
  return config;
}

struct Watch {
  std::vector<double> error_now;    // |drawn - the server's cube now| while the mover glides at top speed
  std::vector<double> delay_ticks;  // the server's tick now minus the render tick
};

// A mover glides right across the arena; an observer 100 ms behind (each way) draws it.
Watch WatchMover(const Settings& observer_settings) {
  server::ServerConfig config;
  config.collisions = false;
  const auto rig = StartRig(config);
  Client& mover = AddPlayer(*rig, Named("mover", PresetSettings(Preset::kPredicted)));
  Client& observer = AddPlayer(*rig, Behind("observer", observer_settings, 100));
  EXPECT_TRUE(rig->ConnectAll());
  const sim::PlayerId id = *mover.player_id();
  rig->SetButtons(0, Hold(sim::kRight, rig->now() + milliseconds(50), milliseconds(1800)));
  const Micros start = rig->now();
  Watch watch;
  rig->StepFor(milliseconds(2000), [&] {
    // Mid-glide: the mover has been at top speed for longer than the observer's round trip.
    if (rig->now() - start < milliseconds(900) || rig->now() - start > milliseconds(1800)) return;
    const RemoteView* drawn = FindRemote(observer, id);
    if (drawn == nullptr) return;
    watch.error_now.push_back(Length(drawn->drawn - PositionOf(rig->ServerCube(id)->state)));
    watch.delay_ticks.push_back(static_cast<double>(rig->server().tick()) - observer.render_tick());
  });
  return watch;
}

double Mean(const std::vector<double>& values) {
  double sum = 0.0;
  for (const double v : values) sum += v;
  return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
}

TEST(PredictOthers, RemoteCubesAreDrawnAtThePresent) {
  const Watch predicted = WatchMover(PresetSettings(Preset::kPredictOthers));
  const Watch interpolated = WatchMover(PresetSettings(Preset::kFull));
  ASSERT_GT(predicted.error_now.size(), 500u);
  ASSERT_GT(interpolated.error_now.size(), 500u);
  const double worst = *std::max_element(predicted.error_now.begin(), predicted.error_now.end());
  std::printf(
      "[predict others] gliding remote cube, 200 ms round trip: error at the present %.3f units "
      "(max %.3f), view delay %.2f ticks; interpolation %.3f units, %.2f ticks\n",
      Mean(predicted.error_now), worst, Mean(predicted.delay_ticks), Mean(interpolated.error_now),
      Mean(interpolated.delay_ticks));
  // A tick of top speed is 0.25 units: predicted within about a tick of the truth now, where
  // interpolation draws it half a round trip and the delay in the past.
  EXPECT_LT(Mean(predicted.error_now), 0.3);
  EXPECT_LT(worst, 0.6);
  EXPECT_LT(std::abs(Mean(predicted.delay_ticks)), 1.0);
  EXPECT_GT(Mean(interpolated.error_now), 4.0 * Mean(predicted.error_now));
  EXPECT_GT(Mean(interpolated.delay_ticks), 6.0);
}

// Two players pushing each other with collisions on, one predicting the others: every frame it draws.
std::vector<Vec2> CollisionFrames() {
  const auto rig = StartRig();
  Client& pusher = AddPlayer(*rig, Behind("pusher", PresetSettings(Preset::kFull), 40));
  Client& watcher = AddPlayer(*rig, Behind("watcher", PresetSettings(Preset::kPredictOthers), 60));
  EXPECT_TRUE(rig->ConnectAll());
  const sim::PlayerId pusher_id = *pusher.player_id();
  // Toward each other along the line between their spawns, then apart.
  const sim::CubeState a = rig->ServerCube(pusher_id)->state;
  const sim::CubeState b = rig->ServerCube(*watcher.player_id())->state;
  const std::uint8_t toward = a.x < b.x ? sim::kRight : sim::kLeft;
  const std::uint8_t back = toward == sim::kRight ? sim::kLeft : sim::kRight;
  rig->SetButtons(0, Hold(toward, rig->now() + milliseconds(20), milliseconds(2500)));
  rig->SetButtons(1, Hold(back, rig->now() + milliseconds(300), milliseconds(2000)));
  std::vector<Vec2> frames;
  rig->StepFor(milliseconds(3000), [&] {
    frames.push_back(watcher.local().drawn);
    if (const RemoteView* r = FindRemote(watcher, pusher_id)) frames.push_back(r->drawn);
  });
  EXPECT_GT(watcher.metrics().rollbacks, 50u);
  return frames;
}

TEST(PredictOthers, TheSameSessionDrawsTheSameFrames) {
  const std::vector<Vec2> first = CollisionFrames();
  const std::vector<Vec2> second = CollisionFrames();
  ASSERT_GT(first.size(), 3000u);
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    ASSERT_EQ(first[i], second[i]) << "frame entry " << i;
  }
}

}  // namespace
}  // namespace netcube::client
