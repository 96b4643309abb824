#include "netcube/client/smoothing.h"

#include <gtest/gtest.h>

namespace netcube::client {
namespace {

constexpr Micros kFrame{1000};

TEST(CorrectionSmoother, TheDrawnPositionDoesNotJumpAtACorrection) {
  CorrectionSmoother s;
  const Vec2 before{10.0, 5.0};
  const Vec2 after{12.0, 4.0};  // reconciliation moved the prediction
  s.OnCorrection(after - before, true, 100);
  const Vec2 drawn = after + s.offset();
  EXPECT_DOUBLE_EQ(drawn.x, before.x);
  EXPECT_DOUBLE_EQ(drawn.y, before.y);
}

TEST(CorrectionSmoother, ConvergesWithinTheSmoothingTimeAndMovesContinuously) {
  CorrectionSmoother s;
  s.OnCorrection({1.0, 0.0}, true, 100);  // a one-unit correction
  double previous = Length(s.offset());
  int frames = 0;
  while (Length(s.offset()) > 0.0) {
    s.Advance(kFrame, 100);
    const double now = Length(s.offset());
    EXPECT_LE(now, previous);
    EXPECT_LE(previous - now, kSnapThresholdUnits + 0.031 * previous);  // a few percent per 1 ms frame
    previous = now;
    ++frames;
    ASSERT_LT(frames, 1000);
    if (frames == 50) {
      EXPECT_GT(Length(s.offset()), 0.1);  // halfway: still visibly smoothing
    }
  }
  EXPECT_GE(frames, 90);
  EXPECT_LE(frames, 100);  // 1 unit decays to the snap threshold within smoothing_ms
}

TEST(CorrectionSmoother, LongerSmoothingTakesLonger) {
  CorrectionSmoother fast;
  CorrectionSmoother slow;
  fast.OnCorrection({0.0, 2.0}, true, 50);
  slow.OnCorrection({0.0, 2.0}, true, 400);
  for (int i = 0; i < 150; ++i) {
    fast.Advance(kFrame, 50);
    slow.Advance(kFrame, 400);
  }
  EXPECT_EQ(Length(fast.offset()), 0.0);
  EXPECT_GT(Length(slow.offset()), 0.5);
}

TEST(CorrectionSmoother, TinyCorrectionsSnap) {
  CorrectionSmoother s;
  s.OnCorrection({kSnapThresholdUnits * 0.8, 0.0}, true, 100);
  EXPECT_EQ(s.offset(), Vec2{});
}

TEST(CorrectionSmoother, CorrectionsAccumulate) {
  CorrectionSmoother s;
  s.OnCorrection({1.0, 0.0}, true, 100);
  s.OnCorrection({1.0, 0.0}, true, 100);
  EXPECT_DOUBLE_EQ(s.offset().x, -2.0);
  s.OnCorrection({-2.0, 0.0}, true, 100);  // back where the drawn cube is
  EXPECT_EQ(s.offset(), Vec2{});
}

TEST(CorrectionSmoother, OffOrZeroTimeSnaps) {
  CorrectionSmoother s;
  s.OnCorrection({3.0, 0.0}, false, 100);
  EXPECT_EQ(s.offset(), Vec2{});
  s.OnCorrection({3.0, 0.0}, true, 0);
  EXPECT_EQ(s.offset(), Vec2{});
  s.OnCorrection({3.0, 0.0}, true, 100);
  s.Advance(kFrame, 0);
  EXPECT_EQ(s.offset(), Vec2{});
}

}  // namespace
}  // namespace netcube::client
