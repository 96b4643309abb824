#pragma once
// --explain: one JSON object per line for each explained glitch (docs/LAB.md, "Explanations"): frame,
// time_ms, client (from 1, as the lab numbers its players), entry, kind, size, visible, subject, the line,
// and its causes with their numbers and the journal event each rests on.
#include <string>

#include "netcube/timeline/explainer.h"

namespace netcube::apps {

std::string ExplanationJson(const timeline::Explanation& explanation);

}  // namespace netcube::apps
