#include "input_queue.h"

#include <algorithm>

namespace netcube::server {

InputCounters& InputCounters::operator+=(const InputCounters& other) noexcept {
  processed += other.processed;
  duplicate += other.duplicate;
  dropped_rate_limit += other.dropped_rate_limit;
  lost += other.lost;
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
  // inputs, so a gap means they fell out of every packet): skip them.
  counters_.lost += static_cast<std::uint64_t>(ahead);
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
  // Keep the credit's value in inputs across the change of unit.
  credit_ = credit_ / tick_rate_ * tick_rate;
  tick_rate_ = tick_rate;
  queue_limit_ = kMaxQueuedInputs + static_cast<std::size_t>(StepsPerTick(tick_rate)) - 1;
}

std::size_t InputQueue::TakeForTick(std::span<sim::Input, kMaxPerTick> out) noexcept {
  const int max_credit = (kMaxInputBacklogSteps + StepsPerTick(tick_rate_) - 1) * tick_rate_;
  credit_ = std::min(credit_ + sim::kTicksPerSecond, std::max(max_credit, sim::kTicksPerSecond));
  const auto per_tick = static_cast<std::size_t>(kMaxCatchUpRate * StepsPerTick(tick_rate_));
  const auto count = std::min({size_, static_cast<std::size_t>(credit_ / tick_rate_), per_tick});
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = ring_[head_];
    head_ = (head_ + 1) % ring_.size();
  }
  size_ -= count;
  credit_ -= static_cast<int>(count) * tick_rate_;
  counters_.processed += count;
  return count;
}

}  // namespace netcube::server
