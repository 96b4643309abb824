#pragma once
// Bit-packed streams in the style of yojimbo's serialize.h: one Serialize function per message is run by
// a writer, a reader and a measurer. Every read is bounds- and range-checked; a failed read returns false
// and the caller discards the whole message.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "netcube/protocol/rules.h"

namespace netcube::protocol {

// Bits needed to send any integer in [min, max].
constexpr int BitsRequired(std::int64_t min, std::int64_t max) noexcept {
  return min >= max ? 0 : static_cast<int>(std::bit_width(static_cast<std::uint64_t>(max - min)));
}

class BitWriter {
 public:
  static constexpr bool kWriting = true;
  static constexpr bool kReading = false;
  explicit BitWriter(std::span<std::uint8_t> buffer) noexcept : buffer_(buffer) {}
  // Resumes writing at bit `first_bit` of `buffer`, over whatever followed it there (a message's tail
  // rewritten in place): the rest of that bit's byte is cleared. first_bit must lie within the buffer.
  BitWriter(std::span<std::uint8_t> buffer, std::size_t first_bit) noexcept;

  // Inline and in one step, as BitReader::Bits: a delta of 128 cubes is written once per baseline a tick.
  bool Bits(std::uint32_t value, int bits) noexcept {
    if (bits < 0 || bits > 32 || (bits < 32 && (value >> bits) != 0)) return false;
    if (bits_ + static_cast<std::size_t>(bits) > buffer_.size() * 8) return false;
    if (bits == 0) return true;
    // The value lies in at most five bytes after the bits already in the first (the rest of which, and
    // of the last, are zero).
    const std::size_t first = bits_ / 8;
    const std::size_t last = (bits_ + static_cast<std::size_t>(bits) - 1) / 8;
    const auto below = static_cast<int>((last + 1) * 8 - bits_) - bits;  // window bits after the value
    std::uint64_t window = std::uint64_t{value} << below;
    if (bits_ % 8 != 0) window |= std::uint64_t{buffer_[first]} << ((last - first) * 8);
    for (std::size_t i = last + 1; i-- > first;) {
      buffer_[i] = static_cast<std::uint8_t>(window);
      window >>= 8;
    }
    bits_ += static_cast<std::size_t>(bits);
    return true;
  }
  std::size_t BitsWritten() const noexcept { return bits_; }
  // Bytes used, the last one zero-padded.
  std::size_t BytesWritten() const noexcept { return (bits_ + 7) / 8; }

 private:
  std::span<std::uint8_t> buffer_;
  std::size_t bits_ = 0;
};

class BitReader {
 public:
  static constexpr bool kWriting = false;
  static constexpr bool kReading = true;
  explicit BitReader(std::span<const std::uint8_t> data) noexcept : BitReader(data, 0) {}
  // Reads from bit `first_bit` of `data` on (at most its end).
  BitReader(std::span<const std::uint8_t> data, std::size_t first_bit) noexcept
      : data_(data),
        bits_(std::min(first_bit, data.size() * 8)),
        tail_start_(data.size() - Tail(data).size()) {
    std::copy(Tail(data).begin(), Tail(data).end(), tail_.begin());
  }

  // Inline, one load a field: a snapshot of 256 cubes reads some 1,500 fields, a client 60 of them a second.
  bool Bits(std::uint32_t& value, int bits) noexcept {
    if (bits < 0 || bits > 32 || static_cast<std::size_t>(bits) > BitsRemaining()) return false;
    // The value lies in the eight bytes from the one it starts in, most significant bit first; the last
    // eight of the packet are read from a copy followed by zeros.
    const std::size_t first = bits_ / 8;
    const std::uint8_t* bytes =
        first < tail_start_ ? data_.data() + first : tail_.data() + (first - tail_start_);
    std::uint64_t window = 0;
    std::memcpy(&window, bytes, sizeof window);
    if constexpr (std::endian::native == std::endian::little) window = __builtin_bswap64(window);
    // Two shifts, so that reading no bits does not shift by 64.
    value = static_cast<std::uint32_t>(((window << (bits_ % 8)) >> 1) >> (63 - bits));
    bits_ += static_cast<std::size_t>(bits);
    return true;
  }
  std::size_t BitsRead() const noexcept { return bits_; }
  std::size_t BitsRemaining() const noexcept { return data_.size() * 8 - bits_; }
  // Passes over the rest of the packet unread.
  void SkipToEnd() noexcept { bits_ = data_.size() * 8; }
  // True when only the zero padding of the final byte is left.
  bool AtCleanEnd() const noexcept;

 private:
  static std::span<const std::uint8_t> Tail(std::span<const std::uint8_t> data) noexcept {
    return data.last(std::min<std::size_t>(data.size(), 8));
  }

  std::span<const std::uint8_t> data_;
  std::size_t bits_ = 0;
  std::size_t tail_start_;
  std::array<std::uint8_t, 16> tail_{};
};

class BitMeasurer {
 public:
  static constexpr bool kWriting = true;
  static constexpr bool kReading = false;
  bool Bits(std::uint32_t /*value*/, int bits) noexcept {
    bits_ += static_cast<std::size_t>(bits);
    return true;
  }
  std::size_t BitsWritten() const noexcept { return bits_; }
  std::size_t Bytes() const noexcept { return (bits_ + 7) / 8; }

 private:
  std::size_t bits_ = 0;
};

// An integer in [min, max], sent in BitsRequired(min, max) bits as an offset from min. Writing a value out
// of range fails, so a bug on the sending side never produces a packet the receiver would reject.
template <class Stream, class T>
bool SerializeInt(Stream& stream, T& value, std::int64_t min, std::int64_t max) noexcept {
  const int bits = BitsRequired(min, max);
  std::uint32_t offset = 0;
  if constexpr (Stream::kWriting) {
    const auto v = static_cast<std::int64_t>(value);
    if (v < min || v > max) return false;
    offset = static_cast<std::uint32_t>(v - min);
  }
  if (!stream.Bits(offset, bits)) return false;
  if constexpr (Stream::kReading) {
    const std::int64_t v = min + static_cast<std::int64_t>(offset);
    if (v > max) return false;
    value = static_cast<T>(v);
  }
  return true;
}

// An integer in [0, max] in Elias gamma code: n zero bits, then value + 1 in n + 1 bits (its leading 1
// first), n = floor(log2(value + 1)). 1 bit for 0, 3 for 1 and 2, 2n + 1 bits in all: small values are
// cheap, and a reader stops after as many zeros as max + 1 needs.
template <class Stream, class T>
bool SerializeGamma(Stream& stream, T& value, std::uint32_t max) noexcept {
  std::uint64_t plus_one = 0;  // 64 bits: max + 1 does not wrap
  int zeros = 0;
  if constexpr (Stream::kWriting) {
    if (static_cast<std::uint64_t>(value) > max) return false;
    plus_one = static_cast<std::uint64_t>(value) + 1;
    zeros = static_cast<int>(std::bit_width(plus_one)) - 1;
    for (int i = 0; i < zeros; ++i) {
      if (!stream.Bits(0, 1)) return false;
    }
    if (!stream.Bits(1, 1)) return false;
  } else {
    const int most_zeros = static_cast<int>(std::bit_width(std::uint64_t{max} + 1)) - 1;
    for (std::uint32_t bit = 0; bit == 0; ++zeros) {
      if (zeros > most_zeros || !stream.Bits(bit, 1)) return false;
    }
    --zeros;  // the loop counted the leading 1
  }
  // At most 32 bits below the leading 1 (max + 1 <= 2^32).
  auto low = static_cast<std::uint32_t>(plus_one & ((std::uint64_t{1} << zeros) - 1));
  if (zeros > 0 && !stream.Bits(low, zeros)) return false;
  if constexpr (Stream::kReading) {
    const std::uint64_t v = ((std::uint64_t{1} << zeros) | low) - 1;
    if (v > max) return false;
    value = static_cast<T>(v);
  }
  return true;
}

template <class Stream>
bool SerializeBool(Stream& stream, bool& value) noexcept {
  std::uint32_t bit = value ? 1u : 0u;
  if (!stream.Bits(bit, 1)) return false;
  if constexpr (Stream::kReading) value = bit != 0;
  return true;
}

// A full-width unsigned value (sequence numbers, ticks, timestamps): every bit pattern is valid.
template <class Stream, class T>
bool SerializeUnsigned(Stream& stream, T& value) noexcept {
  static_assert(sizeof(T) <= 4);
  std::uint32_t v = value;
  if (!stream.Bits(v, static_cast<int>(sizeof(T) * 8))) return false;
  if constexpr (Stream::kReading) value = static_cast<T>(v);
  return true;
}

// A 64-bit value as two 32-bit halves, the high one first (so, most significant bit first as every field).
template <class Stream>
bool SerializeUnsigned64(Stream& stream, std::uint64_t& value) noexcept {
  auto high = static_cast<std::uint32_t>(value >> 32);
  auto low = static_cast<std::uint32_t>(value);
  if (!SerializeUnsigned(stream, high) || !SerializeUnsigned(stream, low)) return false;
  if constexpr (Stream::kReading) value = (std::uint64_t{high} << 32) | low;
  return true;
}

// Zero bits up to a total of `bytes` bytes from the start of the packet; a reader rejects a shorter packet
// or a non-zero bit.
template <class Stream>
bool SerializeZeroPaddingTo(Stream& stream, std::size_t bytes) noexcept {
  std::size_t done = 0;
  if constexpr (Stream::kReading) {
    done = stream.BitsRead();
  } else {
    done = stream.BitsWritten();
  }
  for (std::size_t left = bytes * 8 > done ? bytes * 8 - done : 0; left > 0;) {
    const auto bits = static_cast<int>(left < 32 ? left : 32);
    std::uint32_t zero = 0;
    if (!stream.Bits(zero, bits)) return false;
    if constexpr (Stream::kReading) {
      if (zero != 0) return false;
    }
    left -= static_cast<std::size_t>(bits);
  }
  return true;
}

// Printable ASCII text of at most max_length characters: the length as int[0, max_length], then each
// character as int[32, 126].
template <class Stream>
bool SerializeText(Stream& stream, std::string& text, std::size_t max_length) {
  std::size_t length = text.size();
  if (!SerializeInt(stream, length, 0, static_cast<std::int64_t>(max_length))) return false;
  if constexpr (Stream::kReading) text.resize(length);
  for (char& c : text) {
    if (!SerializeInt(stream, c, kFirstPrintable, kLastPrintable)) return false;
  }
  return true;
}

}  // namespace netcube::protocol
