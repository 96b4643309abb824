#include "link_stats.h"

#include <algorithm>
#include <cmath>

#include "netcube/protocol/rules.h"

namespace netcube::client {
namespace {

constexpr Micros kTimeEchoInterval{100'000};
constexpr Micros kRateWindow{1'000'000};
// Snapshot loss is measured over the last kLossHorizon snapshot intervals of server time (ten seconds at 20
// per second: 2% loss is four snapshots), leaving out the newest kLateAllowance, where a late one may still
// come. Until the horizon holds kMinLossSpan intervals the loss reads 0; until it has held all of them, it
// is not yet measured.
constexpr double kLossHorizon = 200.0;
constexpr double kLateAllowance = 10.0;
constexpr double kMinLossSpan = 20.0;
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

bool LinkStats::OnArrival(Tick tick, bool usable, int tick_rate, int snapshot_rate) noexcept {
  const auto held = recent_.begin() + static_cast<std::ptrdiff_t>(std::min(recent_count_, kRecent));
  const bool duplicate =
      std::any_of(recent_.begin(), held, [tick](const Arrival& arrival) { return arrival.tick == tick; });
  const bool forgotten =
      held == recent_.end() && std::all_of(recent_.begin(), recent_.end(),
                                           [tick](const Arrival& arrival) { return tick < arrival.tick; });
  if (duplicate || forgotten) {
    ++metrics_.snapshots_stale;
    return false;
  }
  if (recent_count_ == 0) newest_ = tick;
  if (usable) {
    if (tick < newest_) ++metrics_.snapshots_late;
    ++metrics_.snapshots_received;
  } else {
    ++metrics_.snapshots_no_baseline;
  }
  newest_ = std::max(newest_, tick);
  if (tick >= count_from_ && (!counting_ || tick < first_counted_)) {
    first_counted_ = tick;
    counting_ = true;
  }
  recent_[recent_count_ % kRecent] = Arrival{tick, usable};
  ++recent_count_;
  UpdateLoss(tick_rate, snapshot_rate);
  return true;
}

void LinkStats::CountLossFrom(Tick tick) noexcept {
  if (tick <= count_from_) return;
  count_from_ = tick;
  counting_ = false;
}

void LinkStats::UpdateLoss(int tick_rate, int snapshot_rate) noexcept {
  if (!counting_) return;
  const double ticks_per_snapshot =
      static_cast<double>(tick_rate) / protocol::EffectiveSnapshotRate(snapshot_rate, tick_rate);
  const double end = static_cast<double>(newest_) - kLateAllowance * ticks_per_snapshot;
  const double start = std::max(static_cast<double>(first_counted_), end - kLossHorizon * ticks_per_snapshot);
  const double span = end - start;  // ticks
  if (span < kMinLossSpan * ticks_per_snapshot) return;
  const std::size_t held = std::min(recent_count_, kRecent);
  std::size_t arrived = 0;
  std::size_t usable = 0;
  for (std::size_t i = 0; i < held; ++i) {
    const auto tick = static_cast<double>(recent_[i].tick);
    if (tick < start || tick >= end) continue;
    ++arrived;
    if (recent_[i].usable) ++usable;
  }
  loss_measured_ = loss_measured_ || span >= (kLossHorizon - 0.5) * ticks_per_snapshot;
  const double sent = span / ticks_per_snapshot;
  metrics_.snapshot_loss = std::clamp(1.0 - static_cast<double>(arrived) / sent, 0.0, 1.0);
  metrics_.snapshot_unusable = std::clamp(1.0 - static_cast<double>(usable) / sent, 0.0, 1.0);
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
