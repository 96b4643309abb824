#include "netcube/sim/move.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

namespace netcube::sim {
namespace {

constexpr CubeState kCentre{};

// Button combinations are ints after `|`; inputs carry them as bytes.
constexpr std::uint8_t Keys(int buttons) { return static_cast<std::uint8_t>(buttons); }

std::int64_t SpeedSquared(const CubeState& s) {
  return std::int64_t{s.vx} * s.vx + std::int64_t{s.vy} * s.vy;
}

CubeState Hold(CubeState s, std::uint8_t buttons, int ticks) {
  for (int i = 0; i < ticks; ++i) s = Move(s, {static_cast<Seq>(i), buttons}, kStandardArena);
  return s;
}

void ExpectInsideArena(const CubeState& s) {
  EXPECT_GE(s.x, kStandardArena.min_x());
  EXPECT_LE(s.x, kStandardArena.max_x());
  EXPECT_GE(s.y, kStandardArena.min_y());
  EXPECT_LE(s.y, kStandardArena.max_y());
}

TEST(Move, EachDirectionAcceleratesTheRightWay) {
  struct Case {
    std::uint8_t buttons;
    std::int32_t dir_x;
    std::int32_t dir_y;
  };
  // Screen convention: Up decreases y.
  for (const Case c : {Case{kRight, 1, 0}, Case{kLeft, -1, 0}, Case{kUp, 0, -1}, Case{kDown, 0, 1}}) {
    const CubeState s = Move(kCentre, {1, c.buttons}, kStandardArena);
    EXPECT_EQ(s.vx, c.dir_x * kAcceleration);
    EXPECT_EQ(s.vy, c.dir_y * kAcceleration);
    EXPECT_EQ(s.x, kCentre.x + c.dir_x * kAcceleration);
    EXPECT_EQ(s.y, kCentre.y + c.dir_y * kAcceleration);

    const CubeState later = Move(s, {2, c.buttons}, kStandardArena);
    EXPECT_EQ(later.vx, 2 * c.dir_x * kAcceleration);
    EXPECT_EQ(later.vy, 2 * c.dir_y * kAcceleration);
  }
}

TEST(Move, StraightSpeedIsCappedAtMaxSpeed) {
  for (const std::uint8_t b : {Keys(kRight), Keys(kLeft), Keys(kUp), Keys(kDown)}) {
    const CubeState s = Hold(kCentre, b, 20);
    EXPECT_EQ(SpeedSquared(s), std::int64_t{kMaxSpeed} * kMaxSpeed);
  }
}

TEST(Move, DiagonalIsCappedAndNeverFasterThanStraight) {
  for (const std::uint8_t d :
       {Keys(kUp | kLeft), Keys(kUp | kRight), Keys(kDown | kLeft), Keys(kDown | kRight)}) {
    const std::uint8_t straight = (d & kLeft) ? kLeft : kRight;
    CubeState diag = kCentre;
    CubeState line = kCentre;
    // 90 ticks at full diagonal speed stay clear of the walls from the centre.
    for (int i = 0; i < 90; ++i) {
      diag = Move(diag, {static_cast<Seq>(i), d}, kStandardArena);
      line = Move(line, {static_cast<Seq>(i), straight}, kStandardArena);
      ASSERT_LE(SpeedSquared(diag), std::int64_t{kMaxSpeed} * kMaxSpeed) << "tick " << i;
      ASSERT_LE(SpeedSquared(diag), SpeedSquared(line)) << "tick " << i;
      ASSERT_NE(diag.vx, 0);
      ASSERT_NE(diag.vy, 0);
      ASSERT_EQ(diag.vx > 0, (d & kRight) != 0);
      ASSERT_EQ(diag.vy > 0, (d & kDown) != 0);
    }
    // Symmetric: both axes move equally fast.
    EXPECT_EQ(std::abs(diag.vx), std::abs(diag.vy));
  }
}

TEST(Move, WallsStopTheCube) {
  struct Case {
    std::uint8_t buttons;
    CubeState start;
  };
  const Case cases[] = {
      {kRight, {kStandardArena.max_x() - 10, kCentre.y, kMaxSpeed, 0, 0}},
      {kLeft, {kStandardArena.min_x() + 10, kCentre.y, -kMaxSpeed, 0, 0}},
      {kUp, {kCentre.x, kStandardArena.min_y() + 10, 0, -kMaxSpeed, 0}},
      {kDown, {kCentre.x, kStandardArena.max_y() - 10, 0, kMaxSpeed, 0}},
  };
  for (const Case& c : cases) {
    const CubeState s = Move(c.start, {1, c.buttons}, kStandardArena);
    ExpectInsideArena(s);
    EXPECT_EQ(s.vx, 0);
    EXPECT_EQ(s.vy, 0);
    EXPECT_TRUE(s.x == kStandardArena.min_x() || s.x == kStandardArena.max_x() ||
                s.y == kStandardArena.min_y() || s.y == kStandardArena.max_y());
    // Pressing on stays pinned at the wall.
    const CubeState pinned = Hold(s, c.buttons, 30);
    EXPECT_EQ(pinned.x, s.x);
    EXPECT_EQ(pinned.y, s.y);
  }
}

TEST(Move, CornerStopsBothAxes) {
  const CubeState s = Hold(kCentre, Keys(kDown | kRight), 600);
  EXPECT_EQ(s.x, kStandardArena.max_x());
  EXPECT_EQ(s.y, kStandardArena.max_y());
  EXPECT_LE(std::abs(s.vx), kAcceleration);  // re-accelerates one tick's worth, then the wall again
  const CubeState next = Move(s, {1, Keys(kDown | kRight)}, kStandardArena);
  EXPECT_EQ(next.x, kStandardArena.max_x());
  EXPECT_EQ(next.y, kStandardArena.max_y());
  EXPECT_EQ(next.vx, 0);
  EXPECT_EQ(next.vy, 0);
}

TEST(Move, NeverLeavesTheArenaUnderLongRandomInput) {
  std::mt19937_64 rng(20240601);
  CubeState s = kCentre;
  int wall_contacts = 0;
  int tick = 0;
  while (tick < 100000) {
    // Keys held for a random while, so the cube reaches full speed and hits the walls.
    const auto buttons = static_cast<std::uint8_t>(rng() & kButtonMask);
    const int hold = static_cast<int>(rng() % 90) + 1;
    for (int t = 0; t < hold; ++t, ++tick) {
      s = Move(s, {static_cast<Seq>(tick), buttons}, kStandardArena);
      ASSERT_GE(s.x, kStandardArena.min_x());
      ASSERT_LE(s.x, kStandardArena.max_x());
      ASSERT_GE(s.y, kStandardArena.min_y());
      ASSERT_LE(s.y, kStandardArena.max_y());
      ASSERT_LE(SpeedSquared(s), std::int64_t{kMaxSpeed} * kMaxSpeed);
      if (s.x == kStandardArena.min_x() || s.x == kStandardArena.max_x() || s.y == kStandardArena.min_y() ||
          s.y == kStandardArena.max_y())
        ++wall_contacts;
    }
  }
  EXPECT_GT(wall_contacts, 100);
}

TEST(Move, FrictionBringsTheCubeExactlyToRest) {
  for (const std::uint8_t b :
       {Keys(kRight), Keys(kLeft), Keys(kUp), Keys(kDown), Keys(kUp | kRight), Keys(kDown | kLeft)}) {
    CubeState s = Hold(kCentre, b, 30);
    ASSERT_GT(SpeedSquared(s), 0);
    // Friction removes kFriction per tick on each axis: at most ceil(kMaxSpeed / kFriction) ticks.
    constexpr int kBound = (kMaxSpeed + kFriction - 1) / kFriction;
    int ticks = 0;
    while ((s.vx != 0 || s.vy != 0) && ticks <= kBound) {
      s = Move(s, {1, 0}, kStandardArena);
      ++ticks;
    }
    EXPECT_LE(ticks, kBound);
    EXPECT_EQ(s.vx, 0);
    EXPECT_EQ(s.vy, 0);
    const CubeState rest = Hold(s, 0, 10);
    EXPECT_TRUE(SamePhysics(rest, s));
  }
}

TEST(Move, FrictionActsOnlyOnTheReleasedAxis) {
  CubeState s = Hold(kCentre, kRight, 30);
  ASSERT_EQ(s.vx, kMaxSpeed);
  s = Move(s, {1, kUp}, kStandardArena);
  EXPECT_EQ(s.vx, kMaxSpeed - kFriction);
  EXPECT_EQ(s.vy, -kAcceleration);
}

TEST(Move, OppositeKeysCancel) {
  const CubeState moving = Hold(kCentre, Keys(kDown | kRight), 7);
  const std::uint8_t all = kButtonMask;
  const std::uint8_t left_right = Keys(kLeft | kRight);
  const std::uint8_t up_down = Keys(kUp | kDown);
  for (const CubeState& start : {kCentre, moving}) {
    const CubeState released = Move(start, {3, 0}, kStandardArena);
    EXPECT_TRUE(SamePhysics(Move(start, {3, all}, kStandardArena), released));
    EXPECT_TRUE(SamePhysics(Move(start, {3, left_right}, kStandardArena), released));
    EXPECT_TRUE(SamePhysics(Move(start, {3, up_down}, kStandardArena), released));
    EXPECT_TRUE(SamePhysics(Move(start, {3, Keys(left_right | kDown)}, kStandardArena),
                            Move(start, {3, kDown}, kStandardArena)));
    EXPECT_TRUE(SamePhysics(Move(start, {3, Keys(up_down | kLeft)}, kStandardArena),
                            Move(start, {3, kLeft}, kStandardArena)));
  }
  EXPECT_TRUE(SamePhysics(Move(kCentre, {3, all}, kStandardArena), kCentre));
}

TEST(Move, ReplayingTheSameInputsGivesTheSameState) {
  std::mt19937_64 rng(7);
  std::vector<Input> inputs;
  for (int i = 0; i < 3000; ++i) {
    inputs.push_back({static_cast<Seq>(i), static_cast<std::uint8_t>(rng() & kButtonMask)});
  }
  const CubeState start{1500, 30000, -100, 200, 9};
  CubeState a = start;
  CubeState b = start;
  for (const Input& in : inputs) a = Move(a, in, kStandardArena);
  for (const Input& in : inputs) b = Move(b, in, kStandardArena);
  EXPECT_EQ(a, b);
  EXPECT_EQ(HashState(a), HashState(b));
}

TEST(Move, SetsLastInputToTheInputsSequence) {
  EXPECT_EQ(Move(kCentre, {42, kLeft}, kStandardArena).last_input, 42);
  EXPECT_EQ(Move(kCentre, {65535, 0}, kStandardArena).last_input, 65535);
  EXPECT_EQ(Move(Move(kCentre, {65535, 0}, kStandardArena), {0, 0}, kStandardArena).last_input, 0);
  // last_input is bookkeeping: it changes the hash but not the physics.
  const CubeState a = Move(kCentre, {1, kUp}, kStandardArena);
  const CubeState b = Move(kCentre, {2, kUp}, kStandardArena);
  EXPECT_TRUE(SamePhysics(a, b));
  EXPECT_NE(HashState(a), HashState(b));
}

TEST(Move, IgnoresBitsOutsideTheButtonMask) {
  const CubeState s = Hold(kCentre, kRight, 5);
  EXPECT_EQ(Move(s, {1, Keys(0xF0 | kUp)}, kStandardArena), Move(s, {1, kUp}, kStandardArena));
}

}  // namespace
}  // namespace netcube::sim
