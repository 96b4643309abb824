#include "compare_csv.h"

#include <cinttypes>
#include <cstdio>

namespace netcube::apps {
namespace {

// Fixed decimals: the same numbers give the same bytes on every run and machine.
std::string Cell(std::optional<double> value, int decimals) {
  if (!value) return "";
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, *value);
  return text;
}

std::string Count(std::optional<int> value) { return value ? std::to_string(*value) : std::string(); }

std::string Line(const std::string& what, const client::Spread& spread, const char* unit,
                 const char* counted) {
  char text[192];
  if (spread.count == 0) {
    std::snprintf(text, sizeof text, "%s: none\n", what.c_str());
  } else {
    std::snprintf(text, sizeof text, "%s mean %.2f p99 %.2f min %.2f max %.2f %s (%zu %s)\n", what.c_str(),
                  spread.mean, spread.p99, spread.min, spread.max, unit, spread.count, counted);
  }
  return text;
}

}  // namespace

std::string CompareCsvHeader() {
  return "frame,time_ms,entry,techniques,drawn_x,drawn_y,server_x,server_y,own_error,corrections,"
         "pending_inputs,rtt_ms,interp_delay_ms,buffer_depth,remote_error,bytes_up,bytes_down,press_delay_ms,"
         "keys_error,drift,own_jump,remote_jumps,remote_frozen,remote_moving,remote_jumps_per_s,"
         "remote_error_drawn,view_delay_ms\n";
}

std::string CompareCsvRow(const std::string& entry, const std::string& techniques,
                          const client::FrameSample& s) {
  const auto own = [&](double value) { return Cell(s.present ? std::optional(value) : std::nullopt, 4); };
  char time[48];
  std::snprintf(time, sizeof time, "%" PRId64 ",%.3f,", s.frame,
                static_cast<double>(s.time.count()) / 1000.0);
  char counts[160];
  std::snprintf(counts, sizeof counts, "%" PRIu64 ",%zu,%.3f,%.3f,%.3f,", s.corrections, s.pending_inputs,
                s.rtt_ms, s.interp_delay_ms, s.buffer_depth);
  char bytes[64];
  std::snprintf(bytes, sizeof bytes, "%" PRIu64 ",%" PRIu64 ",", s.bytes_up, s.bytes_down);
  return std::string(time) + entry + "," + techniques + "," + own(s.drawn.x) + "," + own(s.drawn.y) + "," +
         own(s.server.x) + "," + own(s.server.y) + "," + Cell(client::OwnError(s), 4) + "," + counts +
         Cell(client::RemoteError(s), 4) + "," + bytes + Cell(client::PressDelayMs(s), 3) + "," +
         Cell(client::KeysError(s), 4) + "," + Cell(client::Drift(s), 4) + "," +
         (s.present ? (s.own_jump ? "1" : "0") : "") + "," + Count(s.remote_jumps) + "," +
         Count(s.remote_frozen) + "," +
         Count(s.remote_jumps ? std::optional(s.remote_moving) : std::nullopt) + "," +
         Cell(client::RemoteJumpsPerS(s), 3) + "," + Cell(client::RemoteErrorDrawn(s), 4) + "," +
         Cell(client::ViewDelayMs(s), 3) + "\n";
}

std::string SummaryText(const std::string& entry, const client::SampleSummary& summary) {
  char corrections[160];
  std::snprintf(corrections, sizeof corrections,
                "%s: own corrections %" PRIu64 ", mean %.2f units, the largest %.2f units\n", entry.c_str(),
                summary.corrections, summary.correction_mean, summary.correction_max);
  char smoothness[192];
  std::snprintf(smoothness, sizeof smoothness,
                "%s: remote jumps %.2f per cube and second, frozen mid-motion %.1f%% of their moving frames; "
                "own snaps %.2f "
                "per second\n",
                entry.c_str(), summary.remote_jumps_rate, 100.0 * summary.remote_frozen_share,
                summary.own_jumps_rate);
  return Line(entry + ": own error", summary.own_error, "units", "frames") +
         Line(entry + ": remote error", summary.remote_error, "units", "frames") +
         Line(entry + ": remote error at the moment drawn", summary.remote_error_drawn, "units", "frames") +
         Line(entry + ": remote view delay", summary.view_delay_ms, "ms", "frames") +
         Line(entry + ": key press to motion", summary.press_delay_ms, "ms", "presses") +
         Line(entry + ": behind the keys", summary.keys_error, "units", "frames") +
         Line(entry + ": prediction drift", summary.drift, "units", "frames") + smoothness + corrections;
}

}  // namespace netcube::apps
