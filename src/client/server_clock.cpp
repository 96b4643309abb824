#include "netcube/client/server_clock.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "netcube/protocol/rules.h"

namespace netcube::client {
namespace {

// How fast the offset envelope rises toward later arrivals, per snapshot: slow enough to stay near the
// fastest path under jitter, fast enough to follow a latency increase within a few seconds.
constexpr double kEnvelopeRise = 1.0 / 64.0;
// EWMA weights per snapshot for the interval and the lateness statistics.
constexpr double kIntervalGain = 1.0 / 16.0;
constexpr double kLatenessGain = 1.0 / 16.0;
constexpr Micros kStalenessSampleEvery{10'000};
constexpr double kStalenessBinMs = 2.0;

}  // namespace

Tick UnwrapTick(std::uint32_t tick, Tick reference) noexcept { return protocol::WidenTick(tick, reference); }

void ServerClock::Reset(int tick_rate, int snapshot_rate, Tick server_tick, Micros now) noexcept {
  *this = ServerClock{};
  tick_period_us_ = 1e6 / std::max(1, tick_rate);
  nominal_interval_ms_ = 1000.0 / std::max(1, protocol::EffectiveSnapshotRate(snapshot_rate, tick_rate));
  interval_ms_ = nominal_interval_ms_;
  next_staleness_sample_ = now;
  offset_us_ = static_cast<double>(now.count()) - static_cast<double>(server_tick) * tick_period_us_;
  lateness_mean_ms_ = 0.0;
  lateness_dev_ms_ = 0.0;
  last_tick_ = server_tick;
}

void ServerClock::OnSnapshot(Tick tick, Micros now) noexcept {
  const double sample = static_cast<double>(now.count()) - static_cast<double>(tick) * tick_period_us_;
  const double lateness_ms = std::max(0.0, sample - offset_us_) / 1000.0;
  if (sample < offset_us_) {
    offset_us_ = sample;
  } else {
    offset_us_ += (sample - offset_us_) * kEnvelopeRise;
  }
  lateness_dev_ms_ += (std::abs(lateness_ms - lateness_mean_ms_) - lateness_dev_ms_) * kLatenessGain;
  lateness_mean_ms_ += (lateness_ms - lateness_mean_ms_) * kLatenessGain;

  if (next_rate_ > 0 && tick >= next_rate_tick_) {
    const double delay_ms = MeasuredDelayMs();
    const double old_interval_ms =
        std::exchange(nominal_interval_ms_, IntervalOfRate(std::exchange(next_rate_, 0)));
    // Until the new window speaks: the old delay, shorter or longer by the change of interval (the
    // regular spacing it covered), at least two of the new intervals, as at the start.
    held_delay_ms_ =
        std::max(delay_ms - (old_interval_ms - nominal_interval_ms_), 2.0 * nominal_interval_ms_);
    staleness_ring_ = {};
    staleness_bins_ = {};
    staleness_count_ = 0;
  }
  if (tick > last_tick_) {
    const double spacing_ms = static_cast<double>(tick - last_tick_) * tick_period_us_ / 1000.0;
    interval_ms_ += (spacing_ms - interval_ms_) * kIntervalGain;
    last_tick_ = tick;
  }
}

double ServerClock::ServerTicks(Micros now) const noexcept {
  return (static_cast<double>(now.count()) - offset_us_) / tick_period_us_;
}

void ServerClock::Observe(Micros now) noexcept {
  if (now < next_staleness_sample_) return;
  next_staleness_sample_ = now + kStalenessSampleEvery;
  const double staleness_ms = (ServerTicks(now) - static_cast<double>(last_tick_)) * tick_period_ms();
  const auto bin = static_cast<std::uint16_t>(
      std::clamp(staleness_ms / kStalenessBinMs, 0.0, static_cast<double>(kStalenessBins - 1)));
  std::uint16_t& slot = staleness_ring_[staleness_count_ % kStalenessSamples];
  if (staleness_count_ >= kStalenessSamples) --staleness_bins_[slot];
  slot = bin;
  ++staleness_bins_[bin];
  ++staleness_count_;
}

double ServerClock::IntervalOfRate(int snapshot_rate) const noexcept {
  return std::max(tick_period_ms(), 1000.0 / snapshot_rate);
}

void ServerClock::SetSnapshotRate(int snapshot_rate, Tick from_tick) noexcept {
  next_rate_ = std::max(1, snapshot_rate);
  next_rate_tick_ = from_tick;
}

double ServerClock::shortest_interval_ms() const noexcept {
  return next_rate_ > 0 ? std::min(nominal_interval_ms_, IntervalOfRate(next_rate_)) : nominal_interval_ms_;
}

double ServerClock::MeasuredDelayMs() const noexcept {
  if (held_delay_ms_ > 0.0 && !settled()) return held_delay_ms_;
  if (staleness_count_ == 0) return 2.0 * nominal_interval_ms_;
  const double quantile_ms = StalenessQuantileMs(kStalenessQuantile);
  const double margin_ms =
      std::clamp(3.0 * (quantile_ms - nominal_interval_ms_), 0.0, 2.0 * nominal_interval_ms_);
  return std::max(quantile_ms + margin_ms, nominal_interval_ms_);
}

double ServerClock::StalenessQuantileMs(double quantile) const noexcept {
  const std::size_t samples = staleness_samples();
  if (samples == 0) return 0.0;
  const auto wanted = static_cast<std::size_t>(std::ceil(quantile * static_cast<double>(samples)));
  std::size_t seen = 0;
  std::size_t bin = 0;
  for (; bin + 1 < kStalenessBins; ++bin) {
    seen += staleness_bins_[bin];
    if (seen >= wanted) break;
  }
  return static_cast<double>(bin + 1) * kStalenessBinMs;  // the bin's upper edge
}

}  // namespace netcube::client
