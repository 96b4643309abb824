#include "netcube/protocol/bitstream.h"

#include <algorithm>

namespace netcube::protocol {

// Most significant bit first, so the byte layout reads left to right as documented in PROTOCOL.md.
// The writer moves whole runs of bits that fit in the current byte: at most five steps per value.

BitWriter::BitWriter(std::span<std::uint8_t> buffer, std::size_t first_bit) noexcept
    : buffer_(buffer), bits_(first_bit) {
  // A byte is zeroed when the first of its bits is written; one entered halfway is cleared here instead.
  if (bits_ % 8 != 0) buffer_[bits_ / 8] &= static_cast<std::uint8_t>(0xFFu << (8 - bits_ % 8));
}

bool BitWriter::Bits(std::uint32_t value, int bits) noexcept {
  if (bits < 0 || bits > 32) return false;
  if (bits < 32 && (value >> bits) != 0) return false;
  if (bits_ + static_cast<std::size_t>(bits) > buffer_.size() * 8) return false;
  int left = bits;
  while (left > 0) {
    const std::size_t byte = bits_ / 8;
    const int free_bits = 8 - static_cast<int>(bits_ % 8);
    const int take = std::min(free_bits, left);
    const std::uint32_t chunk = (value >> (left - take)) & ((1u << take) - 1u);
    if (free_bits == 8) buffer_[byte] = 0;
    buffer_[byte] = static_cast<std::uint8_t>(buffer_[byte] | (chunk << (free_bits - take)));
    bits_ += static_cast<std::size_t>(take);
    left -= take;
  }
  return true;
}

bool BitReader::AtCleanEnd() const noexcept {
  if (BitsRemaining() >= 8) return false;
  if (bits_ % 8 == 0) return true;
  const auto padding_mask = static_cast<std::uint8_t>(0xFFu >> (bits_ % 8));
  return (data_[bits_ / 8] & padding_mask) == 0;
}

}  // namespace netcube::protocol
