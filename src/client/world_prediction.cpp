#include "world_prediction.h"

#include <algorithm>
#include <cmath>

namespace netcube::client {
namespace {

// Ticks simulated past the one the present falls in: the next frame's present, a tick later, is then
// still inside the old simulation when a snapshot rolls it back, so the misprediction is measured at the
// same moment on both sides.
constexpr std::size_t kPresentMargin = 2;

}  // namespace

void WorldPrediction::Reset() {
  have_base_ = false;
  base_tick_ = 0;
  base_.clear();
  rolled_back_ = true;
  have_frames_ = false;
  cube_count_ = 0;
  frames_tick_ = 0;
  valid_ = 0;
  own_inputs_used_ = 0;
  own_oldest_ = 0;
  present_ = 0.0;
  others_predicted_ = false;
  own_state_.reset();
  remote_now_.fill(std::nullopt);
  for (CorrectionSmoother& smoother : remote_smoothers_) smoother.Reset();
  metrics_ = {};
}

void WorldPrediction::OnSnapshot(Tick tick, std::span<const sim::PlayerCube> world) {
  base_.assign(world.begin(), world.end());
  base_tick_ = tick;
  have_base_ = true;
  rolled_back_ = true;
}

std::span<sim::PlayerCube> WorldPrediction::FrameAt(std::size_t k) noexcept {
  return std::span(frames_).subspan(k * cube_count_, cube_count_);
}
std::span<const sim::PlayerCube> WorldPrediction::FrameAt(std::size_t k) const noexcept {
  return std::span(frames_).subspan(k * cube_count_, cube_count_);
}

void WorldPrediction::Step(std::size_t k, const Frame& frame) {
  const std::span<const sim::PlayerCube> before = FrameAt(k - 1);
  const std::span<sim::PlayerCube> world = FrameAt(k);
  std::copy(before.begin(), before.end(), world.begin());
  const auto moves = static_cast<std::size_t>(frame.moves_per_tick);
  const std::size_t own_inputs = frame.pending->size();
  steps_.clear();
  for (std::size_t i = 0; i < world.size(); ++i) {
    sim::PlayerCube& cube = world[i];
    sim::Input* inputs = inputs_.data() + i * moves;
    std::size_t count = 0;
    if (cube.id == frame.own) {
      // The own cube takes its pending inputs in order, a tick's worth a tick, then stands (the server has
      // nothing more of it to apply).
      for (std::size_t j = (k - 1) * moves; j < std::min(k * moves, own_inputs); ++j) {
        inputs[count++] = (*frame.pending)[j].input;
      }
    } else if (cube.state.vx != 0 || cube.state.vy != 0 || cube.state.buttons != 0) {
      // A remote cube goes on holding what it held last; one at rest holding nothing gets no input, as on
      // the server (its client sends none).
      for (; count < moves; ++count) {
        inputs[count] = sim::Input{static_cast<sim::Seq>(cube.state.last_input + 1), cube.state.buttons};
      }
    }
    if (count > 0) steps_.push_back({&cube, std::span<const sim::Input>(inputs, count)});
  }
  sim::StepWorld(world, steps_, frame.collisions, frame.arena, resolver_);
  ++metrics_.ticks_simulated;
  metrics_.cube_ticks_simulated += world.size();
}

void WorldPrediction::ReadRemotes(double present,
                                  std::array<std::optional<Vec2>, protocol::kMaxPlayers>& out) const {
  out.fill(std::nullopt);
  const double ahead = std::max(0.0, present - static_cast<double>(frames_tick_));
  const auto k = static_cast<std::size_t>(std::floor(ahead));
  if (k + 1 > valid_) return;
  const double fraction = ahead - static_cast<double>(k);
  const std::span<const sim::PlayerCube> at = FrameAt(k);
  const std::span<const sim::PlayerCube> next = FrameAt(k + 1);
  for (std::size_t i = 0; i < at.size(); ++i) {
    const Vec2 a = PositionOf(at[i].state);
    out[at[i].id] = a + (PositionOf(next[i].state) - a) * fraction;
  }
}

void WorldPrediction::Predict(const Frame& frame) {
  const auto moves_per_tick = static_cast<std::size_t>(std::max(1, frame.moves_per_tick));
  const std::size_t input_ticks = (frame.pending->size() + moves_per_tick - 1) / moves_per_tick;
  present_ = frame.present_tick;
  if (frame.to_input_tick) {
    present_ = std::max(present_, static_cast<double>(base_tick_ + static_cast<Tick>(input_ticks)));
  }
  const bool was_predicting = others_predicted_;
  others_predicted_ = false;
  own_state_.reset();
  if (!have_base_ || frame.window_ticks <= 0) return;
  const auto window = static_cast<std::size_t>(frame.window_ticks);
  const auto moves = static_cast<std::size_t>(std::max(1, frame.moves_per_tick));
  const PendingInputs& pending = *frame.pending;

  const bool rollback = rolled_back_;
  if (rollback) {
    RollBack(window, was_predicting);
  } else if (frames_.size() < (window + 1) * cube_count_) {
    // The window grew: keep what is simulated.
    frames_.resize((window + 1) * cube_count_);
  }
  if (inputs_.size() < cube_count_ * moves) inputs_.resize(cube_count_ * moves);
  steps_.reserve(cube_count_);

  // New own inputs change the ticks from the first of them on; the ticks before stand.
  const std::size_t own_inputs = pending.size();
  if (own_inputs_used_ > 0 && (own_inputs == 0 || pending.oldest_seq() != own_oldest_)) {
    valid_ = 0;  // the queue started over: nothing simulated holds
  } else if (own_inputs != own_inputs_used_) {
    valid_ = std::min(valid_, std::min(own_inputs, own_inputs_used_) / moves);
  }
  valid_ = std::min(valid_, window);

  const double ahead = std::max(0.0, present_ - static_cast<double>(frames_tick_));
  const auto present_frames = static_cast<std::size_t>(std::floor(ahead)) + kPresentMargin;
  const std::size_t own_frames = (own_inputs + moves - 1) / moves;
  const std::size_t target = std::min(window, std::max(present_frames, own_frames));
  for (std::size_t k = valid_ + 1; k <= target; ++k) Step(k, frame);
  valid_ = std::max(valid_, target);
  own_inputs_used_ = std::min(own_inputs, valid_ * moves);
  if (own_inputs > 0) own_oldest_ = pending.oldest_seq();
  metrics_.ticks_ahead = ahead;

  if (own_frames <= valid_) {
    const std::span<const sim::PlayerCube> at = FrameAt(own_frames);
    const auto own =
        std::find_if(at.begin(), at.end(), [&](const sim::PlayerCube& c) { return c.id == frame.own; });
    if (own != at.end()) own_state_ = own->state;
  }

  ReadRemotes(present_, remote_now_);
  others_predicted_ = static_cast<std::size_t>(std::floor(ahead)) + 1 <= valid_;
  metrics_.others_predicted = others_predicted_;
  if (!others_predicted_) {
    for (CorrectionSmoother& smoother : remote_smoothers_) smoother.Reset();
    return;
  }
  if (rollback) SmoothRollbackJumps(frame);
}

void WorldPrediction::RollBack(std::size_t window, bool was_predicting) {
  // What the old simulation drew at this present, to see how far the snapshot moves each remote cube.
  if (have_frames_ && was_predicting) {
    ReadRemotes(present_, remote_before_);
  } else {
    remote_before_.fill(std::nullopt);
  }
  cube_count_ = base_.size();
  if (frames_.size() < (window + 1) * cube_count_) frames_.resize((window + 1) * cube_count_);
  std::copy(base_.begin(), base_.end(), frames_.begin());
  frames_tick_ = base_tick_;
  valid_ = 0;
  own_inputs_used_ = 0;
  rolled_back_ = false;
  have_frames_ = true;
  ++metrics_.rollbacks;
}

void WorldPrediction::SmoothRollbackJumps(const Frame& frame) {
  for (std::size_t id = 0; id < remote_now_.size(); ++id) {
    if (!remote_now_[id] || !remote_before_[id] || id == frame.own) continue;
    const Vec2 jump = *remote_now_[id] - *remote_before_[id];
    const double distance = Length(jump);
    if (distance == 0.0) continue;
    ++metrics_.remote_corrections;
    metrics_.remote_correction_max = std::max(metrics_.remote_correction_max, distance);
    remote_smoothers_[id].OnCorrection(jump, frame.smoothing, frame.smoothing_ms);
  }
}

void WorldPrediction::AdvanceSmoothing(Micros elapsed, const Frame& frame) {
  for (CorrectionSmoother& smoother : remote_smoothers_) {
    if (frame.smoothing) {
      smoother.Advance(elapsed, frame.smoothing_ms);
    } else {
      smoother.Reset();
    }
  }
}

std::optional<Vec2> WorldPrediction::RemoteAt(sim::PlayerId id) const noexcept {
  if (!others_predicted_ || !remote_now_[id]) return std::nullopt;
  return *remote_now_[id] + remote_smoothers_[id].offset();
}

WorldPrediction::Frame WorldPrediction::FrameAt(Micros now, const ServerClock& clock, double rtt_ms,
                                                const protocol::Welcome& welcome,
                                                const PendingInputs& pending, const Settings& settings) {
  Frame frame;
  const double one_way_ms = std::max(0.0, rtt_ms / 2.0 - clock.lateness_mean_ms());
  frame.present_tick = clock.ServerTicks(now) + one_way_ms / clock.tick_period_ms();
  frame.own = welcome.player_id;
  frame.pending = &pending;
  frame.moves_per_tick = std::max(1, sim::kTicksPerSecond / std::max(1, int{welcome.tick_rate}));
  frame.collisions = welcome.collisions;
  frame.arena = welcome.arena;
  frame.window_ticks = static_cast<int>(settings.predict_window_ms / clock.tick_period_ms());
  frame.smoothing = settings.smoothing;
  frame.smoothing_ms = settings.smoothing_ms;
  frame.to_input_tick = settings.predict_to_input_tick;
  return frame;
}

}  // namespace netcube::client
