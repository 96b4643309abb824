#pragma once
// Entity interpolation for one remote cube: the server states received for it, ordered by server tick,
// and the position to draw at a render time that lies in the past (Gambetta part III; the Unity article's
// 20-state buffer). Out-of-order snapshots are slotted in place, duplicates ignored; when the render time
// runs past the newest state the cube is extrapolated along its last velocity for a capped time, then held.
#include <array>
#include <cstddef>
#include <cstdint>

#include "netcube/client/units.h"
#include "netcube/sim/move.h"

namespace netcube::client {

// Server ticks as a 64-bit count that does not wrap (see UnwrapTick in server_clock.h).
using Tick = std::int64_t;

struct TimedState {
  Tick tick = 0;
  sim::CubeState state;
};

enum class SampleKind : std::uint8_t {
  kEmpty,         // nothing buffered: the position is meaningless
  kInterpolated,  // between two buffered states (or exactly on one)
  kBeforeOldest,  // render time older than everything buffered: the oldest state
  kExtrapolated,  // past the newest state, continuing its velocity (within the cap)
  kHeld,          // past the newest state and not extrapolating (off, or the cap is used up)
  kLatest,        // interpolation off: the latest state received (Client views only)
  kPredicted,     // predict_others: simulated from the newest snapshot to the present (Client views only)
};
const char* ToString(SampleKind kind) noexcept;

struct Sample {
  Vec2 position;  // units
  SampleKind kind = SampleKind::kEmpty;
  double ticks_past_newest = 0.0;  // > 0 means the buffer ran dry (an underrun)
};

class InterpolationBuffer {
 public:
  // 1.6 s of snapshots at 20 Hz: more than the largest interpolation delay the client will use.
  static constexpr std::size_t kCapacity = 32;

  enum class InsertResult : std::uint8_t { kInserted, kDuplicate, kTooOld };
  // Keeps states sorted by tick. When full, the oldest state makes room; a state older than everything in
  // a full buffer is refused (kTooOld).
  InsertResult Insert(Tick tick, const sim::CubeState& state) noexcept;

  // The position at `render_tick` (fractional server ticks). Past the newest state it moves along the
  // newest state's velocity for at most `max_extrapolation_ticks` (0 = no extrapolation), clamped to
  // `arena`, and then stays there.
  Sample SampleAt(double render_tick, double max_extrapolation_ticks, const sim::Arena& arena) const noexcept;

  // Forgets states no longer needed at `render_tick`: everything before the newest state at or before it.
  void DropBefore(double render_tick) noexcept;

  // How many buffered states lie after `render_tick`.
  std::size_t CountAfter(double render_tick) const noexcept;

  void Clear() noexcept { size_ = 0; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  // i = 0 is the oldest; i < size().
  const TimedState& operator[](std::size_t i) const noexcept { return states_[i]; }
  const TimedState& newest() const noexcept { return states_[size_ - 1]; }

 private:
  std::size_t size_ = 0;  // first, beside the oldest states: what a sample reads
  std::array<TimedState, kCapacity> states_{};
};

}  // namespace netcube::client
