// The crowd lab (netcube-client --lab --crowd N), rendered headless on a virtual clock: player 1's client
// has only the cubes of its relevant set while interest management is on, and the server's column draws
// that set's circle; a second after the switch goes off it has every cube, the circle is gone, and its bytes
// down rise.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "headless_app.h"
#include "netcube/gui/app.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/lab.h"
#include "netcube/gui/theme.h"

namespace netcube::gui {
namespace {

constexpr int kWidth = 1600;
constexpr int kHeight = 900;
constexpr int kCrowd = 60;

// The remote cubes player `index`'s view draws: those its client has a state of.
std::size_t DrawnRemotes(Lab& lab, std::size_t index) {
  const std::vector<client::RemoteView>& remotes = lab.player(index).remotes();
  return static_cast<std::size_t>(
      std::count_if(remotes.begin(), remotes.end(),
                    [](const client::RemoteView& r) { return r.sample != client::SampleKind::kEmpty; }));
}

// Whether `at` is the relevance circle's colour laid over the floor or a grid line, at any of the
// strengths its anti-aliased edge has (a cube's colour is not: its channels would need different ones).
bool CircleColour(Rgb at) {
  constexpr int kTolerance = 8;
  const Rgb circle = kInterestCircle;
  for (const Rgb under : {kArenaFloor, kArenaGrid}) {
    const double strength = static_cast<double>(at.g - under.g) / (circle.g - under.g);
    if (strength < 0.25 || strength > 1.05) continue;
    const auto off = [strength](std::uint8_t over, std::uint8_t below, std::uint8_t seen) {
      return std::abs(below + strength * (over - below) - seen);
    };
    if (off(circle.r, under.r, at.r) <= kTolerance && off(circle.b, under.b, at.b) <= kTolerance) return true;
  }
  return false;
}

// Whether a pixel near `point` (display points) has the relevance circle's colour.
bool CircleNear(const Image& image, float pixel_scale, ImVec2 point) {
  constexpr int kRadius = 3;
  const int cx = static_cast<int>(std::floor(point.x * pixel_scale));
  const int cy = static_cast<int>(std::floor(point.y * pixel_scale));
  for (int y = std::max(0, cy - kRadius); y <= std::min(image.height - 1, cy + kRadius); ++y) {
    for (int x = std::max(0, cx - kRadius); x <= std::min(image.width - 1, cx + kRadius); ++x)
      if (CircleColour(image.At(x, y))) return true;
  }
  return false;
}

class CrowdLabTest : public ::testing::Test {
 protected:
  void SetUp() override {
    app_ = OpenHeadlessApp(kWidth, kHeight);
    ASSERT_NE(app_, nullptr);
    std::string error;
    lab_ = Lab::Create(WithCrowd(DefaultLabConfig(), kCrowd, 3), VirtualFrameTime(0), &error);
    ASSERT_NE(lab_, nullptr) << error;
  }

  // Runs `frames` frames, the players idle, and draws the last one: its pixels.
  Image Run(int frames) {
    const std::array<std::uint8_t, 2> held{};
    for (int i = 0; i < frames; ++i, ++frame_) {
      EXPECT_TRUE(app_->PollEvents());
      const Micros now = VirtualFrameTime(frame_);
      lab_->Update(now, held);
      app_->BeginFrame();
      lab_->Draw(LabLayout::For(app_->display_size(), lab_->players()), now, {});
      if (i + 1 < frames) app_->DiscardFrame();
    }
    app_->Render();
    Image image = app_->Capture();
    app_->Present();
    return image;
  }

  // Where the top of player 1's relevance circle is drawn in the server's column.
  ImVec2 CircleTop() {
    const LabLayout layout = LabLayout::For(app_->display_size(), lab_->players());
    const ArenaMapping mapping =
        ArenaMapping::Fit(layout.arena[layout.server_column], lab_->server().config().arena);
    const client::Vec2 own = lab_->player(0).local().server;
    return mapping.ToScreen({own.x, own.y - kCrowdInterestRadiusUnits});
  }

  std::unique_ptr<App> app_;
  std::unique_ptr<Lab> lab_;
  int frame_ = 0;
};

TEST_F(CrowdLabTest, Player1DrawsItsRelevantSetThenEveryCubeOnceInterestIsOff) {
  ASSERT_EQ(lab_->crowd(), static_cast<std::size_t>(kCrowd));
  const Image on = Run(240);
  const std::size_t others = lab_->server().world().size() - 1;
  ASSERT_EQ(others, static_cast<std::size_t>(kCrowd) + 1) << "every wanderer and player 2 joined";
  const client::Metrics before = lab_->player(0).metrics();
  EXPECT_GT(before.snapshots_interest, 0U);
  EXPECT_GT(DrawnRemotes(*lab_, 0), 0U) << "its set has neighbours";
  EXPECT_LT(2 * DrawnRemotes(*lab_, 0), others) << "and leaves most of the crowd out";
  EXPECT_TRUE(CircleNear(on, app_->pixel_scale(), CircleTop())) << "the relevance circle is drawn";
  lab_->server().SetInterest(false);
  const Image off = Run(60);
  const client::Metrics after = lab_->player(0).metrics();
  EXPECT_EQ(DrawnRemotes(*lab_, 0), lab_->server().world().size() - 1) << "every cube, once a second passed";
  EXPECT_LE(after.snapshots_interest - before.snapshots_interest, 10U) << "the last ones in flight at most";
  EXPECT_FALSE(CircleNear(off, app_->pixel_scale(), CircleTop())) << "no relevant set without interest";
  // Two seconds on, the last second's bytes are all of every cube: more than its set cost.
  Run(120);
  EXPECT_GT(lab_->player(0).metrics().bytes_down_per_s, before.bytes_down_per_s);
}

}  // namespace
}  // namespace netcube::gui
