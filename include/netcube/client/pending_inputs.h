#pragma once
// The client's unacknowledged inputs, oldest first, each with the state the client predicted right after
// applying it. A fixed ring indexed by seq % kCapacity that keeps the sequence in the slot (yojimbo's
// SequenceBuffer, Quake III's CMD_MASK): nothing allocates per input, and sequence numbers wrap 65535 -> 0
// without a seam because kCapacity divides 65536.
#include <array>
#include <cstddef>

#include "netcube/sim/move.h"

namespace netcube::client {

struct PendingInput {
  sim::Input input;
  sim::CubeState predicted;  // the local prediction after `input`, as computed when it was applied
};

class PendingInputs {
 public:
  // 17 s of inputs at 60 Hz (8.5 s at the doubled input rate): far beyond any round trip worth playing.
  static constexpr std::size_t kCapacity = 1024;
  static_assert(65536 % kCapacity == 0, "seq % kCapacity must stay continuous across the 16-bit wrap");

  // Appends an input whose seq follows the newest one (any seq when empty). A seq that does not follow
  // starts the queue over from it. When the queue is full the oldest input is dropped and false returned:
  // a server that has acknowledged nothing for kCapacity inputs has lost them anyway.
  bool Push(const PendingInput& entry) noexcept;

  // Drops every input with seq <= ack (wraparound-aware). An ack older than the oldest input drops
  // nothing; one at or beyond the newest empties the queue. Returns how many inputs were dropped.
  std::size_t Acknowledge(sim::Seq ack) noexcept;

  void Clear() noexcept { size_ = 0; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  // i = 0 is the oldest; i < size(). Reconciliation rewrites the predictions of replayed inputs.
  const PendingInput& operator[](std::size_t i) const noexcept;
  PendingInput& operator[](std::size_t i) noexcept;
  // The pending entry with this seq, or nullptr (acknowledged, never pushed, or overwritten).
  const PendingInput* Find(sim::Seq seq) const noexcept;

  // Valid only when non-empty.
  sim::Seq oldest_seq() const noexcept { return oldest_; }
  sim::Seq newest_seq() const noexcept { return static_cast<sim::Seq>(oldest_ + size_ - 1); }

 private:
  static std::size_t SlotOf(sim::Seq seq) noexcept { return seq % kCapacity; }

  std::array<PendingInput, kCapacity> slots_{};
  sim::Seq oldest_ = 0;
  std::size_t size_ = 0;
};

}  // namespace netcube::client
