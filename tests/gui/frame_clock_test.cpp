// The pacer that keeps a watched lab in real time: how many lab frames each shown frame runs, and when it
// says the machine cannot keep up.
#include "netcube/gui/frame_clock.h"

#include <gtest/gtest.h>

namespace netcube::gui {
namespace {

// Shows frames every `period` for `seconds` of real time; the lab frames run in all.
std::int64_t ShowFrames(RealTimePacer& pacer, Micros period, double seconds, Micros start = Micros(0)) {
  std::int64_t run = 0;
  const Micros end = start + Micros(static_cast<std::int64_t>(seconds * 1e6));
  for (Micros now = start; now < end; now += period) run += pacer.Due(now);
  return run;
}

TEST(RealTimePacer, AtSixtyShownFramesASecondEachRunsOneLabFrame) {
  RealTimePacer pacer;
  EXPECT_EQ(pacer.Due(Micros(0)), 1);
  for (int frame = 1; frame < 600; ++frame) {
    ASSERT_EQ(pacer.Due(VirtualFrameTime(frame)), 1) << "frame " << frame;
  }
  EXPECT_DOUBLE_EQ(pacer.speed(), 1.0);
  EXPECT_EQ(pacer.SlowNotice(), "");
}

TEST(RealTimePacer, SlowFramesRunSeveralLabFramesAndKeepRealTime) {
  RealTimePacer pacer;
  // 20 shown frames a second (50 ms each): three lab frames a shown frame, 60 a second.
  const std::int64_t run = ShowFrames(pacer, Micros(50'000), 10.0);
  EXPECT_NEAR(static_cast<double>(run), 600.0, 3.0);
  EXPECT_GE(pacer.speed(), RealTimePacer::kSlowSpeed);
  EXPECT_EQ(pacer.SlowNotice(), "");
}

TEST(RealTimePacer, FramesFasterThanSixtyRunNoneBetweenLabFrames) {
  RealTimePacer pacer;
  // 144 shown frames a second: still 60 lab frames a second, some shown frames run none.
  const std::int64_t run = ShowFrames(pacer, Micros(6'944), 10.0);
  EXPECT_NEAR(static_cast<double>(run), 600.0, 2.0);
  EXPECT_EQ(pacer.SlowNotice(), "");
}

TEST(RealTimePacer, AMachineThatCannotKeepUpIsToldHowSlowItRuns) {
  RealTimePacer pacer;
  // 4 shown frames a second: at most kMaxFramesPerShown lab frames each (the first one), 16 a second, 27%
  // of real time.
  const std::int64_t run = ShowFrames(pacer, Micros(250'000), 10.0);
  EXPECT_EQ(run, 1 + 39 * RealTimePacer::kMaxFramesPerShown);
  EXPECT_NEAR(pacer.speed(), 16.0 / 60.0, 0.01);
  EXPECT_EQ(pacer.SlowNotice(), "running at 27% of real time: this machine cannot keep up");
  // When the frames speed up again the debt is not run in a rush, and the notice goes.
  EXPECT_LE(pacer.Due(Micros(10'250'000)), RealTimePacer::kMaxFramesPerShown);
  ShowFrames(pacer, Micros(16'667), 2.0, Micros(10'260'000));
  EXPECT_EQ(pacer.SlowNotice(), "");
}

TEST(RealTimePacer, ARestartOwesNothingForTheTimeBefore) {
  RealTimePacer pacer;
  ShowFrames(pacer, Micros(16'667), 1.0);
  pacer.Restart();
  // Five seconds later (a pause, a seek): the next frame runs one lab frame, not 300.
  EXPECT_EQ(pacer.Due(Micros(6'000'000)), 1);
  EXPECT_EQ(pacer.Due(Micros(6'016'667)), 1);
}

}  // namespace
}  // namespace netcube::gui
