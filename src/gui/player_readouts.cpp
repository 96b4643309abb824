// What the player view reports about its client: the status line, the readouts (RTT, inputs, corrections,
// the interpolation buffer, bandwidth, encodings, tags, the prediction check) and the live plots with the
// sample rings behind them.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <optional>

#include "netcube/gui/player_view.h"
#include "netcube/gui/theme.h"
#include "panel_widgets.h"

namespace netcube::gui {
namespace {

// The plot's overlay reads "<name> <latest value> <unit>" along its top; the scale grows with the data from
// `min_scale` and keeps the line in the lower part, clear of the overlay (else the title looks struck out).
void Plot(const char* id, const SampleRing& ring, const char* name, int decimals, const char* unit,
          float min_scale) {
  constexpr float kLineShare = 0.55F;  // of the plot's height, below the overlay's line of text
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%s %.*f %s", name, decimals, static_cast<double>(ring.latest()),
                unit);
  const float scale = std::max(min_scale, ring.max() / kLineShare);
  ImGui::PlotLines(id, ring.data(), static_cast<int>(SampleRing::kCapacity), ring.offset(), overlay, 0.0F,
                   scale, ImVec2(0.0F, ImGui::GetFontSize() * 3.2F));
}

}  // namespace

void SampleRing::Push(float value) noexcept {
  values_[next_] = value;
  next_ = (next_ + 1) % kCapacity;
}

float SampleRing::latest() const noexcept { return values_[(next_ + kCapacity - 1) % kCapacity]; }

float SampleRing::max() const noexcept { return *std::max_element(values_.begin(), values_.end()); }

void PlayerView::DrawStatus(const client::Client& client) const {
  // The keys are in the column's title (the lab) or the window's (the client): here they would push the
  // status off a narrow panel.
  ImGui::PushTextWrapPos(0.0F);  // a fork's long title wraps in a narrow column rather than being cut
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(kHeaderText)), "%s:", title_.c_str());
  ImGui::PopTextWrapPos();
  Tooltip(keys_hint_.c_str());
  const client::ConnectionState state = client.state();
  char status[160];
  Rgb colour = kGoodText;
  if (state == client::ConnectionState::kConnected && client.spectator()) {
    std::snprintf(status, sizeof status, "watching, RTT %.0f ms", client.metrics().rtt_ms);
  } else if (state == client::ConnectionState::kConnected) {
    std::snprintf(status, sizeof status, "#%u connected, RTT %.0f ms",
                  static_cast<unsigned>(client.player_id().value_or(0)), client.metrics().rtt_ms);
  } else {
    const bool failed = state == client::ConnectionState::kRefused ||
                        state == client::ConnectionState::kLost ||
                        state == client::ConnectionState::kUnreachable;
    colour = failed ? kBadText : kHeaderText;
    std::snprintf(status, sizeof status, "%s%s%s", client::ToString(state),
                  client.status().empty() ? "" : ": ", client.status().c_str());
  }
  SameLineIfFits(ImGui::CalcTextSize(status).x);
  ImGui::PushTextWrapPos(0.0F);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(colour)), "%s", status);
  ImGui::PopTextWrapPos();
  // A server that died looks alive (frozen cubes) until the timeout: say so, on a line of its own where
  // it is seen, as soon as snapshots stop.
  if (state != client::ConnectionState::kConnected) return;
  if (const std::optional<Micros> silence = client.snapshot_silence()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(kBadText)), "no snapshot for %lld ms",
                       static_cast<long long>(silence->count() / 1000));
  }
}

namespace {

// Bytes a second up and down (with ENet's over UDP), and how the snapshots came encoded.
void DrawTraffic(const client::Metrics& m) {
  if (m.in_memory) {
    ImGui::Text("up %.0f B/s, down %.0f B/s (in memory)", m.bytes_up_per_s, m.bytes_down_per_s);
    Tooltip(
        "Protocol bytes a second. The link is in memory: no UDP, so no headers, acknowledgements or pings "
        "to add (--transport udp runs it over loopback sockets).");
  } else {
    ImGui::Text("up %.0f B/s (wire %.0f), down %.0f B/s (wire %.0f)", m.bytes_up_per_s, m.wire_bytes_up_per_s,
                m.bytes_down_per_s, m.wire_bytes_down_per_s);
    Tooltip(
        "Protocol bytes a second, and in brackets ENet's UDP payload: its headers, acknowledgements and "
        "pings.");
  }
  ImGui::Text("snapshots full %" PRIu64 ", delta %" PRIu64 ", interest %" PRIu64 ", no baseline %" PRIu64,
              m.snapshots_full, m.snapshots_delta, m.snapshots_interest, m.snapshots_no_baseline);
  Tooltip(
      "How the snapshots this player accepted were encoded (interest: only the cubes near its own, when "
      "some are far), and the deltas it dropped because it no longer held the snapshot they were made "
      "against (the next one recovers).");
}

// The tags given, missed and taken, the rewind, and the victim's view of the last one taken.
void DrawTagFigures(const client::Metrics& m) {
  ImGui::Text("tags given %" PRIu64 ", missed %" PRIu64 ", taken %" PRIu64 ", rewind %.0f ms", m.tags_hit,
              m.tags_missed, m.tags_taken, m.rewind_ms_mean);
  Tooltip(
      "This player's tags the server judged hits and misses, the tags it took, and how far back the "
      "server judged its tags on average.");
  if (m.victim_view_samples > 0) {
    ImGui::Text("last tag taken: its cube had left that spot %.0f ms earlier (mean %.0f)",
                m.victim_view_ms_last, m.victim_view_ms_mean);
    Tooltip(
        "The other side of lag compensation: when this cube is tagged where another player saw it, "
        "it may have left that spot a while ago on this player's own screen.");
  }
}

}  // namespace

void PlayerView::DrawReadouts(const client::Client& client) const {
  const client::Metrics m = client.metrics();
  ImGui::PushTextWrapPos(0.0F);  // a narrow panel wraps a readout rather than cutting it
  ImGui::Text("RTT %.0f ms (jitter %.1f), snapshots %.1f/s of %d (%s), loss %.0f%%", m.rtt_ms,
              m.rtt_jitter_ms, m.snapshots_per_second, m.snapshot_rate,
              m.snapshot_rate_asked ? "asked" : "the server's", m.snapshot_loss * 100.0);
  Tooltip(
      "RTT: a time echo's round trip, stamped when this client reads the reply: the added latency both ways, "
      "and how long the reply waited to be read (netcube-client reads between frames every millisecond; the "
      "lab once a frame, up to 17 ms). Snapshots received a second, of the rate the server sends this "
      "player: its own, or the one this player asked for (adaptive snapshot rate); loss counts only the "
      "snapshots that never came.");
  ImGui::Text("inputs sent %" PRIu64 ", acked %" PRIu64 ", last ack #%u", m.inputs_sent, m.inputs_acked,
              static_cast<unsigned>(m.last_acked_input));
  ImGui::Text("input lead %+.2f at the server, sampling x%.3f", m.input_lead, m.sample_rate);
  Tooltip(
      "How many more of this player's inputs wait at the server than it wants waiting (smoothed), and the "
      "rate input pacing samples the keys at to bring that to 0.");
  ImGui::Text("corrections %" PRIu64 ", max %.2f, mean %.2f units", m.corrections, m.max_correction,
              m.mean_correction);
  ImGui::Text("interp delay %.0f ms, buffer %.1f, underruns %" PRIu64, m.interp_delay_ms, m.buffer_depth,
              m.interp_underruns);
  DrawTraffic(m);
  DrawTagFigures(m);
  if (const auto check = client.last_prediction_check()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(check->match ? kGoodText : kBadText)),
                       "prediction of input #%u %s the server", static_cast<unsigned>(check->seq),
                       check->match ? "matches" : "differs from");
    Tooltip(
        "Compares what this client predicted after its last acknowledged input with what the server "
        "computed.");
  }
  ImGui::PopTextWrapPos();
}

void PlayerView::DrawPlots() const {
  struct PlotSpec {
    const char* id;
    const SampleRing& ring;
    const char* name;
    int decimals;
    const char* unit;
    float min_scale;
  };
  const PlotSpec plots[] = {
      {"##rtt", history_.rtt_ms, "RTT", 0, "ms", 10.0F},
      {"##correction", history_.correction, "correction", 2, "units", 0.5F},
      {"##depth", history_.buffer_depth, "interp buffer", 1, "snapshots", 2.0F},
      {"##delay", history_.interp_delay_ms, "interp delay", 0, "ms", 50.0F},
      {"##up", history_.bytes_up_per_s, "up", 0, "B/s", 500.0F},
      {"##down", history_.bytes_down_per_s, "down", 0, "B/s", 500.0F},
  };
  constexpr std::size_t kPerRow = 2;
  for (std::size_t first = 0; first < std::size(plots); first += kPerRow) {
    ItemRow row(static_cast<int>(kPerRow));
    for (const PlotSpec& plot : std::span(plots).subspan(first, kPerRow)) {
      row.Next();
      Plot(plot.id, plot.ring, plot.name, plot.decimals, plot.unit, plot.min_scale);
    }
    row.End();
  }
}

}  // namespace netcube::gui
