#pragma once
// The client's room for its own cube: sampling the held buttons at the fixed step, prediction, the
// pending-input queue, reconciliation with the server's state, and the smoothing of corrections (see
// client.h for the behaviour). It sends nothing itself: each sample hands its InputMessage to the caller.
#include <cstdint>
#include <functional>
#include <optional>

#include "netcube/client/metrics.h"
#include "netcube/client/pending_inputs.h"
#include "netcube/client/settings.h"
#include "netcube/client/smoothing.h"
#include "netcube/client/views.h"

namespace netcube::client {

class OwnCube {
 public:
  // Sends one InputMessage; true if it went out.
  using Send = std::function<bool(const protocol::InputMessage&)>;

  // Forgets the cube, its inputs and its measurements: a new connection.
  void Reset() noexcept;
  // The fixed-step sampling starts at `now` (the Welcome's arrival); the cube moves in `arena`, the
  // session's.
  void StartSampling(Micros now, const sim::Arena& arena) noexcept;

  // Takes every sample due by `now` (`input_rate` per simulation step of the paced sampling clock, at most
  // a few after a stall) of the `held` buttons, and sends the unacknowledged inputs after each.
  void Sample(Micros now, std::uint8_t held, int input_rate, int redundancy, const Send& send);

  // Whether a snapshot's ack names an input this client has sent.
  bool AckPlausible(bool has_ack, sim::Seq ack) const noexcept;
  // The server's state of the own cube, after the input `ack` if `has_ack`: acknowledges the inputs it
  // applied. True when there is a prediction to reconcile (false at the first sight of the cube, which is
  // the prediction).
  bool OnServerState(const sim::CubeState& server, bool has_ack, sim::Seq ack, const Settings& settings);
  // Then reconciles: the pending inputs replayed on the server's state with Move, or `replayed` when given
  // (the world prediction's own cube after them, collisions included), and, when the prediction is what
  // is drawn, measures the correction.
  void Reconcile(const Settings& settings, const sim::CubeState* replayed);
  // The world prediction's own cube after the newest input, between snapshots: not a correction, the same
  // inputs with the other cubes' pushes predicted.
  void AdoptPrediction(const sim::CubeState& state) noexcept { predicted_ = state; }

  // The server's input lead after applying `ack` (inputs waiting minus its buffer's target): with
  // input_pacing, the sampling clock runs a little slow while the lead is positive, fast while negative.
  // Snapshots come at `snapshot_rate` a second: each weighs in for the time it stands for.
  void OnInputLead(sim::Seq ack, int lead, int snapshot_rate, const Settings& settings) noexcept;

  // Lets `elapsed` of smoothing pass and refreshes the view.
  void RefreshView(Micros elapsed, const Settings& settings) noexcept;
  void OnSettings(const Settings& settings) noexcept;
  // A tag went off along `aim`: the cube faces there until it moves.
  void Face(sim::Aim aim) noexcept { view_.facing = aim; }

  // Known, at rest both predicted and on the server, and every input acknowledged.
  bool Settled() const noexcept;

  const LocalView& view() const noexcept { return view_; }
  const PendingInputs& pending() const noexcept { return pending_; }
  const std::optional<PredictionCheck>& last_check() const noexcept { return last_check_; }
  OwnCubeMetrics metrics() const noexcept;

 private:
  void TakeSample(std::uint8_t buttons, int redundancy, const Send& send);

  bool present_ = false;
  sim::Arena arena_;
  sim::CubeState predicted_;
  sim::CubeState server_state_;
  PendingInputs pending_;
  sim::Seq next_seq_ = 0;
  bool any_input_sent_ = false;
  // The sampling clock: the caller's time since StartSampling, each stretch scaled by sample_rate_.
  Micros last_sample_call_{0};
  double sample_clock_us_ = 0.0;
  std::int64_t samples_taken_ = 0;
  double sample_rate_ = 1.0;   // the sampling clock's rate against the caller's clock (1: unpaced)
  double lead_average_ = 0.0;  // the reported input lead, smoothed over snapshots
  // The first input after the last skipped sample: leads about inputs before it describe an old stream.
  sim::Seq stream_start_ = 0;
  bool stream_broken_ = true;
  // Samples skipped at rest while inputs waited for an ack; at kAckPatienceSamples one is sent instead.
  static constexpr int kAckPatienceSamples = sim::kTicksPerSecond;
  int unacknowledged_idle_samples_ = 0;
  CorrectionSmoother smoother_;
  Vec2 last_correction_;
  std::optional<PredictionCheck> last_check_;
  std::optional<sim::Seq> acked_;  // the newest ack, once there is one
  double correction_sum_ = 0.0;
  OwnCubeMetrics metrics_;
  LocalView view_;
};

}  // namespace netcube::client
