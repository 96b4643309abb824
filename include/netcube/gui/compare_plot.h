#pragma once
// A comparison as a picture (netcube-client --compare --plot): one colour, marker and stretch of a striped
// line per compared entry, and for each technique some entries use and others do not, what it buys beside
// what it costs, over the same time axis.
#include <imgui.h>

#include <span>
#include <string>
#include <vector>

#include "netcube/client/frame_sample.h"
#include "netcube/client/settings.h"
#include "netcube/gui/arena.h"
#include "netcube/gui/theme.h"

namespace netcube::gui {

struct PlotSeries {
  std::string label;
  std::vector<client::FrameSample> samples;  // in frame order
  client::SampleSummary summary;             // client::Summarize(samples): the panels' headers
  client::Settings settings;                 // the entry's techniques: which panels and curves it has
};

// The colour of entry `index` in the plot (PlayerColour of ids 0, 1, ...).
Rgb SeriesColour(std::size_t index) noexcept;

// The panels the plot draws for these entries, in order ("Prediction buys: own cube behind your keys"):
// a pair, what it buys and what it costs, for each technique some entries use and others do not.
std::vector<std::string> ComparePanels(std::span<const PlotSeries> series);

// Draws the legend (with what the technique codes mean) and a row of two panels for each technique the
// entries differ in (prediction, reconciliation, interpolation, smoothing, extrapolation, predicting the
// others): what it buys, what it costs; each panel's header gives each entry's figures.
void DrawComparePlot(ImDrawList& draw, const Rect& area, std::span<const PlotSeries> series,
                     const std::string& title);

}  // namespace netcube::gui
