#include "netcube/client/interpolation_buffer.h"

#include <algorithm>

namespace netcube::client {
namespace {

double Clamp(double v, std::int32_t lo, std::int32_t hi) noexcept {
  return std::clamp(v, static_cast<double>(lo), static_cast<double>(hi));
}

}  // namespace

const char* ToString(SampleKind kind) noexcept {
  switch (kind) {
    case SampleKind::kEmpty:
      return "empty";
    case SampleKind::kInterpolated:
      return "interpolated";
    case SampleKind::kBeforeOldest:
      return "before oldest";
    case SampleKind::kExtrapolated:
      return "extrapolated";
    case SampleKind::kHeld:
      return "held";
    case SampleKind::kLatest:
      return "latest";
    case SampleKind::kPredicted:
      return "predicted";
  }
  return "?";
}

InterpolationBuffer::InsertResult InterpolationBuffer::Insert(Tick tick,
                                                              const sim::CubeState& state) noexcept {
  // Snapshots nearly always arrive in order: search from the newest end.
  std::size_t at = size_;
  while (at > 0 && states_[at - 1].tick > tick) --at;
  if (at > 0 && states_[at - 1].tick == tick) return InsertResult::kDuplicate;
  if (size_ == kCapacity) {
    if (at == 0) return InsertResult::kTooOld;
    // Drop the oldest: the states before the new one move down a slot, those after stay.
    std::move(states_.begin() + 1, states_.begin() + static_cast<std::ptrdiff_t>(at), states_.begin());
    states_[at - 1] = {tick, state};
    return InsertResult::kInserted;
  }
  std::move_backward(states_.begin() + static_cast<std::ptrdiff_t>(at),
                     states_.begin() + static_cast<std::ptrdiff_t>(size_),
                     states_.begin() + static_cast<std::ptrdiff_t>(size_ + 1));
  states_[at] = {tick, state};
  ++size_;
  return InsertResult::kInserted;
}

Sample InterpolationBuffer::SampleAt(double render_tick, double max_extrapolation_ticks,
                                     const sim::Arena& arena) const noexcept {
  Sample sample;
  if (size_ == 0) return sample;

  const TimedState& oldest = states_[0];
  if (render_tick < static_cast<double>(oldest.tick)) {
    sample.position = PositionOf(oldest.state);
    sample.kind = SampleKind::kBeforeOldest;
    return sample;
  }

  const TimedState& last = newest();
  if (render_tick > static_cast<double>(last.tick)) {
    sample.ticks_past_newest = render_tick - static_cast<double>(last.tick);
    const double ahead = std::min(sample.ticks_past_newest, std::max(0.0, max_extrapolation_ticks));
    sample.kind =
        sample.ticks_past_newest <= max_extrapolation_ticks ? SampleKind::kExtrapolated : SampleKind::kHeld;
    // Velocity is in sub-units per tick; the walls stop the cube, as Move would.
    const double x = Clamp(last.state.x + last.state.vx * ahead, arena.min_x(), arena.max_x());
    const double y = Clamp(last.state.y + last.state.vy * ahead, arena.min_y(), arena.max_y());
    sample.position = {x / sim::kSubUnitsPerUnit, y / sim::kSubUnitsPerUnit};
    return sample;
  }

  sample.kind = SampleKind::kInterpolated;
  if (size_ == 1) {  // exactly on the only state
    sample.position = PositionOf(oldest.state);
    return sample;
  }
  std::size_t to = 1;
  while (static_cast<double>(states_[to].tick) < render_tick) ++to;
  const TimedState& a = states_[to - 1];
  const TimedState& b = states_[to];
  const double t = (render_tick - static_cast<double>(a.tick)) / static_cast<double>(b.tick - a.tick);
  const Vec2 pa = PositionOf(a.state);
  const Vec2 pb = PositionOf(b.state);
  sample.position = pa + (pb - pa) * t;
  return sample;
}

void InterpolationBuffer::DropBefore(double render_tick) noexcept {
  std::size_t keep_from = 0;
  while (keep_from + 1 < size_ && static_cast<double>(states_[keep_from + 1].tick) <= render_tick)
    ++keep_from;
  if (keep_from == 0) return;
  std::move(states_.begin() + static_cast<std::ptrdiff_t>(keep_from),
            states_.begin() + static_cast<std::ptrdiff_t>(size_), states_.begin());
  size_ -= keep_from;
}

std::size_t InterpolationBuffer::CountAfter(double render_tick) const noexcept {
  std::size_t count = 0;
  for (std::size_t i = size_; i > 0 && static_cast<double>(states_[i - 1].tick) > render_tick; --i) ++count;
  return count;
}

}  // namespace netcube::client
