#pragma once
// A comparison as a picture (netcube-client --compare --plot): one colour per compared entry, three
// panels over the same time axis: the own cube's error against the server, the remote cubes' error
// against the truth, and the delay from each key press to the drawn cube's first motion.
#include <imgui.h>

#include <span>
#include <string>
#include <vector>

#include "netcube/client/frame_sample.h"
#include "netcube/gui/arena.h"
#include "netcube/gui/theme.h"

namespace netcube::gui {

struct PlotSeries {
  std::string label;
  std::vector<client::FrameSample> samples;  // in frame order
  client::SampleSummary summary;             // client::Summarize(samples): the panels' headers
};

// The colour of entry `index` in the plot (PlayerColour of ids 0, 1, ...).
Rgb SeriesColour(std::size_t index) noexcept;

// Draws the five panels (what prediction, reconciliation and interpolation buy and cost), their axes and
// the legend into `area`; each panel's header gives each entry's figures from its summary.
void DrawComparePlot(ImDrawList& draw, const Rect& area, std::span<const PlotSeries> series,
                     const std::string& title);

}  // namespace netcube::gui
