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
  for (int i = 0; i < ticks; ++i) s = Move(s, {static_cast<Seq>(i), buttons});
  return s;
}

void ExpectInsideArena(const CubeState& s) {
  EXPECT_GE(s.x, kMinX);
  EXPECT_LE(s.x, kMaxX);
  EXPECT_GE(s.y, kMinY);
  EXPECT_LE(s.y, kMaxY);
}

TEST(Move, EachDirectionAcceleratesTheRightWay) {
  struct Case {
    std::uint8_t buttons;
    std::int32_t dir_x;
    std::int32_t dir_y;
  };
  // Screen convention: Up decreases y.
  for (const Case c : {Case{kRight, 1, 0}, Case{kLeft, -1, 0}, Case{kUp, 0, -1}, Case{kDown, 0, 1}}) {
    const CubeState s = Move(kCentre, {1, c.buttons});
    EXPECT_EQ(s.vx, c.dir_x * kAcceleration);
    EXPECT_EQ(s.vy, c.dir_y * kAcceleration);
    EXPECT_EQ(s.x, kCentre.x + c.dir_x * kAcceleration);
    EXPECT_EQ(s.y, kCentre.y + c.dir_y * kAcceleration);

    const CubeState later = Move(s, {2, c.buttons});
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
      diag = Move(diag, {static_cast<Seq>(i), d});
      line = Move(line, {static_cast<Seq>(i), straight});
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
      {kRight, {kMaxX - 10, kCentre.y, kMaxSpeed, 0, 0}},
      {kLeft, {kMinX + 10, kCentre.y, -kMaxSpeed, 0, 0}},
      {kUp, {kCentre.x, kMinY + 10, 0, -kMaxSpeed, 0}},
      {kDown, {kCentre.x, kMaxY - 10, 0, kMaxSpeed, 0}},
  };
  for (const Case& c : cases) {
    const CubeState s = Move(c.start, {1, c.buttons});
    ExpectInsideArena(s);
    EXPECT_EQ(s.vx, 0);
    EXPECT_EQ(s.vy, 0);
    EXPECT_TRUE(s.x == kMinX || s.x == kMaxX || s.y == kMinY || s.y == kMaxY);
    // Pressing on stays pinned at the wall.
    const CubeState pinned = Hold(s, c.buttons, 30);
    EXPECT_EQ(pinned.x, s.x);
    EXPECT_EQ(pinned.y, s.y);
  }
}

TEST(Move, CornerStopsBothAxes) {
  const CubeState s = Hold(kCentre, Keys(kDown | kRight), 600);
  EXPECT_EQ(s.x, kMaxX);
  EXPECT_EQ(s.y, kMaxY);
  EXPECT_LE(std::abs(s.vx), kAcceleration);  // re-accelerates one tick's worth, then the wall again
  const CubeState next = Move(s, {1, Keys(kDown | kRight)});
  EXPECT_EQ(next.x, kMaxX);
  EXPECT_EQ(next.y, kMaxY);
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
      s = Move(s, {static_cast<Seq>(tick), buttons});
      ASSERT_GE(s.x, kMinX);
      ASSERT_LE(s.x, kMaxX);
      ASSERT_GE(s.y, kMinY);
      ASSERT_LE(s.y, kMaxY);
      ASSERT_LE(SpeedSquared(s), std::int64_t{kMaxSpeed} * kMaxSpeed);
      if (s.x == kMinX || s.x == kMaxX || s.y == kMinY || s.y == kMaxY) ++wall_contacts;
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
      s = Move(s, {1, 0});
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
  s = Move(s, {1, kUp});
  EXPECT_EQ(s.vx, kMaxSpeed - kFriction);
  EXPECT_EQ(s.vy, -kAcceleration);
}

TEST(Move, OppositeKeysCancel) {
  const CubeState moving = Hold(kCentre, Keys(kDown | kRight), 7);
  const std::uint8_t all = kButtonMask;
  const std::uint8_t left_right = Keys(kLeft | kRight);
  const std::uint8_t up_down = Keys(kUp | kDown);
  for (const CubeState& start : {kCentre, moving}) {
    const CubeState released = Move(start, {3, 0});
    EXPECT_TRUE(SamePhysics(Move(start, {3, all}), released));
    EXPECT_TRUE(SamePhysics(Move(start, {3, left_right}), released));
    EXPECT_TRUE(SamePhysics(Move(start, {3, up_down}), released));
    EXPECT_TRUE(SamePhysics(Move(start, {3, Keys(left_right | kDown)}), Move(start, {3, kDown})));
    EXPECT_TRUE(SamePhysics(Move(start, {3, Keys(up_down | kLeft)}), Move(start, {3, kLeft})));
  }
  EXPECT_TRUE(SamePhysics(Move(kCentre, {3, all}), kCentre));
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
  for (const Input& in : inputs) a = Move(a, in);
  for (const Input& in : inputs) b = Move(b, in);
  EXPECT_EQ(a, b);
  EXPECT_EQ(HashState(a), HashState(b));
}

TEST(Move, SetsLastInputToTheInputsSequence) {
  EXPECT_EQ(Move(kCentre, {42, kLeft}).last_input, 42);
  EXPECT_EQ(Move(kCentre, {65535, 0}).last_input, 65535);
  EXPECT_EQ(Move(Move(kCentre, {65535, 0}), {0, 0}).last_input, 0);
  // last_input is bookkeeping: it changes the hash but not the physics.
  const CubeState a = Move(kCentre, {1, kUp});
  const CubeState b = Move(kCentre, {2, kUp});
  EXPECT_TRUE(SamePhysics(a, b));
  EXPECT_NE(HashState(a), HashState(b));
}

TEST(Move, IgnoresBitsOutsideTheButtonMask) {
  const CubeState s = Hold(kCentre, kRight, 5);
  EXPECT_EQ(Move(s, {1, Keys(0xF0 | kUp)}), Move(s, {1, kUp}));
}

// A delta snapshot's prediction runs MoveRepeated on the server and on every client: it must equal the
// Moves one by one, bit for bit, wherever the cube is (walls, corners, out of range) and however it moves.
TEST(MoveRepeated, EqualsMovingOneTickAtATimeAndStepsABoundedNumberOfMoves) {
  std::mt19937 rng(2026);
  const auto pick = [&rng](std::int32_t lo, std::int32_t hi) {
    return std::uniform_int_distribution<std::int32_t>(lo, hi)(rng);
  };
  std::uint64_t most_stepped = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    CubeState start;
    // Anywhere, or near a wall (where glides end), with any velocity, some beyond the speed cap.
    const int place = trial % 3;
    start.x =
        place == 0 ? pick(kMinX, kMaxX) : (trial % 2 ? pick(kMinX, kMinX + 3000) : pick(kMaxX - 3000, kMaxX));
    start.y = place == 1 ? pick(kMinY, kMaxY)
                         : (trial % 5 < 2 ? pick(kMinY, kMinY + 3000) : pick(kMaxY - 3000, kMaxY));
    start.vx = pick(-2 * kMaxSpeed, 2 * kMaxSpeed);
    start.vy = pick(-2 * kMaxSpeed, 2 * kMaxSpeed);
    start.buttons = static_cast<std::uint8_t>(pick(0, kButtonMask));
    start.last_input = static_cast<Seq>(pick(0, 65535));
    start.held_since = static_cast<Seq>(pick(0, 65535));
    const Input input{static_cast<Seq>(pick(0, 65535)), static_cast<std::uint8_t>(pick(0, 255))};
    const int count = pick(0, 330);
    CubeState one_by_one = start;
    for (int k = 0; k < count; ++k) one_by_one = Move(one_by_one, input);
    std::uint64_t stepped = 0;
    ASSERT_EQ(MoveRepeated(start, input, count, &stepped), one_by_one)
        << "trial " << trial << ", count " << count;
    most_stepped = std::max(most_stepped, stepped);
  }
  // A change of speed settles within ~55 Moves and a held direction meets two walls at most.
  EXPECT_LE(most_stepped, 3u * 55u);
}

TEST(MoveRepeated, AGlideAtFullSpeedCostsAFewMovesWhateverItsLength) {
  const CubeState cruising = Hold(CubeState{kMinX, kArenaHeight / 2, 0, 0}, kRight, 20);
  ASSERT_EQ(cruising.vx, kMaxSpeed);
  std::uint64_t stepped = 0;
  const CubeState later = MoveRepeated(cruising, {7, kRight}, 200, &stepped);
  CubeState expected = cruising;
  for (int k = 0; k < 200; ++k) expected = Move(expected, {7, kRight});
  EXPECT_EQ(later, expected);
  EXPECT_LE(stepped, 4u);
}

}  // namespace
}  // namespace netcube::sim
