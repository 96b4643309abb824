// The lab's per-frame work on a starved machine: game time keeps to the real clock when shown frames are
// slow (several lab frames a shown frame), and the lab says on screen how far behind it runs when even
// that cannot keep up. Real time is virtual here: each shown frame is said to come a fixed time apart.
#include "lab_loop.h"

#include <gtest/gtest.h>

#include <string>

namespace netcube::apps {
namespace {

struct Starved {
  std::uint32_t ticks = 0;  // the lab server's ticks over the run
  std::string notice;       // beside the server's title at the end
};

// The default lab with both players driven by scripts (no keyboard).
LabRunOptions Scripted() {
  LabRunOptions options;
  std::string error;
  options.scripts = {client::InputScript::Parse("circle", &error),
                     client::InputScript::Parse("random", &error)};
  return options;
}

// Runs the default lab for `seconds` of real time with a shown frame every `frame_period`.
Starved RunStarved(Micros frame_period, double seconds) {
  LabRunOptions options = Scripted();
  std::string error;
  int exit_code = 0;
  std::unique_ptr<LabLoop> loop = LabLoop::Create(options, {}, &error, &exit_code);
  EXPECT_NE(loop, nullptr) << error;
  if (loop == nullptr) return {};
  const std::uint32_t start = loop->lab().server().tick();
  const Micros end(static_cast<std::int64_t>(seconds * 1e6));
  for (Micros now{0}; now < end; now += frame_period) loop->Update(now);
  return {loop->lab().server().tick() - start, loop->Notice()};
}

TEST(LabLoop, TwentyShownFramesASecondStillRunSixtyTicksASecond) {
  const Starved run = RunStarved(Micros(50'000), 3.0);
  EXPECT_NEAR(static_cast<double>(run.ticks), 180.0, 3.0);
  EXPECT_EQ(run.notice, "");
}

TEST(LabLoop, AMachineThatCannotKeepUpSaysSoOnScreen) {
  // 4 shown frames a second: 4 lab frames each at most, 16 of 60 a second.
  const Starved run = RunStarved(Micros(250'000), 3.0);
  EXPECT_NEAR(static_cast<double>(run.ticks), 3.0 * 16.0, 5.0);
  EXPECT_EQ(run.notice, "running at 27% of real time: this machine cannot keep up");
}

TEST(LabLoop, OnTheVirtualClockEachShownFrameIsOneLabFrame) {
  LabRunOptions options = Scripted();
  std::string error;
  int exit_code = 0;
  std::unique_ptr<LabLoop> loop = LabLoop::Create(options, {}, &error, &exit_code);
  ASSERT_NE(loop, nullptr) << error;
  for (int frame = 0; frame < 30; ++frame) loop->UpdateOneFrame();
  EXPECT_EQ(loop->original().frame(), 29);
  EXPECT_EQ(loop->Notice(), "");
}

TEST(LabLoop, ABadLinkScriptIsABadOption) {
  LabRunOptions options;
  std::string error;
  options.link_script = *timeline::ParseLinkScript("2s blackout 400ms client 5", &error);
  int exit_code = 0;
  EXPECT_EQ(LabLoop::Create(options, {}, &error, &exit_code), nullptr);
  EXPECT_EQ(exit_code, 2);
  EXPECT_NE(error.find("bad --link-script"), std::string::npos) << error;
}

}  // namespace
}  // namespace netcube::apps
