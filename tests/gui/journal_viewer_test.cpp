// netcube-client --open-journal's viewer in live ImGui frames: it lists every explanation the file saved (not
// only the newest kTimelineExplanations a running lab keeps), and a click on one, in the list or on its mark
// in the lanes, moves the viewer's cursor (the lanes' end) to it, as a click moves a lab's run.
#include "netcube/gui/journal_viewer.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "headless_app.h"
#include "netcube/timeline/journal_file.h"

namespace netcube::gui {
namespace {

constexpr int kWidth = 800;
constexpr int kHeight = 600;
constexpr int kSaved = 300;  // more than a running lab's list keeps
constexpr Micros kEvery{100'000};

// Explanation i (from 0) at (i + 1) / 10 s, of player1 and player2 in turn; the run ends at the newest, 30 s.
timeline::Explanation Glitch(int i) {
  timeline::Explanation e;
  e.time = kEvery * (i + 1);
  e.frame = e.time.count() * 60 / 1'000'000;
  e.client = static_cast<std::size_t>(i % 2);
  e.entry = e.client == 0 ? "player1" : "player2";
  e.kind = timeline::GlitchKind::kUnderrun;
  e.causes.push_back({timeline::CauseKind::kUnknown, "nothing in the journal accounts for it"});
  e.line = "glitch " + std::to_string(i) + ", " + e.entry + " runs out of snapshots to interpolate";
  return e;
}

timeline::SavedJournal Saved() {
  timeline::Journal journal(2, 16);
  journal.client(0).Add({Micros(0), 0, timeline::EventKind::kUnderrun});
  journal.client(1).Add({Micros(12'000'000), 720, timeline::EventKind::kUnderrun});
  std::vector<timeline::Explanation> explanations;
  for (int i = 0; i < kSaved; ++i) explanations.push_back(Glitch(i));
  std::string error;
  std::optional<timeline::SavedJournal> saved = timeline::DecodeJournalFile(
      timeline::EncodeJournalFile("netcube-client --lab", true, {"player1", "player2"}, {}, journal,
                                  explanations),
      &error);
  EXPECT_TRUE(saved) << error;
  return saved ? std::move(*saved) : timeline::SavedJournal{};
}

class JournalViewerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    app_ = OpenHeadlessAppForInput(kWidth, kHeight);
    ASSERT_NE(app_, nullptr);
  }

  void Frame(JournalViewer& viewer, const FrameInput& input) {
    InputFrame(*app_, input);
    viewer.Draw(static_cast<float>(kWidth), static_cast<float>(kHeight));
    app_->DiscardFrame();
  }

  // A viewer just opened, clicked once at `at` (after `wheel` turns of the wheel there): where its cursor
  // ends. Each click gets a fresh viewer, so a click elsewhere (the slider) does not move the next one's
  // lanes.
  Micros CursorAfterClick(ImVec2 at, float wheel = 0.0F) {
    JournalViewer viewer(saved_, "run.ncj");
    Frame(viewer, {});
    Frame(viewer, {.mouse = at, .wheel = wheel});
    Frame(viewer, {.mouse = at});
    Frame(viewer, {.mouse = at, .click = true});
    Frame(viewer, {.mouse = at});
    return viewer.cursor();
  }

  std::unique_ptr<App> app_;
  const timeline::SavedJournal saved_ = Saved();
};

TEST_F(JournalViewerTest, ListsEveryExplanationTheFileSaved) {
  JournalViewer viewer(saved_, "run.ncj");
  ASSERT_GT(static_cast<std::size_t>(kSaved), kTimelineExplanations);
  ASSERT_EQ(viewer.timeline().explanations().size(), static_cast<std::size_t>(kSaved));
  EXPECT_EQ(viewer.timeline().explanations().front().line, Glitch(0).line);
  EXPECT_EQ(viewer.cursor(), Glitch(kSaved - 1).time);
  // The list is newest first: scrolled to its end, its last line is the run's first glitch, and a click on it
  // moves the cursor there. From the bottom up, the first click that moves the cursor is on that line.
  const float x = 100.0F;
  std::optional<Micros> moved;
  for (float y = static_cast<float>(kHeight) - 1.0F; y > 0.0F && !moved; y -= 2.0F) {
    const Micros cursor = CursorAfterClick({x, y}, -1000.0F);
    if (cursor != viewer.cursor()) moved = cursor;
  }
  ASSERT_TRUE(moved);
  EXPECT_EQ(*moved, Glitch(0).time);
}

TEST_F(JournalViewerTest, AClickOnAGlitchsMarkInTheLanesMovesTheCursorToIt) {
  // Opened at the run's end (30 s), the lanes span 20 to 30 s: glitch 249 (player2's, at 25 s) is in their
  // middle. A click just beside its mark goes to its own time; elsewhere in the lanes, to the time under the
  // mouse (not exactly 25 s), on the slider to where the slider says.
  const timeline::Explanation target = Glitch(249);
  ASSERT_EQ(target.time, Micros(25'000'000));
  ASSERT_EQ(target.client, 1U);
  const float padding = ImGui::GetStyle().WindowPadding.x;
  const float lanes_width = static_cast<float>(kWidth) - 2.0F * padding - 70.0F;
  const float x = padding + 70.0F + lanes_width * 0.5F + 2.0F;
  bool found = false;
  for (float y = static_cast<float>(kHeight) - 1.0F; y > 0.0F && !found; y -= 2.0F)
    found = CursorAfterClick({x, y}) == target.time;
  EXPECT_TRUE(found) << "no click beside the mark at 25 s went there";
}

}  // namespace
}  // namespace netcube::gui
