#include "netcube/client/pending_inputs.h"

namespace netcube::client {

bool PendingInputs::Push(const PendingInput& entry) noexcept {
  if (size_ > 0 && entry.input.seq != static_cast<sim::Seq>(newest_seq() + 1)) size_ = 0;
  if (size_ == 0) oldest_ = entry.input.seq;
  bool kept_all = true;
  if (size_ == kCapacity) {
    ++oldest_;
    --size_;
    kept_all = false;
  }
  slots_[SlotOf(entry.input.seq)] = entry;
  ++size_;
  return kept_all;
}

std::size_t PendingInputs::Acknowledge(sim::Seq ack) noexcept {
  if (size_ == 0 || sim::SeqLess(ack, oldest_)) return 0;
  const std::size_t through_ack = static_cast<std::size_t>(sim::SeqDiff(ack, oldest_)) + 1;
  const std::size_t dropped = through_ack < size_ ? through_ack : size_;
  oldest_ = static_cast<sim::Seq>(oldest_ + dropped);
  size_ -= dropped;
  return dropped;
}

const PendingInput& PendingInputs::operator[](std::size_t i) const noexcept {
  return slots_[SlotOf(static_cast<sim::Seq>(oldest_ + i))];
}

PendingInput& PendingInputs::operator[](std::size_t i) noexcept {
  return slots_[SlotOf(static_cast<sim::Seq>(oldest_ + i))];
}

const PendingInput* PendingInputs::Find(sim::Seq seq) const noexcept {
  if (size_ == 0 || sim::SeqLess(seq, oldest_) || sim::SeqGreater(seq, newest_seq())) return nullptr;
  const PendingInput& slot = slots_[SlotOf(seq)];
  return slot.input.seq == seq ? &slot : nullptr;
}

}  // namespace netcube::client
