#pragma once
// The client's one owner of "how far in the past remote cubes are drawn": the target delay (fixed, or
// what the measured staleness and loss call for), the delay in use slewing toward it, the render time it
// sets, and the moment a tag claims to have seen. The server clock measures, the remote cubes sample at
// the render time, the conductor asks here.
#include "netcube/client/server_clock.h"
#include "netcube/client/settings.h"
#include "netcube/sim/time.h"

namespace netcube::client {

// Bounds of the adaptive delay, milliseconds.
inline constexpr double kMinAdaptiveDelayMs = 30.0;
inline constexpr double kMaxAdaptiveDelayMs = 1000.0;

class ViewDelay {
 public:
  // The delay in use follows its target at most this fast while it shrinks (ms of delay per ms of time):
  // the render clock then runs this much fast.
  static constexpr double kDelayShrinkRate = 0.05;

  // Forgets the delay, the render time and the loss: a new connection.
  void Reset() noexcept;

  // The share of snapshots lost, as the link's statistics measure it; until `measured` (over their full
  // horizon), at least kUnmeasuredLoss is assumed (the start is when the delay is thinnest, and 2% loss
  // brings a run of three about once a minute across 32 players). A fresh delay assumes it.
  static constexpr double kUnmeasuredLoss = 0.01;
  void SetSnapshotLoss(double loss, bool measured) noexcept;
  // The adaptive target: what the staleness calls for (ServerClock::MeasuredDelayMs), and at least
  // (k + 1/2) intervals for the k losses in a row that the snapshot loss p makes rarer than 1e-5
  // (p^k < 1e-5; the intervals of a faster rate asked for, until it comes), clamped to
  // [kMinAdaptiveDelayMs, kMaxAdaptiveDelayMs]. With the capped extrapolation of one snapshot interval on
  // top, the buffer runs dry beyond it only in rare moments.
  double AdaptiveTargetMs(const ServerClock& clock) const noexcept;

  // A snapshot of `tick` is the newest: the first one starts the render time (the client knows nothing of
  // the world before it).
  void OnSnapshot(Tick tick) noexcept;

  // Moves the delay toward its target (`elapsed_ms` since the last advance; `dry`: some cube's render time
  // was past its newest state at the last refresh) and sets the render time from the server clock's
  // estimate at `now`, never backward.
  void Advance(Micros now, double elapsed_ms, const ServerClock& clock, const Settings& settings,
               bool dry) noexcept;

  // What a tag claims to have seen the remote cubes at: the present when predicting them (`present_tick`),
  // the render time with interpolation, else the newest snapshot; and the delay behind it (0 but for
  // interpolation).
  struct Claim {
    double tick = 0.0;
    double delay_ms = 0.0;
  };
  Claim ClaimFor(bool predicting_others, double present_tick, bool interpolation,
                 Tick newest_tick) const noexcept;

  double delay_ms() const noexcept { return delay_ms_; }
  double render_tick() const noexcept { return render_; }
  // How far the last Advance moved the render time, ticks.
  double render_moved() const noexcept { return render_moved_; }

 private:
  double delay_ms_ = 0.0;
  bool delay_started_ = false;
  double render_ = 0.0;
  bool render_started_ = false;  // by the first snapshot
  double render_moved_ = 0.0;
  double snapshot_loss_ = kUnmeasuredLoss;
};

}  // namespace netcube::client
