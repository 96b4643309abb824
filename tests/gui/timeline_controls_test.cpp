// The timeline's time controls in a live ImGui frame: P pauses and resumes, Left and Right step a frame while
// paused (with Shift a server tick) and do nothing while running, and a click in the lanes goes to the frame
// under the mouse.
#include <SDL.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <cfloat>
#include <memory>
#include <string>

#include "headless_app.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/timeline_view.h"
#include "netcube/timeline/journal.h"

namespace netcube::gui {
namespace {

constexpr int kWidth = 640;
constexpr int kHeight = 480;

class TimelineControls : public ::testing::Test {
 protected:
  void SetUp() override {
    app_ = OpenHeadlessAppForInput(kWidth, kHeight);
    ASSERT_NE(app_, nullptr);
    view_.Enable(&journal_, {"player1", "player2"});
  }

  // One frame of the panel at frame `frame` of 600, with `key` (an SDL scancode, or -1) down in it and the
  // mouse at `mouse` (clicked when `click`).
  TimeControls Frame(std::int64_t frame, bool paused, int key = -1, bool shift = false,
                     ImVec2 mouse = {-FLT_MAX, -FLT_MAX}, bool click = false) {
    InputFrame(*app_, {key, shift, mouse, click});
    ImGui::SetNextWindowPos({0.0F, 0.0F});
    ImGui::SetNextWindowSize({static_cast<float>(kWidth), static_cast<float>(kHeight)});
    ImGui::Begin("timeline");
    view_.SetPosition({frame, 600, paused, false, {}});
    lanes_top_ = ImGui::GetCursorScreenPos().y;
    view_.DrawPanel(VirtualFrameTime(static_cast<int>(frame)), {});
    ImGui::End();
    app_->DiscardFrame();
    return view_.TakeControls();
  }

  std::unique_ptr<App> app_;
  timeline::Journal journal_{2};
  TimelineView view_;
  float lanes_top_ = 0.0F;
};

TEST_F(TimelineControls, KeysPauseResumeAndStepOnlyWhilePaused) {
  Frame(300, false);
  EXPECT_TRUE(Frame(300, false, SDL_SCANCODE_P).toggle_pause);
  Frame(300, true);
  TimeControls back = Frame(300, true, SDL_SCANCODE_LEFT);
  ASSERT_TRUE(back.seek.has_value());
  EXPECT_EQ(*back.seek, 299);
  Frame(299, true);
  TimeControls forward = Frame(299, true, SDL_SCANCODE_RIGHT);
  ASSERT_TRUE(forward.seek.has_value());
  EXPECT_EQ(*forward.seek, 300);
  Frame(300, true);
  TimeControls tick = Frame(300, true, SDL_SCANCODE_RIGHT, true);
  EXPECT_FALSE(tick.seek.has_value());
  EXPECT_EQ(tick.step_ticks, 1);
  Frame(300, false);
  const TimeControls running = Frame(300, false, SDL_SCANCODE_LEFT);
  EXPECT_FALSE(running.seek.has_value()) << "the arrows move player 1 while the run goes on";
  EXPECT_EQ(running.step_ticks, 0);
}

TEST_F(TimelineControls, AClickInTheLanesGoesToTheFrameUnderTheMouse) {
  // Frame 300 is 5 s in: the lanes span the first 10 s, so their middle is frame 300 and a quarter frame 150.
  Frame(300, true);
  Frame(300, true);
  const float lanes_y = lanes_top_ + 3.0F * ImGui::GetFrameHeightWithSpacing();  // below the controls
  bool sought = false;
  // Find the lanes: the first row under the controls where a click seeks.
  for (float y = lanes_top_; y < lanes_y + 60.0F && !sought; y += 2.0F) {
    const float x = 70.0F +
                    (static_cast<float>(kWidth) - 2.0F * ImGui::GetStyle().WindowPadding.x - 70.0F) * 0.25F +
                    ImGui::GetStyle().WindowPadding.x;
    Frame(300, true, -1, false, {x, y}, false);
    const TimeControls click = Frame(300, true, -1, false, {x, y}, true);
    Frame(300, true, -1, false, {x, y}, false);
    if (!click.seek) continue;
    sought = true;
    EXPECT_NEAR(static_cast<double>(*click.seek), 150.0, 5.0);
  }
  EXPECT_TRUE(sought);
}

// A lab run again from its start to the frame of the explanation clicked keeps that one selected: the new
// run's view selects it as it is added.
TEST_F(TimelineControls, ASelectionOutlivesTheRunAgainFromTheStart) {
  timeline::Explanation first;
  first.time = Micros(1'000'000);
  first.client = 0;
  timeline::Explanation clicked = first;
  clicked.client = 1;
  TimelineView again;
  again.Enable(&journal_, {"player1", "player2"});
  again.Select({clicked.time, clicked.client});
  EXPECT_FALSE(again.selection().has_value());
  again.Add(first);
  again.Add(clicked);
  ASSERT_TRUE(again.selection().has_value());
  EXPECT_EQ(again.selection()->time, clicked.time);
  EXPECT_EQ(again.selection()->client, 1U);
}

}  // namespace
}  // namespace netcube::gui
