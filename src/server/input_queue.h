#pragma once
// One client's received inputs on their way into the simulation: each applied exactly once, in sequence
// order, and no faster than one per simulation step of real time on average (the speed-hack limit).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "netcube/server/server.h"
#include "netcube/sim/move.h"

namespace netcube::server {

class InputQueue {
 public:
  // The ring holds the queue cap plus one tick's inputs at the slowest tick rate.
  static constexpr std::size_t kCapacity = kMaxQueuedInputs + sim::kTicksPerSecond;
  // Most inputs one tick can apply, at the slowest tick rate.
  static constexpr std::size_t kMaxPerTick = kMaxCatchUpRate * sim::kTicksPerSecond;

  explicit InputQueue(int tick_rate = sim::kTicksPerSecond) noexcept { SetTickRate(tick_rate); }
  // The server's tick rate, [1, protocol::kMaxRate]: how much real time one tick stands for.
  void SetTickRate(int tick_rate) noexcept;

  // Takes one input as it arrived: in any order, any number of times.
  void Receive(const sim::Input& input) noexcept;
  // False when `newest` lies kMaxInputJump or more beyond the next input expected: no honest client can
  // have lost that many, so the packet is malformed rather than a gap.
  bool WithinReach(sim::Seq newest) const noexcept {
    return !next_expected_ || sim::SeqDiff(newest, *next_expected_) < kMaxInputJump;
  }
  // Runs one tick of the rate limit: grants the tick's share of real time and moves the inputs this tick
  // may apply (oldest first) into `out`. Returns how many.
  std::size_t TakeForTick(std::span<sim::Input, kMaxPerTick> out) noexcept;

  std::size_t size() const noexcept { return size_; }
  const InputCounters& counters() const noexcept { return counters_; }

 private:
  std::array<sim::Input, kCapacity> ring_{};
  std::size_t head_ = 0;
  std::size_t size_ = 0;
  // The sequence the next new input must have; empty until the first input starts the sequence.
  std::optional<sim::Seq> next_expected_;
  // Credit in 1/tick_rate_ of an input: a tick adds kTicksPerSecond, an input costs tick_rate_, so the
  // arithmetic stays exact at every rate.
  int tick_rate_ = sim::kTicksPerSecond;
  int credit_ = 0;
  std::size_t queue_limit_ = kMaxQueuedInputs;
  InputCounters counters_;
};

}  // namespace netcube::server
