#include "netcube/protocol/bitstream.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace netcube::protocol {
namespace {

TEST(BitsRequired, CoversTheWholeRangeWithTheFewestBits) {
  static_assert(BitsRequired(0, 0) == 0);
  static_assert(BitsRequired(7, 7) == 0);
  static_assert(BitsRequired(5, 3) == 0);
  static_assert(BitsRequired(0, 1) == 1);
  static_assert(BitsRequired(0, 7) == 3);
  static_assert(BitsRequired(0, 8) == 4);
  static_assert(BitsRequired(0, 255) == 8);
  static_assert(BitsRequired(0, 256) == 9);
  static_assert(BitsRequired(1, 64) == 6);
  static_assert(BitsRequired(32, 126) == 7);
  static_assert(BitsRequired(-256, 256) == 10);
  static_assert(BitsRequired(0, 0xFFFFFFFFll) == 32);
  static_assert(
      BitsRequired(std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()) == 32);
  for (std::int64_t max = 1; max < 5000; ++max) {
    const int bits = BitsRequired(0, max);
    ASSERT_GE(std::int64_t{1} << bits, max + 1) << max;
    ASSERT_LT(std::int64_t{1} << (bits - 1), max + 1) << max;
  }
}

TEST(BitStream, WritesMostSignificantBitFirst) {
  std::array<std::uint8_t, 4> buffer{};
  BitWriter writer(buffer);
  ASSERT_TRUE(writer.Bits(0b101, 3));
  ASSERT_TRUE(writer.Bits(0b00011, 5));
  ASSERT_TRUE(writer.Bits(0b1, 1));
  EXPECT_EQ(writer.BytesWritten(), 2u);
  EXPECT_EQ(buffer[0], 0xA3);
  EXPECT_EQ(buffer[1], 0x80);  // the one bit at the top, then zero padding
}

TEST(BitStream, ValuesStraddlingByteBoundaries) {
  std::array<std::uint8_t, 8> buffer{};
  BitWriter writer(buffer);
  ASSERT_TRUE(writer.Bits(0b11, 2));
  ASSERT_TRUE(writer.Bits(0xABCD, 16));  // bits 2..17
  ASSERT_TRUE(writer.Bits(0xDEADBEEF, 32));
  EXPECT_EQ(writer.BytesWritten(), 7u);  // 50 bits

  BitReader reader(std::span<const std::uint8_t>(buffer.data(), writer.BytesWritten()));
  std::uint32_t v = 0;
  ASSERT_TRUE(reader.Bits(v, 2));
  EXPECT_EQ(v, 0b11u);
  ASSERT_TRUE(reader.Bits(v, 16));
  EXPECT_EQ(v, 0xABCDu);
  ASSERT_TRUE(reader.Bits(v, 32));
  EXPECT_EQ(v, 0xDEADBEEFu);
  EXPECT_EQ(reader.BitsRemaining(), 6u);
  EXPECT_TRUE(reader.AtCleanEnd());
}

TEST(BitStream, RandomWidthsRoundTrip) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<std::pair<std::uint32_t, int>> fields;
    std::size_t total_bits = 0;
    while (total_bits < 900) {
      const int bits = static_cast<int>(rng() % 33);
      const std::uint32_t value = bits == 0 ? 0 : static_cast<std::uint32_t>(rng() >> (64 - bits));
      fields.emplace_back(value, bits);
      total_bits += static_cast<std::size_t>(bits);
    }
    std::vector<std::uint8_t> buffer(128, 0xFF);  // the writer must not rely on a zeroed buffer
    BitWriter writer(buffer);
    BitMeasurer measurer;
    for (const auto& [value, bits] : fields) {
      ASSERT_TRUE(writer.Bits(value, bits));
      ASSERT_TRUE(measurer.Bits(value, bits));
    }
    ASSERT_EQ(writer.BytesWritten(), (total_bits + 7) / 8);
    ASSERT_EQ(measurer.Bytes(), writer.BytesWritten());

    BitReader reader(std::span<const std::uint8_t>(buffer.data(), writer.BytesWritten()));
    for (const auto& [value, bits] : fields) {
      std::uint32_t read = 0xFFFFFFFFu;
      ASSERT_TRUE(reader.Bits(read, bits));
      ASSERT_EQ(read, value) << bits << " bits";
    }
    ASSERT_TRUE(reader.AtCleanEnd());
  }
}

// Every field of every width from every bit of packets of every length up to 20 bytes, read from any
// first bit: the value the bits hold, most significant first, read one at a time; none past the end.
TEST(BitStream, ReaderReadsEveryFieldOfShortPacketsAsTheirBitsSay) {
  std::mt19937_64 rng(6);
  for (std::size_t length = 0; length <= 20; ++length) {
    std::vector<std::uint8_t> data(length);
    for (std::uint8_t& byte : data) byte = static_cast<std::uint8_t>(rng());
    const auto bit_at = [&data](std::size_t i) { return (std::uint32_t{data[i / 8]} >> (7 - i % 8)) & 1u; };
    for (std::size_t first = 0; first <= length * 8; ++first) {
      for (int bits = 0; bits <= 32; ++bits) {
        BitReader reader(data, first);
        std::uint32_t value = 0xA5A5A5A5u;
        const bool fits = first + static_cast<std::size_t>(bits) <= length * 8;
        ASSERT_EQ(reader.Bits(value, bits), fits) << length << " bytes, from bit " << first << ", " << bits;
        if (!fits) continue;
        std::uint32_t expected = 0;
        for (int b = 0; b < bits; ++b) expected = expected << 1 | bit_at(first + static_cast<std::size_t>(b));
        ASSERT_EQ(value, expected) << length << " bytes, from bit " << first << ", " << bits;
        ASSERT_EQ(reader.BitsRead(), first + static_cast<std::size_t>(bits));
      }
    }
  }
}

TEST(BitStream, WriterRefusesToOverflowItsBuffer) {
  std::array<std::uint8_t, 2> buffer{};
  BitWriter writer(buffer);
  ASSERT_TRUE(writer.Bits(0xFFF, 12));
  EXPECT_FALSE(writer.Bits(0, 5));  // 17 bits do not fit in 16
  EXPECT_TRUE(writer.Bits(0xF, 4));
  EXPECT_FALSE(writer.Bits(0, 1));
  EXPECT_TRUE(writer.Bits(0, 0));
  EXPECT_EQ(writer.BytesWritten(), 2u);
  EXPECT_EQ(buffer[0], 0xFF);
  EXPECT_EQ(buffer[1], 0xFF);

  std::span<std::uint8_t> none;
  BitWriter empty(none);
  EXPECT_FALSE(empty.Bits(1, 1));
  EXPECT_EQ(empty.BytesWritten(), 0u);
}

TEST(BitStream, WriterRejectsValuesWiderThanTheirField) {
  std::array<std::uint8_t, 8> buffer{};
  BitWriter writer(buffer);
  EXPECT_FALSE(writer.Bits(8, 3));
  EXPECT_FALSE(writer.Bits(1, 0));
  EXPECT_FALSE(writer.Bits(0, 33));
  EXPECT_FALSE(writer.Bits(0, -1));
  EXPECT_EQ(writer.BytesWritten(), 0u);
  EXPECT_TRUE(writer.Bits(7, 3));
  EXPECT_TRUE(writer.Bits(0xFFFFFFFFu, 32));
}

TEST(BitStream, ReaderRefusesToReadPastTheEnd) {
  const std::array<std::uint8_t, 2> data = {0x12, 0x34};
  BitReader reader(data);
  std::uint32_t v = 77;
  EXPECT_FALSE(reader.Bits(v, 17));
  EXPECT_EQ(v, 77u);  // untouched on failure
  EXPECT_FALSE(reader.Bits(v, 33));
  EXPECT_FALSE(reader.Bits(v, -1));
  ASSERT_TRUE(reader.Bits(v, 12));
  EXPECT_EQ(v, 0x123u);
  EXPECT_FALSE(reader.Bits(v, 5));
  ASSERT_TRUE(reader.Bits(v, 4));
  EXPECT_EQ(v, 0x4u);
  EXPECT_EQ(reader.BitsRemaining(), 0u);
  EXPECT_FALSE(reader.Bits(v, 1));
  EXPECT_TRUE(reader.Bits(v, 0));
}

TEST(BitStream, CleanEndMeansOnlyZeroPaddingIsLeft) {
  const std::array<std::uint8_t, 2> clean = {0xFF, 0xE0};
  BitReader a(clean);
  std::uint32_t v = 0;
  ASSERT_TRUE(a.Bits(v, 11));
  EXPECT_TRUE(a.AtCleanEnd());

  const std::array<std::uint8_t, 2> dirty = {0xFF, 0xE1};
  BitReader b(dirty);
  ASSERT_TRUE(b.Bits(v, 11));
  EXPECT_FALSE(b.AtCleanEnd());

  BitReader c(clean);
  ASSERT_TRUE(c.Bits(v, 7));
  EXPECT_FALSE(c.AtCleanEnd());  // a whole byte left
  ASSERT_TRUE(c.Bits(v, 9));
  EXPECT_TRUE(c.AtCleanEnd());
}

TEST(SerializeInt, WritesOffsetsAndRejectsOutOfRangeBothWays) {
  std::array<std::uint8_t, 8> buffer{};
  BitWriter writer(buffer);
  int value = -256;
  ASSERT_TRUE(SerializeInt(writer, value, -256, 256));
  value = 256;
  ASSERT_TRUE(SerializeInt(writer, value, -256, 256));
  value = 257;
  EXPECT_FALSE(SerializeInt(writer, value, -256, 256));
  value = -257;
  EXPECT_FALSE(SerializeInt(writer, value, -256, 256));
  EXPECT_EQ(writer.BytesWritten(), 3u);  // two 10-bit fields
  EXPECT_EQ(buffer[0], 0x00);            // -256 is offset 0
  EXPECT_EQ(buffer[1], 0x20);            // 256 is offset 512 = 0b1000000000

  BitReader reader(std::span<const std::uint8_t>(buffer.data(), 3));
  int read = 0;
  ASSERT_TRUE(SerializeInt(reader, read, -256, 256));
  EXPECT_EQ(read, -256);
  ASSERT_TRUE(SerializeInt(reader, read, -256, 256));
  EXPECT_EQ(read, 256);

  // Offset 513..1023 fits the 10 bits but lies beyond the maximum.
  const std::array<std::uint8_t, 2> beyond = {0x80, 0x40};  // offset 0b1000000001 = 513
  BitReader over(beyond);
  read = 5;
  EXPECT_FALSE(SerializeInt(over, read, -256, 256));
  EXPECT_EQ(read, 5);
}

TEST(SerializeInt, SingleValueRangeTakesNoBits) {
  BitMeasurer measurer;
  int value = 9;
  ASSERT_TRUE(SerializeInt(measurer, value, 9, 9));
  EXPECT_EQ(measurer.Bytes(), 0u);
  std::span<const std::uint8_t> none;
  BitReader reader(none);
  value = 0;
  ASSERT_TRUE(SerializeInt(reader, value, 9, 9));
  EXPECT_EQ(value, 9);
}

TEST(SerializeBoolAndUnsigned, RoundTrip) {
  std::array<std::uint8_t, 8> buffer{};
  BitWriter writer(buffer);
  bool flag = true;
  std::uint16_t seq = 65535;
  std::uint32_t tick = 0x80000001u;
  std::uint8_t id = 0xA5;
  ASSERT_TRUE(SerializeBool(writer, flag));
  ASSERT_TRUE(SerializeUnsigned(writer, seq));
  ASSERT_TRUE(SerializeUnsigned(writer, tick));
  ASSERT_TRUE(SerializeUnsigned(writer, id));
  EXPECT_EQ(writer.BytesWritten(), 8u);  // 1 + 16 + 32 + 8 = 57 bits

  BitReader reader(buffer);
  bool flag_in = false;
  std::uint16_t seq_in = 0;
  std::uint32_t tick_in = 0;
  std::uint8_t id_in = 0;
  ASSERT_TRUE(SerializeBool(reader, flag_in));
  ASSERT_TRUE(SerializeUnsigned(reader, seq_in));
  ASSERT_TRUE(SerializeUnsigned(reader, tick_in));
  ASSERT_TRUE(SerializeUnsigned(reader, id_in));
  EXPECT_TRUE(flag_in);
  EXPECT_EQ(seq_in, 65535);
  EXPECT_EQ(tick_in, 0x80000001u);
  EXPECT_EQ(id_in, 0xA5);
  EXPECT_TRUE(reader.AtCleanEnd());
}

// Elias gamma, as docs/PROTOCOL.md section 3 has it: n zero bits, then value + 1 in n + 1 bits (its leading 1
// first), n = floor(log2(value + 1)): the same bits as value + 1 in 2n + 1 bits.
int GammaBits(std::uint32_t value) {
  int n = 0;
  while ((std::uint64_t{value} + 1) >> (n + 1) != 0) ++n;
  return 2 * n + 1;
}

TEST(SerializeGamma, WritesTheCodeOfTheDocument) {
  const std::vector<std::pair<std::uint32_t, std::vector<std::uint8_t>>> codes = {
      {0, {0x80}},                 // 1
      {1, {0x40}},                 // 010
      {2, {0x60}},                 // 011
      {3, {0x20}},                 // 00100
      {6, {0x38}},                 // 00111
      {7, {0x10}},                 // 0001000
      {1022, {0x00, 0x7F, 0xE0}},  // 000000000 1111111111
      {1023, {0x00, 0x20, 0x00}},  // 0000000000 10000000000
  };
  for (const auto& [value, bytes] : codes) {
    SCOPED_TRACE(value);
    std::array<std::uint8_t, 4> buffer{};
    BitWriter writer(buffer);
    std::uint32_t v = value;
    ASSERT_TRUE(SerializeGamma(writer, v, 1023));
    EXPECT_EQ(writer.BitsWritten(), static_cast<std::size_t>(GammaBits(value)));
    EXPECT_EQ(
        std::vector<std::uint8_t>(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(bytes.size())),
        bytes);
    BitMeasurer measurer;
    ASSERT_TRUE(SerializeGamma(measurer, v, 1023));
    EXPECT_EQ(measurer.BitsWritten(), writer.BitsWritten());
  }
  EXPECT_EQ(GammaBits(0), 1);
  EXPECT_EQ(GammaBits(2), 3);
  EXPECT_EQ(GammaBits(3), 5);
  EXPECT_EQ(GammaBits(1023), 21);
}

TEST(SerializeGamma, RoundTripsEveryValueUpToItsMax) {
  for (const std::uint32_t max : {0u, 1u, 2u, 5u, 6u, 7u, 1017u, 1023u}) {
    for (std::uint32_t value = 0; value <= max; ++value) {
      std::array<std::uint8_t, 8> buffer{};
      BitWriter writer(buffer);
      std::uint32_t v = value;
      ASSERT_TRUE(SerializeGamma(writer, v, max)) << value << " of " << max;
      BitReader reader(buffer);
      std::uint16_t read = 0xFFFF;
      ASSERT_TRUE(SerializeGamma(reader, read, max)) << value << " of " << max;
      EXPECT_EQ(read, value);
      EXPECT_EQ(reader.BitsRead(), writer.BitsWritten());
    }
  }
  // Values far from 1023 too: the widest the protocol uses is 21 bits, the code itself goes further.
  for (const std::uint32_t value : {65535u, 0x7FFFFFFEu, 0xFFFFFFFEu}) {
    std::array<std::uint8_t, 16> buffer{};
    BitWriter writer(buffer);
    std::uint32_t v = value;
    ASSERT_TRUE(SerializeGamma(writer, v, 0xFFFFFFFEu)) << value;
    EXPECT_EQ(writer.BitsWritten(), static_cast<std::size_t>(GammaBits(value)));
    BitReader reader(buffer);
    std::uint32_t read = 0;
    ASSERT_TRUE(SerializeGamma(reader, read, 0xFFFFFFFEu)) << value;
    EXPECT_EQ(read, value);
  }
}

TEST(SerializeGamma, WriterRefusesAValuePastItsMax) {
  std::array<std::uint8_t, 4> buffer{};
  BitWriter writer(buffer);
  std::uint32_t v = 1018;
  EXPECT_FALSE(SerializeGamma(writer, v, 1017));
  int negative = -1;
  EXPECT_FALSE(SerializeGamma(writer, negative, 1023));
  EXPECT_EQ(writer.BitsWritten(), 0u);
  BitMeasurer measurer;
  EXPECT_FALSE(SerializeGamma(measurer, v, 1017));
}

TEST(SerializeGamma, ReaderRefusesValuesPastItsMaxAndExtraZeros) {
  const auto read = [](std::uint32_t code, int bits, std::uint32_t max, std::size_t* bits_read = nullptr) {
    std::array<std::uint8_t, 8> buffer{};
    BitWriter writer(buffer);
    EXPECT_TRUE(writer.Bits(code, bits));
    BitReader reader(std::span<const std::uint8_t>(buffer.data(), writer.BytesWritten()));
    std::uint32_t value = 77;
    const bool ok = SerializeGamma(reader, value, max);
    if (bits_read != nullptr) *bits_read = reader.BitsRead();
    EXPECT_TRUE(ok || value == 77) << "a refused read leaves the value";
    return ok ? static_cast<std::int64_t>(value) : -1;
  };
  EXPECT_EQ(read(1018, 19, 1017), 1017);
  EXPECT_EQ(read(1019, 19, 1017), -1);  // 1018: as many zeros as 1017, past it
  EXPECT_EQ(read(0b110, 5, 4), -1);     // 5: as many zeros as 4, past it
  EXPECT_EQ(read(0b101, 5, 4), 4);
  EXPECT_EQ(read(1, 1, 0), 0);
  EXPECT_EQ(read(0b010, 3, 0), -1);  // a zero where max 0 needs none
  // max 1023 takes at most 10 zeros: an 11th is refused as soon as it is read, the code not read further.
  std::size_t bits_read = 0;
  EXPECT_EQ(read(1024, 21, 1023), 1023);
  EXPECT_EQ(read(2048, 23, 1023, &bits_read), -1);
  EXPECT_EQ(bits_read, 11u);
  // A run of zeros longer than any code stops at the same place, far from the end of the stream.
  EXPECT_EQ(read(0, 32, 1023, &bits_read), -1);
  EXPECT_EQ(bits_read, 11u);
  // The widest max the 32-bit code allows reads at most 31 zeros: never a 32-bit shift.
  EXPECT_EQ(read(0, 32, 0xFFFFFFFEu, &bits_read), -1);
  EXPECT_EQ(bits_read, 32u);
  // A code cut short by the end of the stream.
  std::array<std::uint8_t, 1> cut{0x00};  // 8 zeros, then nothing
  BitReader reader(cut);
  std::uint32_t value = 0;
  EXPECT_FALSE(SerializeGamma(reader, value, 1023));
}

}  // namespace
}  // namespace netcube::protocol
