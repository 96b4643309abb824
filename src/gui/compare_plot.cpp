#include "netcube/gui/compare_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <vector>

namespace netcube::gui {
namespace {

constexpr float kMargin = 12.0F;
constexpr float kAxisWidth = 44.0F;  // room for the value labels left of each panel
constexpr float kGap = 18.0F;        // between the two columns
constexpr Rgb kAxis{110, 116, 130};
constexpr Rgb kGrid{40, 44, 56};
constexpr Rgb kOutline{12, 13, 17};
// Overlapping entries take turns along the line: each draws its thick stretch of every kDashFrames * entries
// frames, so two equal curves show as a line striped in both colours rather than as the last one drawn.
constexpr std::size_t kDashFrames = 6;
constexpr double kMarkerSpacingS = 1.0;  // a marker (one shape per entry) every second, staggered by entry
constexpr double kWindowS = 1.0;         // the rates below are over the last second

// A panel's curve for one entry: a value per sample (none where the frame lacks it, or the entry lacks the
// technique), and the figures its header gives for the entry (empty: none).
using Curve = std::vector<std::optional<double>>;
using CurveOf = Curve (*)(const PlotSeries&);
using FiguresOf = std::string (*)(const PlotSeries&, const Curve&);

[[gnu::format(printf, 1, 2)]] std::string Printf(const char* format, ...) {
  char text[96];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  return text;
}

std::string MeanAndP99(const client::Spread& spread) {
  return spread.count == 0 ? "" : Printf("mean %.2f, p99 %.2f", spread.mean, spread.p99);
}

// Mean and largest of a curve (the panels without a figure of their own in the summary).
std::string MeanAndMax(const PlotSeries&, const Curve& curve) {
  double sum = 0.0;
  double most = 0.0;
  std::size_t count = 0;
  for (const std::optional<double>& v : curve) {
    if (!v) continue;
    sum += *v;
    most = std::max(most, *v);
    ++count;
  }
  return count == 0 ? "" : Printf("mean %.2f, max %.2f", sum / static_cast<double>(count), most);
}

using SampleValue = std::optional<double> (*)(const client::FrameSample&) noexcept;
// `value` of each sample; none at all for an entry that does not `have` the technique.
Curve Each(const PlotSeries& s, SampleValue value, bool has = true) {
  Curve curve(s.samples.size());
  if (!has) return curve;
  for (std::size_t i = 0; i < s.samples.size(); ++i) curve[i] = value(s.samples[i]);
  return curve;
}

// Over the last second: the sum of `count` per the sum of `base`, scaled (none while `base` sums to 0).
template <typename Count, typename Base>
Curve Windowed(const PlotSeries& s, Count count, Base base, double scale) {
  Curve curve(s.samples.size());
  double counted = 0.0;
  double based = 0.0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < s.samples.size(); ++i) {
    counted += count(s.samples[i]);
    based += base(s.samples[i]);
    while (s.samples[first].time < s.samples[i].time - Micros(static_cast<std::int64_t>(kWindowS * 1e6))) {
      counted -= count(s.samples[first]);
      based -= base(s.samples[first]);
      ++first;
    }
    if (based > 1e-9) curve[i] = scale * counted / based;
  }
  return curve;
}

bool Reconciles(const client::Settings& s) { return s.prediction && s.reconciliation; }

template <SampleValue value>
Curve EachOf(const PlotSeries& s) {
  return Each(s, value);
}
template <client::Spread client::SampleSummary::*spread>
std::string SpreadOf(const PlotSeries& s, const Curve&) {
  return MeanAndP99(s.summary.*spread);
}
std::string JumpsRate(const PlotSeries& s, const Curve&) {
  return s.summary.remote_jumps_per_s.count == 0 ? "" : Printf("%.1f jumps/s", s.summary.remote_jumps_rate);
}

struct Panel {
  const char* label;  // "Prediction buys"
  const char* title;
  const char* unit;
  bool client::Settings::*technique;  // shown when the entries differ in it
  CurveOf curve;
  FiguresOf figures;
};

// Each technique's benefit (left) beside its cost (right), row by row.
const Panel kPanels[] = {
    {"Prediction buys", "own cube behind your keys", "units", &client::Settings::prediction,
     &EachOf<&client::KeysError>, &SpreadOf<&client::SampleSummary::keys_error>},
    {"Prediction costs", "own cube away from the server now", "units", &client::Settings::prediction,
     &EachOf<&client::OwnError>, &SpreadOf<&client::SampleSummary::own_error>},
    {"Reconciliation buys", "prediction's drift from your keys", "units", &client::Settings::reconciliation,
     &EachOf<&client::Drift>, &SpreadOf<&client::SampleSummary::drift>},
    {"Reconciliation costs", "inputs replayed on every snapshot", "inputs", &client::Settings::reconciliation,
     [](const PlotSeries& s) {
       Curve curve(s.samples.size());
       if (!Reconciles(s.settings)) return curve;
       for (std::size_t i = 0; i < s.samples.size(); ++i) {
         if (s.samples[i].present) curve[i] = static_cast<double>(s.samples[i].pending_inputs);
       }
       return curve;
     },
     &MeanAndMax},
    {"Interpolation buys", "remote cubes' jumps (last second)", "per cube and s",
     &client::Settings::interpolation, &EachOf<&client::RemoteJumpsPerS>, &JumpsRate},
    {"Interpolation costs", "remote cubes drawn vs truth now, mean", "units",
     &client::Settings::interpolation, &EachOf<&client::RemoteError>,
     &SpreadOf<&client::SampleSummary::remote_error>},
    {"Smoothing buys", "own cube's snaps (last second)", "per s", &client::Settings::smoothing,
     [](const PlotSeries& s) {
       return Windowed(
           s, [](const client::FrameSample& f) { return f.own_jump ? 1.0 : 0.0; },
           [](const client::FrameSample& f) { return f.present ? 1.0 / 60.0 : 0.0; }, 1.0);
     },
     [](const PlotSeries& s, const Curve&) { return Printf("%.2f snaps/s", s.summary.own_jumps_rate); }},
    // With reconciliation the raw prediction is where the keys put the cube, so the drawn cube's distance
    // from the keys is the correction still being blended in.
    {"Smoothing costs", "own cube drawn off its prediction", "units", &client::Settings::smoothing,
     [](const PlotSeries& s) { return Each(s, &client::KeysError, Reconciles(s.settings)); }, &MeanAndMax},
    {"Extrapolation buys", "remote cubes frozen mid-motion (last second)", "% of moving",
     &client::Settings::extrapolation,
     [](const PlotSeries& s) {
       return Windowed(
           s, [](const client::FrameSample& f) { return f.remote_frozen.value_or(0) * 1.0; },
           [](const client::FrameSample& f) { return f.remote_moving * 1.0; }, 100.0);
     },
     [](const PlotSeries& s, const Curve&) {
       return Printf("frozen %.1f%%", 100.0 * s.summary.remote_frozen_share);
     }},
    // An interpolated cube is the truth of its render time; off it by a guess past the newest snapshot.
    {"Extrapolation costs", "remote cubes vs truth at the moment drawn", "units",
     &client::Settings::extrapolation,
     [](const PlotSeries& s) {
       return Each(s, &client::RemoteErrorDrawn, s.settings.interpolation && s.settings.extrapolation);
     },
     &MeanAndMax},
    {"Predicting the others buys", "remote cubes drawn vs truth now, mean", "units",
     &client::Settings::predict_others, &EachOf<&client::RemoteError>,
     &SpreadOf<&client::SampleSummary::remote_error>},
    {"Predicting the others costs", "remote cubes vs truth at the moment drawn (mispredictions)", "units",
     &client::Settings::predict_others, &EachOf<&client::RemoteErrorDrawn>,
     &SpreadOf<&client::SampleSummary::remote_error_drawn>},
    {"Predicting the others buys", "remote cubes drawn this far in the past", "ms",
     &client::Settings::predict_others, &EachOf<&client::ViewDelayMs>,
     &SpreadOf<&client::SampleSummary::view_delay_ms>},
    {"Predicting the others costs", "remote cubes' jumps (last second)", "per cube and s",
     &client::Settings::predict_others, &EachOf<&client::RemoteJumpsPerS>, &JumpsRate},
};

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

// Entry `index`'s marker: a circle, a square, a triangle, a diamond, outlined so it shows on any line.
void DrawMarker(ImDrawList& draw, ImVec2 at, std::size_t index, ImU32 colour) {
  constexpr float r = 4.5F;
  const ImU32 outline = ToImU32(kOutline);
  switch (index % 4) {
    case 0:
      draw.AddCircleFilled(at, r, colour);
      draw.AddCircle(at, r, outline);
      break;
    case 1:
      draw.AddRectFilled(ImVec2(at.x - r, at.y - r), ImVec2(at.x + r, at.y + r), colour);
      draw.AddRect(ImVec2(at.x - r, at.y - r), ImVec2(at.x + r, at.y + r), outline);
      break;
    case 2:
      draw.AddTriangleFilled(ImVec2(at.x, at.y - r), ImVec2(at.x + r, at.y + r), ImVec2(at.x - r, at.y + r),
                             colour);
      draw.AddTriangle(ImVec2(at.x, at.y - r), ImVec2(at.x + r, at.y + r), ImVec2(at.x - r, at.y + r),
                       outline);
      break;
    default:
      draw.AddQuadFilled(ImVec2(at.x, at.y - r), ImVec2(at.x + r, at.y), ImVec2(at.x, at.y + r),
                         ImVec2(at.x - r, at.y), colour);
      draw.AddQuad(ImVec2(at.x, at.y - r), ImVec2(at.x + r, at.y), ImVec2(at.x, at.y + r),
                   ImVec2(at.x - r, at.y), outline);
  }
}

void DrawAxes(ImDrawList& draw, const Rect& plot, double top, double end_s) {
  for (int i = 0; i <= 2; ++i) {
    const double v = top * i / 2.0;
    const float y = plot.y + plot.h - static_cast<float>(v / top) * plot.h;
    draw.AddLine(ImVec2(plot.x, y), ImVec2(plot.x + plot.w, y), ToImU32(kGrid));
    const std::string label = Format(v);
    draw.AddText(
        ImVec2(plot.x - 6.0F - ImGui::CalcTextSize(label.c_str()).x, y - ImGui::GetFontSize() / 2.0F),
        ToImU32(kAxis), label.c_str());
  }
  const int step = end_s <= 20.0 ? 2 : 5;
  for (int second = 0; second <= static_cast<int>(end_s); second += step) {
    const float x = plot.x + static_cast<float>(second / end_s) * plot.w;
    draw.AddLine(ImVec2(x, plot.y + plot.h), ImVec2(x, plot.y + plot.h + 4.0F), ToImU32(kAxis));
    const std::string label = std::to_string(second) + "s";
    // Centred on its tick, kept inside the panel at both ends.
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    const float left = std::clamp(x - w / 2.0F, plot.x - 4.0F, plot.x + plot.w - w);
    draw.AddText(ImVec2(left, plot.y + plot.h + 4.0F), ToImU32(kAxis), label.c_str());
  }
  draw.AddRect(plot.min(), plot.max(), ToImU32(kAxis));
}

// One panel: its label and title, each entry's figures in its colour on the line below, a y axis from 0 to
// a round maximum, time on x.
void DrawPanel(ImDrawList& draw, const Rect& area, const Panel& panel, std::span<const PlotSeries> series,
               double end_s) {
  std::vector<Curve> curves;
  double top = 0.0;
  for (const PlotSeries& s : series) {
    curves.push_back(panel.curve(s));
    for (const std::optional<double>& v : curves.back()) top = std::max(top, v.value_or(0.0));
  }
  const bool all_zero = top <= 0.0;
  top = NiceCeiling(top);
  const float line = ImGui::GetFontSize() + 2.0F;
  const std::string heading = std::string(panel.label) + ": " + panel.title + " (" + panel.unit + ")";
  draw.AddText(ImVec2(area.x, area.y), ToImU32(kHeaderText), heading.c_str());
  float x = area.x;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const std::string figures = panel.figures(series[i], curves[i]);
    if (figures.empty()) continue;
    draw.AddText(ImVec2(x, area.y + line), ToImU32(SeriesColour(i)), figures.c_str());
    x += ImGui::CalcTextSize(figures.c_str()).x + 18.0F;
  }
  const Rect plot{area.x + kAxisWidth, area.y + 2.0F * line + 4.0F, area.w - kAxisWidth,
                  area.h - 3.0F * line - 8.0F};
  DrawAxes(draw, plot, top, end_s);
  if (all_zero) {
    const char* note = "0 for every entry in this run: nothing for it to do here";
    draw.AddText(ImVec2(plot.x + (plot.w - ImGui::CalcTextSize(note).x) / 2.0F, plot.y + plot.h / 3.0F),
                 ToImU32(kAxis), note);
  }
  const auto to_screen = [&](const client::FrameSample& sample, double v) {
    return ImVec2(
        plot.x + static_cast<float>(static_cast<double>(sample.time.count()) / 1e6 / end_s) * plot.w,
        plot.y + plot.h - static_cast<float>(std::clamp(v, 0.0, top) / top) * plot.h);
  };
  // Every line thin, then each entry's turns thick on top, then the markers.
  for (const bool thick : {false, true}) {
    for (std::size_t i = 0; i < series.size(); ++i) {
      const ImU32 colour = ToImU32(SeriesColour(i));
      for (std::size_t k = 1; k < curves[i].size(); ++k) {
        if (!curves[i][k] || !curves[i][k - 1]) continue;
        if (thick && (k / kDashFrames) % series.size() != i) continue;
        draw.AddLine(to_screen(series[i].samples[k - 1], *curves[i][k - 1]),
                     to_screen(series[i].samples[k], *curves[i][k]), colour, thick ? 3.5F : 1.5F);
      }
    }
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    const double offset_s = kMarkerSpacingS * static_cast<double>(i) / static_cast<double>(series.size());
    double next_s = offset_s;
    for (std::size_t k = 0; k < curves[i].size(); ++k) {
      const double t_s = static_cast<double>(series[i].samples[k].time.count()) / 1e6;
      if (t_s < next_s || !curves[i][k]) continue;
      DrawMarker(draw, to_screen(series[i].samples[k], *curves[i][k]), i, ToImU32(SeriesColour(i)));
      next_s = std::floor((t_s - offset_s) / kMarkerSpacingS + 1.0) * kMarkerSpacingS + offset_s;
    }
  }
}

// The panels whose technique some entries use and others do not.
std::vector<const Panel*> Shown(std::span<const PlotSeries> series) {
  std::vector<const Panel*> shown;
  for (const Panel& panel : kPanels) {
    bool with = false;
    bool without = false;
    for (const PlotSeries& s : series) (s.settings.*panel.technique ? with : without) = true;
    if (with && without) shown.push_back(&panel);
  }
  return shown;
}

}  // namespace

std::vector<std::string> ComparePanels(std::span<const PlotSeries> series) {
  std::vector<std::string> titles;
  for (const Panel* panel : Shown(series)) titles.push_back(std::string(panel->label) + ": " + panel->title);
  return titles;
}

Rgb SeriesColour(std::size_t index) noexcept { return PlayerColour(static_cast<sim::PlayerId>(index)); }

void DrawComparePlot(ImDrawList& draw, const Rect& area, std::span<const PlotSeries> series,
                     const std::string& title) {
  draw.AddRectFilled(area.min(), area.max(), ToImU32(kBackground));
  double end_s = 1.0;
  for (const PlotSeries& s : series) {
    if (!s.samples.empty()) end_s = std::max(end_s, static_cast<double>(s.samples.back().time.count()) / 1e6);
  }
  end_s = std::ceil(end_s);
  const float line = ImGui::GetFontSize() + 6.0F;
  draw.AddText(ImVec2(area.x + kMargin, area.y + kMargin), ToImU32(kHeaderText), title.c_str());
  // The legend: each entry's colour, marker and striped line, then what its codes mean.
  float x = area.x + kMargin;
  const float legend_y = area.y + kMargin + line;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const ImU32 colour = ToImU32(SeriesColour(i));
    const float mid = legend_y + ImGui::GetFontSize() / 2.0F;
    draw.AddLine(ImVec2(x, mid), ImVec2(x + 28.0F, mid), colour, 3.5F);
    DrawMarker(draw, ImVec2(x + 14.0F, mid), i, colour);
    draw.AddText(ImVec2(x + 36.0F, legend_y), ToImU32(kLabelText), series[i].label.c_str());
    x += 60.0F + ImGui::CalcTextSize(series[i].label.c_str()).x;
  }
  draw.AddText(ImVec2(area.x + kMargin, legend_y + line), ToImU32(kAxis),
               "p prediction, r reconciliation, i interpolation, s smoothing, e extrapolation, a adaptive "
               "delay, o predict others. Each row: what a technique buys (left) and costs (right); equal "
               "curves show striped in their colours.");
  const std::vector<const Panel*> shown = Shown(series);
  const float top = legend_y + 2.0F * line + 4.0F;
  const std::size_t rows = std::max<std::size_t>(1, (shown.size() + 1) / 2);
  const float row_h = (area.y + area.h - kMargin - top) / static_cast<float>(rows);
  const float column_w = (area.w - 2.0F * kMargin - kGap) / 2.0F;
  for (std::size_t p = 0; p < shown.size(); ++p) {
    const Rect cell{area.x + kMargin + static_cast<float>(p % 2) * (column_w + kGap),
                    top + static_cast<float>(p / 2) * row_h, column_w, row_h - 8.0F};
    DrawPanel(draw, cell, *shown[p], series, end_s);
  }
}

}  // namespace netcube::gui
