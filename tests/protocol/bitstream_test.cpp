#include "netcube/protocol/bitstream.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <random>
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

}  // namespace
}  // namespace netcube::protocol
