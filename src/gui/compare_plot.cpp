#include "netcube/gui/compare_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace netcube::gui {
namespace {

constexpr float kMargin = 12.0F;
constexpr float kAxisWidth = 64.0F;  // room for the value labels left of each panel
constexpr float kLegendHeight = 24.0F;
constexpr Rgb kAxis{110, 116, 130};
constexpr Rgb kGrid{40, 44, 56};

// A panel's value per frame (client::OwnError and the like: none when the frame lacks it), and the figures
// its header gives for an entry (empty: none).
using Value = std::optional<double> (*)(const client::FrameSample&) noexcept;
using Figures = std::string (*)(const client::SampleSummary&);

std::string MeanAndP99(const client::Spread& spread) {
  if (spread.count == 0) return "";
  char text[96];
  std::snprintf(text, sizeof text, "mean %.2f, p99 %.2f", spread.mean, spread.p99);
  return text;
}

std::string Smoothness(const client::SampleSummary& summary) {
  if (summary.remote_jumps_per_s.count == 0) return "";
  char text[96];
  std::snprintf(text, sizeof text, "%.1f jumps/s, frozen %.0f%%", summary.remote_jumps_rate,
                100.0 * summary.remote_frozen_share);
  return text;
}

// A round number at or above `value`: 1, 2 or 5 times a power of ten.
double NiceCeiling(double value) {
  if (value <= 0.0) return 1.0;
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (const double step : {1.0, 2.0, 5.0, 10.0}) {
    if (value <= step * power) return step * power;
  }
  return 10.0 * power;
}

std::string Format(double value) {
  char text[32];
  std::snprintf(text, sizeof text, value >= 10.0 || value == 0.0 ? "%.0f" : "%.3g", value);
  return text;
}

// One panel: a title, a y axis from 0 to a round maximum, time on x; `dots` draws points instead of lines.
void DrawPanel(ImDrawList& draw, const Rect& area, const std::string& title, const std::string& unit,
               std::span<const PlotSeries> series, double end_s, Value value, Figures figures) {
  double top = 0.0;
  for (const PlotSeries& s : series) {
    for (const client::FrameSample& sample : s.samples) {
      if (const std::optional<double> v = value(sample)) top = std::max(top, *v);
    }
  }
  top = NiceCeiling(top);
  const Rect plot{area.x + kAxisWidth, area.y + ImGui::GetFontSize() + 4.0F, area.w - kAxisWidth,
                  area.h - 2.0F * ImGui::GetFontSize() - 8.0F};
  const std::string heading = title + " (" + unit + ")";
  draw.AddText(ImVec2(area.x, area.y), ToImU32(kHeaderText), heading.c_str());
  // Each entry's mean and 99th percentile, in its colour, after the title.
  float x = area.x + ImGui::CalcTextSize(heading.c_str()).x + 24.0F;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const std::string stats = figures(series[i].summary);
    if (stats.empty()) continue;
    draw.AddText(ImVec2(x, area.y), ToImU32(SeriesColour(i)), stats.c_str());
    x += ImGui::CalcTextSize(stats.c_str()).x + 24.0F;
  }
  const auto to_screen = [&](double t_s, double v) {
    return ImVec2(plot.x + static_cast<float>(t_s / end_s) * plot.w,
                  plot.y + plot.h - static_cast<float>(std::min(v, top) / top) * plot.h);
  };
  for (int i = 0; i <= 4; ++i) {
    const double v = top * i / 4.0;
    const ImVec2 at = to_screen(0.0, v);
    draw.AddLine(at, ImVec2(plot.x + plot.w, at.y), ToImU32(kGrid));
    const std::string label = Format(v);
    draw.AddText(
        ImVec2(plot.x - 6.0F - ImGui::CalcTextSize(label.c_str()).x, at.y - ImGui::GetFontSize() / 2.0F),
        ToImU32(kAxis), label.c_str());
  }
  for (int second = 0; second <= static_cast<int>(end_s); ++second) {
    const ImVec2 at = to_screen(second, 0.0);
    draw.AddLine(at, ImVec2(at.x, at.y + 4.0F), ToImU32(kAxis));
    if (end_s <= 20.0 || second % 5 == 0) {
      draw.AddText(ImVec2(at.x - 3.0F, at.y + 5.0F), ToImU32(kAxis), (std::to_string(second) + "s").c_str());
    }
  }
  draw.AddRect(plot.min(), plot.max(), ToImU32(kAxis));
  for (std::size_t i = 0; i < series.size(); ++i) {
    const ImU32 colour = ToImU32(SeriesColour(i));
    std::optional<ImVec2> previous;
    for (const client::FrameSample& sample : series[i].samples) {
      const std::optional<double> v = value(sample);
      if (!v) {
        previous.reset();
        continue;
      }
      const ImVec2 point = to_screen(static_cast<double>(sample.time.count()) / 1e6, *v);
      // Earlier entries are drawn wider, so an entry whose values equal a later one's shows as a rim around
      // it.
      const auto wider = static_cast<float>(series.size() - 1 - i);
      if (previous) {
        draw.AddLine(*previous, point, colour, 1.5F + 2.0F * wider);
      }
      previous = point;
    }
  }
}

}  // namespace

Rgb SeriesColour(std::size_t index) noexcept { return PlayerColour(static_cast<sim::PlayerId>(index)); }

void DrawComparePlot(ImDrawList& draw, const Rect& area, std::span<const PlotSeries> series,
                     const std::string& title) {
  draw.AddRectFilled(area.min(), area.max(), ToImU32(kBackground));
  double end_s = 1.0;
  for (const PlotSeries& s : series) {
    if (!s.samples.empty()) end_s = std::max(end_s, static_cast<double>(s.samples.back().time.count()) / 1e6);
  }
  end_s = std::ceil(end_s);
  draw.AddText(ImVec2(area.x + kMargin, area.y + kMargin), ToImU32(kHeaderText), title.c_str());
  float x = area.x + kMargin;
  const float legend_y = area.y + kMargin + ImGui::GetFontSize() + 6.0F;
  for (std::size_t i = 0; i < series.size(); ++i) {
    draw.AddRectFilled(ImVec2(x, legend_y + 2.0F), ImVec2(x + 14.0F, legend_y + 14.0F),
                       ToImU32(SeriesColour(i)));
    draw.AddText(ImVec2(x + 20.0F, legend_y), ToImU32(kLabelText), series[i].label.c_str());
    x += 40.0F + ImGui::CalcTextSize(series[i].label.c_str()).x;
  }
  const float top = legend_y + kLegendHeight;
  constexpr int kPanels = 6;
  const float panel_h = (area.y + area.h - kMargin - top) / kPanels;
  const auto panel = [&](int index) {
    return Rect{area.x + kMargin, top + static_cast<float>(index) * panel_h, area.w - 2.0F * kMargin,
                panel_h - 6.0F};
  };
  // What each technique buys beside what it costs: prediction (the first two), reconciliation (the third:
  // prediction without it drifts from the keys), interpolation (the last two).
  DrawPanel(draw, panel(0), "Prediction buys: own cube behind your keys", "units", series, end_s,
            &client::KeysError, [](const client::SampleSummary& s) { return MeanAndP99(s.keys_error); });
  DrawPanel(draw, panel(1), "Prediction costs: own cube away from the server now", "units", series, end_s,
            &client::OwnError, [](const client::SampleSummary& s) { return MeanAndP99(s.own_error); });
  DrawPanel(draw, panel(2), "Reconciliation buys: prediction's drift from your keys", "units", series, end_s,
            &client::Drift, [](const client::SampleSummary& s) { return MeanAndP99(s.drift); });
  DrawPanel(draw, panel(3), "Interpolation buys: remote cubes' jumps (last second)", "per cube and s", series,
            end_s, &client::RemoteJumpsPerS, &Smoothness);
  DrawPanel(draw, panel(4), "Interpolation costs: remote cubes drawn vs truth now, mean", "units", series,
            end_s, &client::RemoteError,
            [](const client::SampleSummary& s) { return MeanAndP99(s.remote_error); });
  // Each family's own promise: interpolation draws the truth of its render time, predicting the others the
  // truth of now (where its remote turns show as mispredictions).
  DrawPanel(draw, panel(5), "Remote cubes drawn vs truth at the moment drawn, mean", "units", series, end_s,
            &client::RemoteErrorDrawn,
            [](const client::SampleSummary& s) { return MeanAndP99(s.remote_error_drawn); });
}

}  // namespace netcube::gui
