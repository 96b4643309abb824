#pragma once
// Tags as the lab tells them: one line per judged tag saying what happened and whether the other setting
// of lag compensation would have decided differently ("hit thanks to 183 ms of rewind", "miss: 1.8 units
// off at server time").
#include <string>

#include "netcube/server/server.h"

namespace netcube::gui {

std::string DescribeTag(const server::TagRecord& tag);

}  // namespace netcube::gui
