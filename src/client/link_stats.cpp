#include "link_stats.h"

#include <algorithm>
#include <cmath>

namespace netcube::client {
namespace {

constexpr Micros kTimeEchoInterval{100'000};
constexpr Micros kRateWindow{1'000'000};
// Snapshot loss is measured over windows of about this much server time, and smoothed across windows
// (20 snapshots make a coarse sample).
constexpr double kLossWindowSeconds = 1.0;
constexpr double kLossSmoothing = 0.25;
// A TimeEcho reply claiming a longer round trip than this answers nothing we sent.
constexpr std::uint32_t kMaxPlausibleRttUs = 60'000'000;

}  // namespace

void LinkStats::Reset(Micros now) noexcept {
  *this = LinkStats{};
  next_echo_ = now;
  rate_window_start_ = now;
}

std::optional<protocol::TimeEcho> LinkStats::EchoDue(Micros now) noexcept {
  if (now < next_echo_) return std::nullopt;
  next_echo_ = now + kTimeEchoInterval;
  return protocol::TimeEcho{false, static_cast<std::uint32_t>(now.count()), 0};
}

bool LinkStats::OnTimeEcho(const protocol::TimeEcho& echo, Micros now) noexcept {
  const std::uint32_t rtt_us = static_cast<std::uint32_t>(now.count()) - echo.client_time_us;
  if (rtt_us > kMaxPlausibleRttUs) return false;
  const double rtt = rtt_us / 1000.0;
  LinkMetrics& m = metrics_;
  if (m.rtt_samples == 0) {
    m.rtt_ms = rtt;
    m.rtt_jitter_ms = rtt / 2.0;  // RFC 6298's first-sample rule
  } else {
    m.rtt_jitter_ms += (std::abs(rtt - m.rtt_ms) - m.rtt_jitter_ms) / 4.0;
    m.rtt_ms += (rtt - m.rtt_ms) / 8.0;
  }
  ++m.rtt_samples;
  m.rtt_ms_mean += (rtt - m.rtt_ms_mean) / static_cast<double>(m.rtt_samples);
  return true;
}

void LinkStats::OnSnapshot(Tick tick, int tick_rate, int snapshot_rate) noexcept {
  ++metrics_.snapshots_received;
  if (!loss_window_open_) {
    loss_window_open_ = true;
    loss_window_start_ = tick;
    loss_window_received_ = 0;
    return;
  }
  ++loss_window_received_;
  const double span_ticks = static_cast<double>(tick - loss_window_start_);
  if (span_ticks < kLossWindowSeconds * tick_rate) return;
  const double sent = span_ticks * std::min(snapshot_rate, tick_rate) / tick_rate;
  const double window_loss = std::clamp(1.0 - static_cast<double>(loss_window_received_) / sent, 0.0, 1.0);
  metrics_.snapshot_loss = loss_windows_done_ == 0
                               ? window_loss
                               : metrics_.snapshot_loss + (window_loss - metrics_.snapshot_loss) * kLossSmoothing;
  ++loss_windows_done_;
  loss_window_start_ = tick;
  loss_window_received_ = 0;
}

void LinkStats::UpdateRates(Micros now) noexcept {
  LinkMetrics& m = metrics_;
  m.bytes_up = counters_.payload_bytes_sent;
  m.bytes_down = counters_.payload_bytes_received;
  m.wire_bytes_up = counters_.wire_bytes_sent;
  m.wire_bytes_down = counters_.wire_bytes_received;
  const Micros window = now - rate_window_start_;
  if (window < kRateWindow) return;
  const double seconds = static_cast<double>(window.count()) / 1e6;
  const auto rate = [seconds](std::uint64_t now_total, std::uint64_t then_total) {
    return static_cast<double>(now_total - then_total) / seconds;
  };
  m.bytes_up_per_s = rate(counters_.payload_bytes_sent, rate_counters_.payload_bytes_sent);
  m.bytes_down_per_s = rate(counters_.payload_bytes_received, rate_counters_.payload_bytes_received);
  m.wire_bytes_up_per_s = rate(counters_.wire_bytes_sent, rate_counters_.wire_bytes_sent);
  m.wire_bytes_down_per_s = rate(counters_.wire_bytes_received, rate_counters_.wire_bytes_received);
  m.snapshots_per_second = rate(m.snapshots_received, rate_snapshots_);
  rate_counters_ = counters_;
  rate_snapshots_ = m.snapshots_received;
  rate_window_start_ = now;
}

}  // namespace netcube::client
