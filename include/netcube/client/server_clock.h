#pragma once
// The client's estimate of the server's clock, and the interpolation delay it can afford.
//
// Every snapshot of server tick T arriving at local time t gives an offset sample t - T * tick_period:
// the server's epoch plus this packet's one-way delay. The estimate follows the lower envelope of those
// samples (down at once, up slowly), so it tracks the fastest path, is not reset by each snapshot, and
// lets a latency increase creep in. How far samples arrive above the envelope is the arrival jitter; the
// spacing of consecutive snapshot ticks is the snapshot interval (it grows with loss). Both drive the
// adaptive interpolation delay.
#include <cstdint>

#include "netcube/client/interpolation_buffer.h"
#include "netcube/sim/time.h"

namespace netcube::client {

// Extends a 32-bit server tick to 64 bits, choosing the value nearest `reference` (a previous result), so
// tick 0 after 0xFFFFFFFF comes out as one more, not four billion less.
Tick UnwrapTick(std::uint32_t tick, Tick reference) noexcept;

// Bounds of the adaptive delay, milliseconds.
inline constexpr double kMinAdaptiveDelayMs = 30.0;
inline constexpr double kMaxAdaptiveDelayMs = 1000.0;

// How many snapshots lost in a row the adaptive delay rides out at a measured loss rate (0 to 1): at least
// one, and enough that a longer run of losses (probability loss^(n+1) per snapshot, losses independent)
// comes less than once in kSnapshotsPerUnderrun snapshots.
inline constexpr double kSnapshotsPerUnderrun = 12'000.0;  // ten minutes at 20 snapshots per second
int LossesToRideOut(double snapshot_loss) noexcept;

class ServerClock {
 public:
  // Starts over from a Welcome: the server was at `server_tick` (unwrapped) when it arrived at `now`.
  void Reset(int tick_rate, int snapshot_rate, Tick server_tick, Micros now) noexcept;

  // A snapshot of `tick` arrived at `now`. Only snapshots newer than every previous one should be given.
  void OnSnapshot(Tick tick, Micros now) noexcept;

  // The estimated current server time, in (fractional) ticks.
  double ServerTicks(Micros now) const noexcept;

  double tick_period_ms() const noexcept { return tick_period_us_ / 1000.0; }
  // Mean spacing of received snapshots, ms (starts at the nominal 1/snapshot_rate).
  double snapshot_interval_ms() const noexcept { return interval_ms_; }
  // How late snapshots arrive relative to the fastest one: mean and mean deviation, ms.
  double lateness_mean_ms() const noexcept { return lateness_mean_ms_; }
  double lateness_deviation_ms() const noexcept { return lateness_dev_ms_; }

  // A delay that rides out LossesToRideOut(snapshot_loss) lost snapshots in a row plus the measured
  // jitter: that many sent-snapshot intervals plus one, a tick of margin, the mean lateness and four mean
  // deviations of it, clamped to [kMinAdaptiveDelayMs, kMaxAdaptiveDelayMs]. `snapshot_loss` is the
  // measured fraction.
  double AdaptiveDelayMs(double snapshot_loss) const noexcept;

 private:
  double tick_period_us_ = 1e6 / 60.0;
  double offset_us_ = 0.0;  // lower envelope of (arrival time - tick * period)
  double interval_ms_ = 50.0;
  double lateness_mean_ms_ = 0.0;
  double lateness_dev_ms_ = 0.0;
  Tick last_tick_ = 0;
};

}  // namespace netcube::client
