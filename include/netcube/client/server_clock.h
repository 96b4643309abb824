#pragma once
// The client's estimate of the server's clock, and how stale its newest snapshot gets.
//
// Every snapshot of server tick T arriving at local time t gives an offset sample t - T * tick_period:
// the server's epoch plus this packet's one-way delay. The estimate follows the lower envelope of those
// samples (down at once, up slowly), so it tracks the fastest path, is not reset by each snapshot, and
// lets a latency increase creep in. How far samples arrive above the envelope is the arrival jitter; the
// spacing of consecutive snapshot ticks is the snapshot interval (it grows with loss).
//
// The staleness of the newest snapshot (estimated server time minus its tick) is sampled every 10 ms,
// and the delay it calls for is its 99th percentile over the last 10 s, plus a margin. The staleness is
// one snapshot interval of regular spacing plus what loss, jitter and reordering add; that added part has
// a tail a 10 s window underestimates (the next bad run can be worse than any in the window), so the
// margin is three times it, up to two intervals. The view delay (view_delay.h) builds its target on it.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "netcube/client/interpolation_buffer.h"
#include "netcube/sim/time.h"

namespace netcube::client {

// Extends a 32-bit server tick to 64 bits, choosing the value nearest `reference` (a previous result), so
// tick 0 after 0xFFFFFFFF comes out as one more, not four billion less.
Tick UnwrapTick(std::uint32_t tick, Tick reference) noexcept;

class ServerClock {
 public:
  // Starts over from a Welcome: the server was at `server_tick` (unwrapped) when it arrived at `now`.
  void Reset(int tick_rate, int snapshot_rate, Tick server_tick, Micros now) noexcept;

  // Snapshots come at `snapshot_rate` from about `from_tick` on (the client asked the server for it). At
  // the first snapshot of that tick or later, the staleness window starts over, and until it holds 1 s of
  // samples the delay stays what it was.
  void SetSnapshotRate(int snapshot_rate, Tick from_tick) noexcept;

  // A snapshot of `tick` arrived at `now`. Only snapshots newer than every previous one should be given.
  void OnSnapshot(Tick tick, Micros now) noexcept;
  // Samples the staleness of the newest snapshot at `now` (at most every 10 ms; call it every frame).
  void Observe(Micros now) noexcept;

  // The estimated current server time, in (fractional) ticks.
  double ServerTicks(Micros now) const noexcept;

  double tick_period_ms() const noexcept { return tick_period_us_ / 1000.0; }
  // The server's snapshot interval, ms (1/snapshot_rate).
  double nominal_interval_ms() const noexcept { return nominal_interval_ms_; }
  // That, or the shorter interval of a faster rate asked for, until it comes.
  double shortest_interval_ms() const noexcept;
  // Mean spacing of received snapshots, ms (starts at the nominal 1/snapshot_rate).
  double snapshot_interval_ms() const noexcept { return interval_ms_; }
  // How late snapshots arrive relative to the fastest one: mean and mean deviation, ms.
  double lateness_mean_ms() const noexcept { return lateness_mean_ms_; }
  double lateness_deviation_ms() const noexcept { return lateness_dev_ms_; }

  // The delay the staleness calls for: its 99th percentile q over the last 10 s (2 ms resolution), plus
  // the margin clamp(3 (q - interval), 0, 2 intervals), and at least one interval. Two intervals before
  // the first sample; after a rate change, until 1 s of samples at the new rate, the one before it less
  // the change of interval (at least two of the new intervals).
  double MeasuredDelayMs() const noexcept;
  // A quantile of the staleness samples (0.99: q; 1: the largest), 0 before the first sample, and how many
  // samples it is taken over (at most 1000).
  static constexpr double kStalenessQuantile = 0.99;
  double StalenessQuantileMs(double quantile) const noexcept;
  std::size_t staleness_samples() const noexcept { return std::min(staleness_count_, kStalenessSamples); }
  // The window holds 1 s of samples (since the connection, or since the last rate change).
  bool settled() const noexcept { return staleness_count_ >= kSettledSamples; }
  // It holds its full 10 s.
  bool window_full() const noexcept { return staleness_count_ >= kStalenessSamples; }

 private:
  static constexpr std::size_t kStalenessSamples = 1000;  // 10 s at one per 10 ms
  static constexpr std::size_t kStalenessBins = 500;      // 2 ms each, up to the longest view delay
  static constexpr std::size_t kSettledSamples = 100;     // 1 s: enough to trust a new window

  double IntervalOfRate(int snapshot_rate) const noexcept;  // ms, at least a tick

  double tick_period_us_ = 1e6 / 60.0;
  double nominal_interval_ms_ = 50.0;
  double offset_us_ = 0.0;  // lower envelope of (arrival time - tick * period)
  double interval_ms_ = 50.0;
  double lateness_mean_ms_ = 0.0;
  double lateness_dev_ms_ = 0.0;
  Tick last_tick_ = 0;
  // A sliding window of staleness samples: the ring of their bins, and how many fall in each bin.
  std::array<std::uint16_t, kStalenessSamples> staleness_ring_{};
  std::array<std::uint16_t, kStalenessBins> staleness_bins_{};
  std::size_t staleness_count_ = 0;
  Micros next_staleness_sample_{0};
  double held_delay_ms_ = 0.0;  // the delay kept while a new window fills; 0: none
  int next_rate_ = 0;           // a rate change to come at next_rate_tick_; 0: none
  Tick next_rate_tick_ = 0;
};

}  // namespace netcube::client
