#pragma once
// The comparison's CSV (--csv): a header, then one row per frame and client. The columns are listed in
// docs/COMPARE.md ("The CSV"). And the run's figures as printed at its end.
#include <string>

#include "netcube/client/frame_sample.h"

namespace netcube::apps {

std::string CompareCsvHeader();
// `entry` names the client (its label); `techniques` its toggles (client::TechniquesOf). A value the frame
// does not have (the own cube before it is present, the remote error with no remote cube drawn, the delay
// on a frame that ends no press) is an empty cell, so the CSV's means are the plot's.
std::string CompareCsvRow(const std::string& entry, const std::string& techniques,
                          const client::FrameSample& s);

// One line per figure of client::Summarize, e.g. "naive: own error mean 0.88 p99 2.75 units (694 frames)".
std::string SummaryText(const std::string& entry, const client::SampleSummary& summary);

}  // namespace netcube::apps
