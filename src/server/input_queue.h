#pragma once
// One client's received inputs on their way into the simulation: each applied exactly once, in sequence
// order, and no faster than one per simulation step of real time on average (the speed-hack limit).
//
// The queue is also the client's jitter buffer. Packets arrive unevenly, so a tick that applied whatever
// had arrived would move the cube two steps in one tick and none in the next. Instead a tick applies one
// tick's worth of steps, with `target` inputs left waiting for the ticks after it: a new stream of inputs
// waits until the buffer holds them, a tick that finds too few (a dry tick) raises the target, and a target
// that kept a spare input through a whole window is lowered. Snapshots tell the client its lead (inputs
// waiting minus the target), and the client nudges its sampling rate to bring it to 0: a client clock
// running fast or slow neither overflows the queue nor starves it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "netcube/server/server_stats.h"
#include "netcube/sim/move.h"
#include "tuning.h"

namespace netcube::server {

class InputQueue {
 public:
  // The ring holds the queue cap plus one tick's inputs at the slowest tick rate.
  static constexpr std::size_t kCapacity = kMaxQueuedInputs + sim::kTicksPerSecond;
  // Most inputs one tick can apply, at the slowest tick rate.
  static constexpr std::size_t kMaxPerTick = kMaxCatchUpRate * sim::kTicksPerSecond;

  // The target's bounds, in inputs, and the window (in ticks that had a stream) after which a target that
  // always left a spare input is lowered.
  static constexpr int kInitialTarget = 1;
  static constexpr int kMaxTarget = 8;
  static constexpr int kShrinkWindowTicks = 5 * sim::kTicksPerSecond;

  explicit InputQueue(int tick_rate = sim::kTicksPerSecond, bool buffered = true) noexcept
      : buffered_(buffered) {
    SetTickRate(tick_rate);
  }
  // The server's tick rate, [1, protocol::kMaxRate]: how much real time one tick stands for.
  void SetTickRate(int tick_rate) noexcept;

  // Takes one input as it arrived: in any order, any number of times.
  void Receive(const sim::Input& input) noexcept;
  // False when `newest` lies kMaxInputJump or more beyond the next input expected: no honest client can
  // have lost that many, so the packet is malformed rather than a gap.
  bool WithinReach(sim::Seq newest) const noexcept {
    return !next_expected_ || sim::SeqDiff(newest, *next_expected_) < kMaxInputJump;
  }
  // Runs one tick: grants the tick's share of real time (the rate limit) and moves the inputs this tick
  // applies (oldest first) into `out`. Returns how many. `streaming`: the client's cube is moving, so its
  // client sends an input every step (at rest it sends none once it lets go of the keys).
  std::size_t TakeForTick(std::span<sim::Input, kMaxPerTick> out, bool streaming) noexcept;

  // Switches the jitter buffer on or off; its target is kept for when it comes back.
  void SetBuffered(bool buffered) noexcept { buffered_ = buffered; }
  // Inputs left waiting after the last tick minus the target: > 0 the client's inputs arrive early.
  int lead() const noexcept { return static_cast<int>(size_) - target(); }
  // Inputs the buffer wants waiting after a tick (0 unbuffered: a tick applies whatever has arrived).
  int target() const noexcept { return buffered_ ? target_ : 0; }
  std::size_t size() const noexcept { return size_; }
  const InputCounters& counters() const noexcept { return counters_; }

 private:
  // After a streaming tick: a dry tick raises the target; a window that always left a spare lowers it.
  void AdaptTarget(bool dry) noexcept;

  std::array<sim::Input, kCapacity> ring_{};
  std::size_t head_ = 0;
  std::size_t size_ = 0;
  // The sequence the next new input must have; empty until the first input starts the sequence.
  std::optional<sim::Seq> next_expected_;
  // Credit in 1/tick_rate_ of an input: a tick adds kTicksPerSecond, an input costs tick_rate_, so the
  // arithmetic stays exact at every rate.
  int tick_rate_ = sim::kTicksPerSecond;
  int credit_ = 0;
  // How many inputs a gap may still count as lost, in the same unit: real time grants one a step, kept up
  // to kMaxInputJump (a few steps to start with, for the jitter of the first packets). An honest client
  // makes one input a step, so it cannot lose more; a peer that jumps its sequence ahead faster than time
  // passes does not inflate the count.
  int loss_allowance_ = kMaxInputBacklogSteps * sim::kTicksPerSecond;
  std::size_t queue_limit_ = kMaxQueuedInputs;
  // The jitter buffer (buffered_ only; unbuffered, a tick applies whatever has arrived).
  bool buffered_ = true;
  int target_ = kInitialTarget;
  bool primed_ = false;    // the current stream filled the buffer once, and ticks apply from it
  int priming_ticks_ = 0;  // ticks the current stream's first input has waited for the buffer to fill
  int window_ticks_ = 0;   // streaming ticks in the current shrink window
  std::size_t window_min_waiting_ = kCapacity;  // fewest inputs left waiting after a tick of the window
  InputCounters counters_;
};

}  // namespace netcube::server
