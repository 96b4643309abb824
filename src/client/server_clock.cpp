#include "netcube/client/server_clock.h"

#include <algorithm>
#include <cmath>

namespace netcube::client {
namespace {

// How fast the offset envelope rises toward later arrivals, per snapshot: slow enough to stay near the
// fastest path under jitter, fast enough to follow a latency increase within a few seconds.
constexpr double kEnvelopeRise = 1.0 / 64.0;
// EWMA weights per snapshot for the interval and the lateness statistics.
constexpr double kIntervalGain = 1.0 / 16.0;
constexpr double kLatenessGain = 1.0 / 16.0;
// Delay = intervals for the losses ridden out + mean lateness + this many deviations of it.
constexpr double kDelayDeviations = 4.0;
// Beyond this a measured loss says nothing useful about the sent interval (the delay is at its cap anyway).
constexpr double kMaxMeaningfulLoss = 0.9;
constexpr int kMaxLossesRiddenOut = 30;

}  // namespace

Tick UnwrapTick(std::uint32_t tick, Tick reference) noexcept {
  const auto forward = static_cast<std::int32_t>(tick - static_cast<std::uint32_t>(reference));
  return reference + forward;
}

void ServerClock::Reset(int tick_rate, int snapshot_rate, Tick server_tick, Micros now) noexcept {
  tick_period_us_ = 1e6 / std::max(1, tick_rate);
  interval_ms_ = 1000.0 / std::max(1, std::min(snapshot_rate, tick_rate));
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

  if (tick > last_tick_) {
    const double spacing_ms = static_cast<double>(tick - last_tick_) * tick_period_us_ / 1000.0;
    interval_ms_ += (spacing_ms - interval_ms_) * kIntervalGain;
    last_tick_ = tick;
  }
}

double ServerClock::ServerTicks(Micros now) const noexcept {
  return (static_cast<double>(now.count()) - offset_us_) / tick_period_us_;
}

int LossesToRideOut(double snapshot_loss) noexcept {
  const double loss = std::clamp(snapshot_loss, 0.0, kMaxMeaningfulLoss);
  int losses = 1;
  while (losses < kMaxLossesRiddenOut && std::pow(loss, losses + 1) * kSnapshotsPerUnderrun > 1.0) ++losses;
  return losses;
}

double ServerClock::AdaptiveDelayMs(double snapshot_loss) const noexcept {
  // The received spacing stretches with loss; the server sends at 1 - loss of it.
  const double sent_interval_ms = interval_ms_ * (1.0 - std::clamp(snapshot_loss, 0.0, kMaxMeaningfulLoss));
  const double intervals = LossesToRideOut(snapshot_loss) + 1;
  // A gap of exactly `intervals` must not run the buffer dry either, and snapshots go out on tick
  // boundaries, so one interval can be a tick longer than the mean: one tick of margin.
  const double margin_ms = tick_period_ms();
  const double delay =
      intervals * sent_interval_ms + margin_ms + lateness_mean_ms_ + kDelayDeviations * lateness_dev_ms_;
  return std::clamp(delay, kMinAdaptiveDelayMs, kMaxAdaptiveDelayMs);
}

}  // namespace netcube::client
