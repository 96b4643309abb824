// The lab, a comparison with its fork, the time machine and the LAN list fit their windows: after a
// headless frame, ImGui's own rectangles (not pixels) show no item cut by its window, no table column cut,
// no window scrolling and no window (a tooltip among them) off the display. Also Escape quits, and a
// correction's arrow starts outside the cube.
#include <SDL.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "headless_app.h"
#include "netcube/client/input_script.h"
#include "netcube/client/settings.h"
#include "netcube/gui/arena.h"
#include "netcube/gui/client_screen.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/keys.h"
#include "netcube/gui/lab.h"
#include "netcube/timeline/journal.h"

namespace netcube::gui {
namespace {

std::string Describe(const char* what, const char* name, ImVec2 at, ImVec2 limit) {
  char text[256];
  std::snprintf(text, sizeof text, "%s %s: reaches (%.0f, %.0f), limit (%.0f, %.0f)", what, name,
                static_cast<double>(at.x), static_cast<double>(at.y), static_cast<double>(limit.x),
                static_cast<double>(limit.y));
  return text;
}

// What the frame just ended cut, by ImGui's own rectangles: for every window drawn, the extent of its items
// (DC.CursorMaxPos, which every item's ItemSize pushes out: text, buttons, plots, the strips drawn by
// hand) against its inner clip rect, whether it scrolls, and whether it is inside the display; for every
// table, each column's content and header against the column's clip rect.
std::vector<std::string> Clipped(ImVec2 display) {
  constexpr float kSlack = 0.5F;
  std::vector<std::string> cut;
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (ImGuiWindow* window : g.Windows) {
    if (!window->Active || window->Hidden) continue;
    // The list of explanations scrolls down by design (a long run has hundreds), never sideways.
    const bool list = std::string(window->Name).find("##explanations") != std::string::npos;
    const ImVec2 reach = window->DC.CursorMaxPos;
    const ImVec2 limit = window->InnerClipRect.Max;
    if (reach.x > limit.x + kSlack || (!list && reach.y > limit.y + kSlack))
      cut.push_back(Describe("items cut in", window->Name, reach, limit));
    // Sideways only with a scroll bar (else nothing scrolls it: its items are checked against the clip rect).
    if (window->ScrollbarX || (!list && window->ScrollMax.y > 0.0F))
      cut.push_back(Describe("scrolls:", window->Name, window->ScrollMax, {0.0F, 0.0F}));
    const ImVec2 end(window->Pos.x + window->Size.x, window->Pos.y + window->Size.y);
    if (window->Pos.x < -kSlack || window->Pos.y < -kSlack || end.x > display.x + kSlack ||
        end.y > display.y + kSlack)
      cut.push_back(Describe("off the display:", window->Name, end, display));
  }
  for (int i = 0; i < g.Tables.GetMapSize(); ++i) {
    const ImGuiTable* table = g.Tables.TryGetMapData(i);
    if (table == nullptr || table->LastFrameActive != g.FrameCount) continue;
    for (int c = 0; c < table->ColumnsCount; ++c) {
      const ImGuiTableColumn& column = table->Columns[c];
      const float content = std::max(column.ContentMaxXUnfrozen, column.ContentMaxXHeadersIdeal);
      if (content > column.ClipRect.Max.x + kSlack) {
        cut.push_back(Describe(("column " + std::to_string(c) + " cut in table of").c_str(),
                               table->OuterWindow->Name, {content, 0.0F}, column.ClipRect.Max));
      }
    }
  }
  return cut;
}

// The link profiles of assets/link_profiles.json, with descriptions as long as theirs.
std::vector<transport::LinkProfile> Profiles() {
  std::vector<transport::LinkProfile> profiles;
  for (const char* name : {"lan", "cross-continent", "lossy", "harsh"}) {
    transport::LinkProfile profile;
    profile.name = name;
    profile.description = std::string(name) +
                          ": a link whose description runs on for a while, as the real ones do, with its "
                          "latency, jitter, loss, duplication and reordering spelt out in words.";
    profiles.push_back(profile);
  }
  return profiles;
}

// A journal's explanation whose line is longer than any panel is wide.
timeline::Explanation LongExplanation(std::size_t client, int frame) {
  timeline::Explanation e;
  e.frame = frame;
  e.time = VirtualFrameTime(frame);
  e.client = client;
  e.kind = timeline::GlitchKind::kRemoteFrozen;
  e.line =
      std::to_string(frame / 60) +
      ".00 s, Player 1 sees Player 2 stop: no snapshot after tick 119 for 100 ms: 7 packets to this client "
      "lost on the link; link event \"2s blackout 400ms client 1\" at 2.00 s; extrapolated 17 ms past the "
      "newest snapshot, then held";
  return e;
}

class LabLayoutTest : public ::testing::Test {
 protected:
  void Open(int width, int height) {
    app_ = OpenHeadlessAppForInput(width, height);
    ASSERT_NE(app_, nullptr);
    display_ = {static_cast<float>(width), static_cast<float>(height)};
  }

  void Start(const LabConfig& config, bool journaled) {
    std::string error;
    lab_ = Lab::Create(config, VirtualFrameTime(0), &error);
    ASSERT_NE(lab_, nullptr) << error;
    if (!journaled) return;
    journal_ = std::make_unique<timeline::Journal>(config.players.size());
    std::vector<std::string> labels;
    for (const LabPlayer& player : config.players) labels.push_back(player.client.name);
    lab_->timeline().Enable(journal_.get(), labels);
  }

  // Runs the lab `frames` frames with player 1 driving a rectangle (the pending strips fill), the last one
  // drawn with the mouse at `mouse`; returns what that frame cut.
  std::vector<std::string> Run(int frames, std::optional<TimePosition> position = {},
                               ImVec2 mouse = {-FLT_MAX, -FLT_MAX}) {
    std::string error;
    std::optional<client::InputScript> script = client::InputScript::Parse("R:800,U:600,L:800,D:600", &error);
    EXPECT_TRUE(script.has_value()) << error;
    PlayerKeys keys(std::move(script), 1, KeyBinding::kArrows);
    std::vector<std::uint8_t> held(lab_->players(), 0);
    for (int i = 0; i < frames; ++i, ++frame_) {
      const Micros now = VirtualFrameTime(frame_);
      held[0] = keys.Held(now, lab_->player(0));
      lab_->Update(now, held);
      if (lab_->timeline().enabled() && frame_ % 30 == 0)
        lab_->timeline().Add(
            LongExplanation(static_cast<std::size_t>(frame_ / 30) % lab_->players(), frame_));
      // The last frames drawn: tables fit their columns to the frame before.
      if (i + 3 < frames) continue;
      if (i + 1 < frames) {
        Draw(position, mouse);
        continue;
      }
      return Draw(position, mouse);
    }
    return {};
  }

  std::vector<std::string> Draw(std::optional<TimePosition> position, ImVec2 mouse) {
    InputFrame(*app_, {-1, false, mouse, false});
    if (position) lab_->timeline().SetPosition(*position);
    lab_->Draw(LabLayout::For(display_, lab_->players()), VirtualFrameTime(frame_), profiles_);
    app_->DiscardFrame();
    return Clipped(display_);
  }

  // Hovers down the column of player `player`'s panel, at its left and right, a frame per step (the tooltip
  // shows from the second): every tooltip is on the display.
  void ExpectTooltipsOnTheDisplay(std::size_t player) {
    const LabLayout layout = LabLayout::For(display_, lab_->players());
    const Rect& panel = layout.panel[layout.ColumnOf(player)];
    for (const float x : {panel.x + 30.0F, panel.x + panel.w - 30.0F}) {
      for (float y = panel.y + 10.0F; y < panel.y + panel.h; y += 12.0F) {
        Draw({}, {x, y});
        for (const std::string& problem : Draw({}, {x, y})) {
          if (problem.find("##Tooltip") != std::string::npos)
            ADD_FAILURE() << "hovering " << x << ", " << y << ": " << problem;
        }
      }
    }
  }

  std::unique_ptr<App> app_;
  ImVec2 display_;
  std::unique_ptr<Lab> lab_;
  std::unique_ptr<timeline::Journal> journal_;
  std::vector<transport::LinkProfile> profiles_ = Profiles();
  int frame_ = 0;
};

TEST_F(LabLayoutTest, TheDefaultLabFitsTheDefaultWindow) {
  Open(1280, 720);
  Start(DefaultLabConfig(), false);
  for (const std::string& problem : Run(150)) ADD_FAILURE() << problem;
  ExpectTooltipsOnTheDisplay(1);
}

TEST_F(LabLayoutTest, TheTimeMachineFitsTheDefaultWindow) {
  Open(1280, 720);
  Start(DefaultLabConfig(), true);
  for (const std::string& problem : Run(300, TimePosition{250, 300, true, false, {}}))
    ADD_FAILURE() << problem;
}

// The crowd lab's server panel: the interest switch, player 1's bytes and the legend, with the wanderers
// left out of the clients' table.
TEST_F(LabLayoutTest, TheCrowdLabFitsTheDefaultWindow) {
  Open(1280, 720);
  Start(WithCrowd(DefaultLabConfig(), 40, 3), false);
  for (const std::string& problem : Run(150)) ADD_FAILURE() << problem;
}

// A comparison forked from the controls: five columns at 1600 x 900, the fork's line and "Leave the fork"
// in the server's; before the fork, its choices.
TEST_F(LabLayoutTest, AForkedComparisonFitsFiveColumns) {
  Open(1600, 900);
  std::vector<client::TechniqueSet> entries;
  for (const char* label : {"full", "fork-full", "predicted", "fork-predicted"}) {
    client::TechniqueSet set;
    set.label = label;
    set.settings = client::PresetSettings(std::string(label).ends_with("full") ? client::Preset::kFull
                                                                               : client::Preset::kPredicted);
    entries.push_back(set);
  }
  Start(CompareLabConfig(entries, {}, 1), true);
  const std::string fork = "500 ms view delay from frame 60";
  for (const std::string& problem : Run(300, TimePosition{250, 300, true, false, fork}))
    ADD_FAILURE() << problem;
  for (const std::string& problem : Draw(TimePosition{250, 300, true, true, {}}, {-FLT_MAX, -FLT_MAX}))
    ADD_FAILURE() << "the fork's choices: " << problem;
}

TEST(LanLayout, TheServerListFitsTheDefaultWindow) {
  std::unique_ptr<App> app = OpenHeadlessAppForInput(1280, 720);
  ASSERT_NE(app, nullptr);
  ClientScreenConfig config;
  config.client.name = "alice";
  ClientScreen screen(config, Micros(0));
  const ImVec2 display(1280.0F, 720.0F);
  InputFrame(*app, {});
  screen.Draw(ClientLayout::For(display), Micros(0), Profiles());
  app->DiscardFrame();
  for (const std::string& problem : Clipped(display)) ADD_FAILURE() << problem;
}

TEST(AppKeys, EscapeQuitsAsClosingTheWindowDoes) {
  std::unique_ptr<App> app = OpenHeadlessAppForInput(320, 240);
  ASSERT_NE(app, nullptr);
  EXPECT_TRUE(app->PollEvents());
  SDL_Event escape{};
  escape.type = SDL_KEYDOWN;
  escape.key.keysym.scancode = SDL_SCANCODE_ESCAPE;
  ASSERT_EQ(SDL_PushEvent(&escape), 1) << SDL_GetError();
  EXPECT_FALSE(app->PollEvents());
}

// The arrow starts where a ray from the cube's centre leaves the cube and its outline (1 point outside
// the square), not inside it.
TEST(CorrectionArrow, StartsAtTheCubesEdge) {
  std::unique_ptr<App> app = OpenHeadlessAppForInput(640, 480);
  ASSERT_NE(app, nullptr);
  InputFrame(*app, {});
  const ArenaMapping mapping = ArenaMapping::Fit({0.0F, 0.0F, 640.0F, 480.0F}, sim::kStandardArena);
  const float half = static_cast<float>(client::ToUnits(sim::kCubeHalf)) * mapping.pixels_per_unit();
  const client::Vec2 from{20.0, 20.0};
  const ImVec2 centre = mapping.ToScreen(from);
  struct Case {
    client::Vec2 step;
    float edge;  // in the square's (Chebyshev) measure from the centre
  };
  // Diagonally the line's width reaches back inside the outline, never inside the square.
  for (const Case& c : {Case{{3.0, 0.0}, half + 1.0F}, Case{{0.0, -3.0}, half + 1.0F},
                        Case{{-1.0, 0.0}, half + 1.0F}, Case{{2.0, 2.0}, half}}) {
    ImDrawList draw(ImGui::GetDrawListSharedData());
    draw._ResetForNewFrame();
    draw.PushClipRectFullScreen();
    DrawCorrectionArrow(draw, mapping, from, {from.x + c.step.x, from.y + c.step.y}, IM_COL32_WHITE);
    ASSERT_GT(draw.VtxBuffer.Size, 0);
    float nearest = FLT_MAX;
    for (const ImDrawVert& vertex : draw.VtxBuffer)
      nearest =
          std::min(nearest, std::max(std::abs(vertex.pos.x - centre.x), std::abs(vertex.pos.y - centre.y)));
    // ImGui moves a line half a point onto its pixels' centres.
    EXPECT_GE(nearest, c.edge - 0.51F) << c.step.x << ", " << c.step.y;
  }
  app->DiscardFrame();
}

}  // namespace
}  // namespace netcube::gui
