#include "input_queue.h"

#include <algorithm>

namespace netcube::server {

InputCounters& InputCounters::operator+=(const InputCounters& other) noexcept {
  processed += other.processed;
  duplicate += other.duplicate;
  dropped_rate_limit += other.dropped_rate_limit;
  lost += other.lost;
  streaming_ticks += other.streaming_ticks;
  dry_ticks += other.dry_ticks;
  return *this;
}

void InputQueue::Receive(const sim::Input& input) noexcept {
  if (!next_expected_) next_expected_ = input.seq;
  const int ahead = sim::SeqDiff(input.seq, *next_expected_);
  if (ahead < 0) {
    ++counters_.duplicate;  // queued or applied already: a redundant resend
    return;
  }
  // Inputs between the expected one and this one will never come back (each packet carries the newest
  // inputs, so a gap means they fell out of every packet): skip them, and count as lost as many as the
  // client can have made meanwhile.
  const int lost = std::min(ahead, loss_allowance_ / tick_rate_);
  loss_allowance_ -= lost * tick_rate_;
  counters_.lost += static_cast<std::uint64_t>(lost);
  // Past this input for good, queued or not, so a resend of a dropped input cannot sneak in later.
  next_expected_ = static_cast<sim::Seq>(input.seq + 1);
  if (size_ >= queue_limit_) {
    ++counters_.dropped_rate_limit;
    return;
  }
  ring_[(head_ + size_) % ring_.size()] = input;
  ++size_;
}

namespace {
// Inputs (simulation steps) in one tick of real time, rounded up.
int StepsPerTick(int tick_rate) noexcept { return (sim::kTicksPerSecond + tick_rate - 1) / tick_rate; }
}  // namespace

void InputQueue::SetTickRate(int tick_rate) noexcept {
  // Keep the credit's and the allowance's values in inputs across the change of unit.
  credit_ = credit_ / tick_rate_ * tick_rate;
  loss_allowance_ = loss_allowance_ / tick_rate_ * tick_rate;
  tick_rate_ = tick_rate;
  queue_limit_ = kMaxQueuedInputs + static_cast<std::size_t>(StepsPerTick(tick_rate)) - 1;
}

std::size_t InputQueue::TakeForTick(std::span<sim::Input, kMaxPerTick> out, bool streaming) noexcept {
  const int max_credit = (kMaxInputBacklogSteps + StepsPerTick(tick_rate_) - 1) * tick_rate_;
  credit_ = std::min(credit_ + sim::kTicksPerSecond, std::max(max_credit, sim::kTicksPerSecond));
  loss_allowance_ = std::min(loss_allowance_ + sim::kTicksPerSecond, kMaxInputJump * tick_rate_);
  const auto steps = static_cast<std::size_t>(StepsPerTick(tick_rate_));
  const auto target = static_cast<std::size_t>(target_);
  std::size_t wanted = static_cast<std::size_t>(kMaxCatchUpRate) * steps;  // unbuffered: whatever has arrived
  if (buffered_) {
    if (!streaming && size_ == 0) primed_ = false;  // the stream ended: the next one fills the buffer first
    if (!primed_ && size_ > 0) {
      // A new stream waits until its target is waiting too, or its first input has waited as many ticks.
      primed_ = size_ >= steps + target || priming_ticks_++ >= target_;
      if (primed_) priming_ticks_ = 0;
    }
    // One tick's steps; one more while more than the target plus one would be left, so a surplus drains.
    wanted = !primed_ ? 0 : size_ > steps + target + 1 ? steps + 1 : steps;
  }
  const auto count = std::min({size_, static_cast<std::size_t>(credit_ / tick_rate_), wanted});
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = ring_[head_];
    head_ = (head_ + 1) % ring_.size();
  }
  size_ -= count;
  credit_ -= static_cast<int>(count) * tick_rate_;
  counters_.processed += count;
  if (streaming) {
    ++counters_.streaming_ticks;
    if (count < steps) ++counters_.dry_ticks;
    if (buffered_) AdaptTarget(count < steps);
  }
  return count;
}

void InputQueue::AdaptTarget(bool dry) noexcept {
  if (dry) {
    target_ = std::min(target_ + 1, kMaxTarget);
  } else {
    window_min_waiting_ = std::min(window_min_waiting_, size_);
    if (++window_ticks_ < kShrinkWindowTicks) return;
    // A spare input left at every tick of the window: one fewer would still have left none short.
    if (window_min_waiting_ >= 1) target_ = std::max(target_ - 1, 0);
  }
  window_ticks_ = 0;
  window_min_waiting_ = kCapacity;
}

}  // namespace netcube::server
