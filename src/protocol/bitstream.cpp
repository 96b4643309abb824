#include "netcube/protocol/bitstream.h"

namespace netcube::protocol {

// Most significant bit first, so the byte layout reads left to right as documented in PROTOCOL.md.

BitWriter::BitWriter(std::span<std::uint8_t> buffer, std::size_t first_bit) noexcept
    : buffer_(buffer), bits_(first_bit) {
  // The bits after the last written are zero (Bits writes whole bytes); one entered halfway is cleared here.
  if (bits_ % 8 != 0) buffer_[bits_ / 8] &= static_cast<std::uint8_t>(0xFFu << (8 - bits_ % 8));
}

bool BitReader::AtCleanEnd() const noexcept {
  if (BitsRemaining() >= 8) return false;
  if (bits_ % 8 == 0) return true;
  const auto padding_mask = static_cast<std::uint8_t>(0xFFu >> (bits_ % 8));
  return (data_[bits_ / 8] & padding_mask) == 0;
}

}  // namespace netcube::protocol
