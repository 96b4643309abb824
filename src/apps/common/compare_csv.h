#pragma once
// The comparison's CSV (--csv): a header, then one row per frame and client. The columns are listed in
// the README ("Compare the builds").
#include <string>

#include "netcube/client/frame_sample.h"

namespace netcube::apps {

std::string CompareCsvHeader();
// `entry` names the client (its label); `techniques` its toggles (client::TechniquesOf).
std::string CompareCsvRow(const std::string& entry, const std::string& techniques, const client::FrameSample& s);

}  // namespace netcube::apps
