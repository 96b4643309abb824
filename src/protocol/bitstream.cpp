#include "netcube/protocol/bitstream.h"

namespace netcube::protocol {

// Most significant bit first, so the byte layout reads left to right as documented in PROTOCOL.md.

BitWriter::BitWriter(std::span<std::uint8_t> buffer, std::size_t first_bit) noexcept
    : buffer_(buffer), bits_(first_bit) {
  // The bits after the last written are zero (Bits writes whole bytes); one entered halfway is cleared here.
  if (bits_ % 8 != 0) buffer_[bits_ / 8] &= static_cast<std::uint8_t>(0xFFu << (8 - bits_ % 8));
}

bool BitWriter::Copy(std::span<const std::uint8_t> from, std::size_t first_bit, std::size_t bits) noexcept {
  if (first_bit > from.size() * 8 || bits > from.size() * 8 - first_bit) return false;
  BitReader reader(from, first_bit);
  for (std::size_t left = bits; left > 0;) {
    const int chunk = static_cast<int>(std::min<std::size_t>(left, 32));
    std::uint32_t value = 0;
    if (!reader.Bits(value, chunk) || !Bits(value, chunk)) return false;
    left -= static_cast<std::size_t>(chunk);
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
