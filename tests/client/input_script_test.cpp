#include "netcube/client/input_script.h"

#include <gtest/gtest.h>

#include <chrono>
#include <set>

#include "netcube/sim/move.h"

namespace netcube::client {
namespace {

using std::chrono::milliseconds;

TEST(InputScript, TimelineHoldsEachSegmentForItsDuration) {
  std::string error;
  const auto script = InputScript::Parse("R:100,-:50,UL:100", &error);
  ASSERT_TRUE(script) << error;
  EXPECT_EQ(script->length(), milliseconds(250));
  EXPECT_EQ(script->ButtonsAt(milliseconds(0), 1), sim::kRight);
  EXPECT_EQ(script->ButtonsAt(milliseconds(99), 1), sim::kRight);
  EXPECT_EQ(script->ButtonsAt(milliseconds(100), 1), 0);
  EXPECT_EQ(script->ButtonsAt(milliseconds(150), 1), sim::kUp | sim::kLeft);
  EXPECT_EQ(script->ButtonsAt(milliseconds(250), 1), 0);  // over
  EXPECT_EQ(script->ToString(), "R:100,-:50,UL:100");
}

TEST(InputScript, NamedScripts) {
  std::string error;
  const auto idle = InputScript::Parse("idle", &error);
  ASSERT_TRUE(idle);
  EXPECT_EQ(idle->length(), std::nullopt);
  EXPECT_EQ(idle->ButtonsAt(milliseconds(1234), 1), 0);

  const auto circle = InputScript::Parse("circle", &error);
  ASSERT_TRUE(circle);
  EXPECT_EQ(circle->ButtonsAt(milliseconds(0), 1), sim::kRight);
  EXPECT_EQ(circle->ButtonsAt(InputScript::kCircleSegment * 4, 1), sim::kLeft);
  EXPECT_EQ(circle->ButtonsAt(InputScript::kCircleSegment * 8, 1), sim::kRight);  // loops

  const auto random = InputScript::Parse("random", &error);
  ASSERT_TRUE(random);
  std::set<int> seen;
  bool players_differ = false;
  for (int i = 0; i < 200; ++i) {
    const Micros t = InputScript::kRandomSegment * i;
    const std::uint8_t b = random->ButtonsAt(t, 1);
    EXPECT_EQ(b & ~sim::kButtonMask, 0);
    EXPECT_EQ(b, random->ButtonsAt(t + milliseconds(1), 1));  // constant within a segment
    EXPECT_EQ(b, random->ButtonsAt(t, 1));                    // deterministic
    players_differ |= b != random->ButtonsAt(t, 2);
    seen.insert(b);
  }
  EXPECT_GE(seen.size(), 8u);
  EXPECT_TRUE(players_differ);
}

TEST(InputScript, BadScriptsAreRejectedWithAReason) {
  const char* bad[] = {"",       "R",      "R:",     "R:abc",        "R:0",  "R:-5",    "X:100",
                       "RR:100", "R:100,", ",R:100", "R:100,,L:100", ":100", "R:100ms", "R:99999999999"};
  for (const char* text : bad) {
    std::string error;
    EXPECT_FALSE(InputScript::Parse(text, &error)) << text;
    EXPECT_FALSE(error.empty()) << text;
  }
  std::string error;
  InputScript::Parse("R:100,Q:50", &error);
  EXPECT_NE(error.find("segment 2"), std::string::npos) << error;
  EXPECT_NE(error.find("'Q'"), std::string::npos) << error;
}

}  // namespace
}  // namespace netcube::client
