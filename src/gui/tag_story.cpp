#include "netcube/gui/tag_story.h"

#include <cmath>
#include <cstdio>

#include "netcube/sim/move.h"

namespace netcube::gui {
namespace {

double Units(double sub_units) { return sub_units / sim::kSubUnitsPerUnit; }

// "N units off <when>", or "no cube in reach" when the arena held no other cube.
std::string Off(const server::RayVerdict& verdict, const char* when) {
  if (!verdict.has_nearest) return "no cube in reach";
  char text[64];
  std::snprintf(text, sizeof text, "%.1f units off %s", Units(verdict.clearance), when);
  return text;
}

}  // namespace

std::string DescribeTag(const server::TagRecord& tag) {
  const long rewind = std::lround(tag.rewind_ms);
  const bool with = tag.rewound.hit.has_value();
  const bool without = tag.present.hit.has_value();
  char text[160];
  if (tag.lag_compensation) {
    if (with && !without) {
      std::snprintf(text, sizeof text, "hit thanks to %ld ms of rewind", rewind);
    } else if (with) {
      std::snprintf(text, sizeof text, "hit (%ld ms of rewind; a hit at server time too)", rewind);
    } else if (without) {
      std::snprintf(text, sizeof text, "miss: %s (%ld ms back; a hit at server time)",
                    Off(tag.rewound, "as drawn").c_str(), rewind);
    } else {
      std::snprintf(text, sizeof text, "miss: %s (%ld ms back)", Off(tag.rewound, "as drawn").c_str(),
                    rewind);
    }
  } else {
    if (without && !with) {
      std::snprintf(text, sizeof text, "hit at server time, %s", Off(tag.rewound, "as drawn").c_str());
    } else if (without) {
      std::snprintf(text, sizeof text, "hit (a hit with rewind too)");
    } else if (with) {
      std::snprintf(text, sizeof text, "miss: %s (%ld ms of rewind would have hit)",
                    Off(tag.present, "at server time").c_str(), rewind);
    } else {
      std::snprintf(text, sizeof text, "miss: %s", Off(tag.present, "at server time").c_str());
    }
  }
  std::string story = text;
  if (tag.capped) story += ", claim capped";
  return story;
}

}  // namespace netcube::gui
