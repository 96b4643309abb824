#include "view_delay.h"

#include <algorithm>
#include <cmath>

namespace netcube::client {
namespace {

// The delay in use grows toward its target at most this fast (ms of delay per ms of time; it shrinks at
// kDelayShrinkRate): the render clock runs a little slow while the delay grows and a little fast while it
// shrinks, so it never jumps and never runs backward. While a cube's buffer is dry it runs at half speed:
// a fast climb.
constexpr double kDelayGrowRate = 0.1;
constexpr double kDryGrowRate = 0.5;
constexpr double kRareRun = 1e-5;  // per snapshot: at 60 a second, once in half an hour

}  // namespace

void ViewDelay::Reset() noexcept {
  delay_ms_ = 0.0;
  delay_started_ = false;
  render_ = 0.0;
  render_started_ = false;
  render_moved_ = 0.0;
  snapshot_loss_ = kUnmeasuredLoss;
}

void ViewDelay::SetSnapshotLoss(double loss, bool measured) noexcept {
  snapshot_loss_ = measured ? loss : std::max(loss, kUnmeasuredLoss);
}

double ViewDelay::AdaptiveTargetMs(const ServerClock& clock) const noexcept {
  // Runs of losses too rare for a 10 s window to show: k in a row leave the newest snapshot k + 1
  // intervals old and extrapolation bridges one, so the run rarer than kRareRun needs k and a half. While
  // a faster rate is on its way, the run is one of its intervals: the few snapshots still to come at the
  // old rate are too few for a run that rare.
  double loss_run_ms = 0.0;
  if (snapshot_loss_ > 0.0) {
    const double run = std::ceil(std::log(kRareRun) / std::log(std::min(snapshot_loss_, 0.5)));
    loss_run_ms = (run + 0.5) * clock.shortest_interval_ms();
  }
  return std::clamp(std::max(clock.MeasuredDelayMs(), loss_run_ms), kMinAdaptiveDelayMs, kMaxAdaptiveDelayMs);
}

void ViewDelay::OnSnapshot(Tick tick) noexcept {
  if (render_started_) return;
  render_ = static_cast<double>(tick);
  render_started_ = true;
}

void ViewDelay::Advance(Micros now, double elapsed_ms, const ServerClock& clock, const Settings& settings,
                        bool dry) noexcept {
  const double target = settings.adaptive_delay ? AdaptiveTargetMs(clock) : settings.interp_delay_ms;
  if (!delay_started_) {
    delay_ms_ = target;
    delay_started_ = true;
  } else if (settings.adaptive_delay && dry) {
    delay_ms_ = std::min(delay_ms_ + kDryGrowRate * elapsed_ms, kMaxAdaptiveDelayMs);
  } else {
    delay_ms_ += std::clamp(target - delay_ms_, -kDelayShrinkRate * elapsed_ms, kDelayGrowRate * elapsed_ms);
  }
  const double render_before = render_;
  render_ = std::max(render_, clock.ServerTicks(now) - delay_ms_ / clock.tick_period_ms());
  render_moved_ = render_ - render_before;
}

ViewDelay::Claim ViewDelay::ClaimFor(bool predicting_others, double present_tick, bool interpolation,
                                     Tick newest_tick) const noexcept {
  if (predicting_others) return {present_tick, 0.0};
  if (interpolation) return {render_, delay_ms_};
  return {static_cast<double>(newest_tick), 0.0};
}

}  // namespace netcube::client
