#include "own_cube.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "netcube/sim/ray.h"

namespace netcube::client {
namespace {

// After a stall (a debugger, a slow frame) the client does not flood the server with the missed samples.
constexpr std::int64_t kMaxCatchUpSamples = 8;
constexpr int kMaxInputRate = 8;

// Input pacing. The rate changes by kPacingGain per input of smoothed lead, at most kMaxPacing either way
// (a clock 1% off settles at half an input of lead); a lead counts once the server has applied this many
// inputs of the current stream, past the wait that fills its buffer.
constexpr double kPacingGain = 0.02;
constexpr double kMaxPacing = 0.03;
// The lead's average weighs each snapshot by this over the snapshot rate: 0.1 at 20 a second.
constexpr double kLeadSmoothingPerSecond = 2.0;
constexpr int kLeadSettleInputs = 10;

}  // namespace

void OwnCube::Reset() noexcept { *this = OwnCube{}; }

void OwnCube::StartSampling(Micros now, const sim::Arena& arena) noexcept {
  arena_ = arena;
  last_sample_call_ = now;
  sample_clock_us_ = 0.0;
  samples_taken_ = 0;
}

void OwnCube::Sample(Micros now, std::uint8_t held, int input_rate, int redundancy, const Send& send) {
  const std::int64_t per_second =
      std::int64_t{sim::kTicksPerSecond} * std::clamp(input_rate, 1, kMaxInputRate);
  if (now < last_sample_call_) return;
  sample_clock_us_ += static_cast<double>((now - last_sample_call_).count()) * sample_rate_;
  last_sample_call_ = now;
  // Samples due by now. Callers' clocks count whole microseconds, and an interval (16,666.67 us at 60 a
  // second) ends between two: one that ends within the coming microsecond is due now, or a frame clock at
  // the tick rate (the lab's) would take it a frame late: the cube still for a frame, then two steps.
  const double due_by_us = sample_clock_us_ + 1.0;
  const auto due =
      static_cast<std::int64_t>(std::floor(due_by_us * static_cast<double>(per_second) / 1e6)) + 1;
  if (due - samples_taken_ > kMaxCatchUpSamples) samples_taken_ = due - kMaxCatchUpSamples;
  for (; samples_taken_ < due; ++samples_taken_) {
    TakeSample(static_cast<std::uint8_t>(held & sim::kButtonMask), redundancy, send);
  }
}

void OwnCube::TakeSample(std::uint8_t buttons, int redundancy, const Send& send) {
  // Inputs start once a snapshot has shown the client its cube: predicting from nothing is pointless.
  if (!present_) return;
  // No key on a cube at rest changes nothing, on either side: skipping it lets the queue drain. But an
  // input the server dropped for good (its queue was full: a burst after a stall) is never acknowledged
  // itself; after a second of such samples with inputs still pending, one no-key input is sent, whose
  // ack clears them (the server applies it on its own state, which the prediction then follows).
  bool no_op = buttons == 0 && predicted_.vx == 0 && predicted_.vy == 0;
  if (no_op && !pending_.empty() && ++unacknowledged_idle_samples_ >= kAckPatienceSamples) no_op = false;
  if (!no_op) unacknowledged_idle_samples_ = 0;
  if (no_op) stream_broken_ = true;
  if (!no_op) {
    if (std::exchange(stream_broken_, false)) stream_start_ = next_seq_;
    const sim::Input input{next_seq_, buttons};
    next_seq_ = static_cast<sim::Seq>(next_seq_ + 1);
    predicted_ = sim::Move(predicted_, input, arena_);
    pending_.Push({input, predicted_});
    any_input_sent_ = true;
    ++metrics_.inputs_sent;
  }
  // Every sample resends what is unacknowledged (the newest `redundancy` inputs), so a lost packet
  // loses nothing while later ones get through.
  if (pending_.empty()) return;
  protocol::InputMessage message;
  const std::size_t count = std::min(pending_.size(), static_cast<std::size_t>(redundancy));
  for (std::size_t i = pending_.size() - count; i < pending_.size(); ++i)
    message.inputs.push_back(pending_[i].input);
  if (send(message)) ++metrics_.input_messages_sent;
}

bool OwnCube::AckPlausible(bool has_ack, sim::Seq ack) const noexcept {
  return !has_ack || (any_input_sent_ && !sim::SeqGreater(ack, static_cast<sim::Seq>(next_seq_ - 1)));
}

bool OwnCube::OnServerState(const sim::CubeState& server, bool has_ack, sim::Seq ack,
                            const Settings& settings) {
  server_state_ = server;
  server_state_.last_input = has_ack ? ack : sim::Seq{0};
  if (!present_) {
    // The first sight of the own cube: no input has been sampled yet, so this is the prediction.
    present_ = true;
    predicted_ = server_state_;
    return false;
  }
  if (has_ack) {
    // Without prediction nothing predicted is drawn, so nothing can differ from the server.
    if (const PendingInput* entry = pending_.Find(ack); entry != nullptr && settings.prediction) {
      last_check_ = PredictionCheck{ack, entry->predicted, server_state_,
                                    sim::SamePhysics(entry->predicted, server_state_)};
    }
    if (pending_.Acknowledge(ack) > 0) unacknowledged_idle_samples_ = 0;
    // Inputs are numbered from 0 without gaps, so an ack covers every input up to it: counted from the
    // ack itself, not from the queue (which may have lost track of some).
    constexpr sim::Seq kBeforeFirst = 0xFFFF;
    if (!acked_ || sim::SeqGreater(ack, *acked_)) {
      metrics_.inputs_acked += static_cast<sim::Seq>(ack - acked_.value_or(kBeforeFirst));
      acked_ = ack;
    }
    metrics_.has_ack = true;
    metrics_.last_acked_input = ack;
  }
  return true;
}

void OwnCube::Reconcile(const Settings& settings, const sim::CubeState* replayed) {
  const sim::CubeState before = predicted_;
  predicted_ = server_state_;
  if (settings.reconciliation && replayed != nullptr) {
    predicted_ = *replayed;
  } else if (settings.reconciliation) {
    // Replay what the server has not applied yet; each replayed prediction replaces the old one.
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      predicted_ = sim::Move(predicted_, pending_[i].input, arena_);
      pending_[i].predicted = predicted_;
    }
  }
  // Without reconciliation (Gambetta's naive prediction) the server's older state simply overwrites the
  // prediction; the inputs still in flight stay pending (and resent) until acknowledged.
  ++metrics_.reconciliations;
  // A correction is something the player sees: with prediction off the own cube is drawn at the server's
  // state, and the prediction computed in the background corrects nothing on screen.
  if (!settings.prediction || sim::SamePhysics(before, predicted_)) return;
  last_correction_ = PositionOf(predicted_) - PositionOf(before);
  const double distance = Length(last_correction_);
  ++metrics_.corrections;
  metrics_.max_correction = std::max(metrics_.max_correction, distance);
  correction_sum_ += distance;
  metrics_.mean_correction = correction_sum_ / static_cast<double>(metrics_.corrections);
  smoother_.OnCorrection(last_correction_, settings.smoothing, settings.smoothing_ms);
}

void OwnCube::OnInputLead(sim::Seq ack, int lead, int snapshot_rate, const Settings& settings) noexcept {
  if (!settings.input_pacing) {
    sample_rate_ = 1.0;
    lead_average_ = 0.0;
    return;
  }
  if (stream_broken_ || sim::SeqDiff(ack, stream_start_) < kLeadSettleInputs) return;
  // Weighted by the time a snapshot stands for, so the average spans about half a second at any rate.
  const double weight = std::min(1.0, kLeadSmoothingPerSecond / std::max(1, snapshot_rate));
  lead_average_ += (static_cast<double>(lead) - lead_average_) * weight;
  sample_rate_ = 1.0 - std::clamp(kPacingGain * lead_average_, -kMaxPacing, kMaxPacing);
}

void OwnCube::RefreshView(Micros elapsed, const Settings& settings) noexcept {
  if (settings.smoothing) {
    smoother_.Advance(elapsed, settings.smoothing_ms);
  } else {
    smoother_.Reset();
  }
  view_.present = present_;
  view_.predicted_state = predicted_;
  view_.server_state = server_state_;
  view_.predicted = PositionOf(predicted_);
  view_.server = PositionOf(server_state_);
  view_.smoothing_offset = smoother_.offset();
  view_.drawn = settings.prediction ? view_.predicted + view_.smoothing_offset : view_.server;
  view_.last_correction = last_correction_;
  if (predicted_.vx != 0 || predicted_.vy != 0) view_.facing = sim::AimToward(predicted_.vx, predicted_.vy);
}

void OwnCube::OnSettings(const Settings& settings) noexcept {
  if (!settings.smoothing) smoother_.Reset();
  if (!settings.prediction) last_check_.reset();
}

bool OwnCube::Settled() const noexcept {
  return present_ && pending_.empty() && predicted_.vx == 0 && predicted_.vy == 0 && server_state_.vx == 0 &&
         server_state_.vy == 0;
}

OwnCubeMetrics OwnCube::metrics() const noexcept {
  OwnCubeMetrics m = metrics_;
  m.pending_inputs = pending_.size();
  m.input_lead = lead_average_;
  m.sample_rate = sample_rate_;
  return m;
}

}  // namespace netcube::client
