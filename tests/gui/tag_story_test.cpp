#include "netcube/gui/tag_story.h"

#include <gtest/gtest.h>

namespace netcube::gui {
namespace {

// A hit on cube 2, or a miss that passed `units` from it.
server::RayVerdict Verdict(bool hit, double units) {
  server::RayVerdict verdict;
  if (hit) {
    verdict.hit = 2;
  } else {
    verdict.has_nearest = true;
    verdict.nearest = 2;
    verdict.clearance = units * sim::kSubUnitsPerUnit;
  }
  return verdict;
}

// Rewound misses pass 0.5 units off, present ones 1.8.
server::TagRecord Record(bool compensation, bool rewound_hit, bool present_hit) {
  server::TagRecord tag;
  tag.lag_compensation = compensation;
  tag.rewind_ms = 183.4;
  tag.rewound = Verdict(rewound_hit, 0.5);
  tag.present = Verdict(present_hit, 1.8);
  return tag;
}

TEST(TagStory, SaysWhetherTheOtherSettingWouldHaveDecidedDifferently) {
  EXPECT_EQ(DescribeTag(Record(true, true, false)), "hit thanks to 183 ms of rewind");
  EXPECT_EQ(DescribeTag(Record(true, true, true)), "hit (183 ms of rewind; a hit at server time too)");
  EXPECT_EQ(DescribeTag(Record(true, false, false)), "miss: 0.5 units off as drawn (183 ms back)");
  EXPECT_EQ(DescribeTag(Record(false, true, false)),
            "miss: 1.8 units off at server time (183 ms of rewind would have hit)");
  EXPECT_EQ(DescribeTag(Record(false, false, true)), "hit at server time, 0.5 units off as drawn");
  server::TagRecord capped = Record(true, true, false);
  capped.capped = true;
  EXPECT_EQ(DescribeTag(capped), "hit thanks to 183 ms of rewind, claim capped");
}

}  // namespace
}  // namespace netcube::gui
