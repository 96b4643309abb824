#include "snapshot_encoder.h"

#include <bit>

namespace netcube::server {
namespace {
constexpr int kAckBits = 16;
}  // namespace

bool SnapshotEncoder::Prepare(const protocol::Snapshot& snapshot) noexcept {
  // The message is copied into the variant either way; two encodes per snapshot, not one per client.
  protocol::Message message{snapshot};
  auto& copy = std::get<protocol::Snapshot>(message);
  copy.has_ack = false;
  without_ack_size_ = protocol::Encode(message, without_ack_);
  copy.has_ack = true;
  copy.ack = 0xFFFF;
  with_ack_size_ = protocol::Encode(message, with_ack_);
  if (without_ack_size_ == 0 || with_ack_size_ == 0) return false;
  // The all-ones ack ends the message and only zero padding follows, so its last bit is the last set bit.
  const std::uint8_t last_byte = with_ack_[with_ack_size_ - 1];
  const auto last_set_bit = (with_ack_size_ - 1) * 8 + 7 - static_cast<std::size_t>(std::countr_zero(last_byte));
  ack_first_bit_ = last_set_bit + 1 - kAckBits;
  return true;
}

std::span<const std::uint8_t> SnapshotEncoder::PacketFor(std::optional<sim::Seq> ack) noexcept {
  if (!ack) return {without_ack_.data(), without_ack_size_};
  for (int i = 0; i < kAckBits; ++i) {
    const std::size_t bit = ack_first_bit_ + static_cast<std::size_t>(i);
    const auto mask = static_cast<std::uint8_t>(0x80u >> (bit % 8));
    const bool set = ((static_cast<unsigned>(*ack) >> (kAckBits - 1 - i)) & 1u) != 0;
    std::uint8_t& byte = with_ack_[bit / 8];
    byte = static_cast<std::uint8_t>(set ? (byte | mask) : (byte & ~mask));
  }
  return {with_ack_.data(), with_ack_size_};
}

}  // namespace netcube::server
