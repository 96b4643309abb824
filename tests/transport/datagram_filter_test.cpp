#include "datagram_filter.h"

#include <gtest/gtest.h>

namespace netcube::transport {
namespace {

constexpr std::size_t kLimit = 4096;

// How ENet splits a `total`-byte packet into `size`-byte fragments: fragment `number` of it.
FragmentClaim Split(std::uint32_t total, std::uint16_t size, std::uint32_t number) {
  const std::uint32_t count = (total + size - 1) / size;
  const std::uint32_t offset = number * size;
  return {count, number, total, offset, static_cast<std::uint16_t>(std::min<std::uint32_t>(size, total - offset))};
}

TEST(DatagramFilter, EveryFragmentOfARealSplitIsConsistent) {
  for (const std::uint32_t total : {1U, 2U, 1000U, 1360U, 1361U, 1928U, 2720U, 4096U}) {
    for (const std::uint16_t size : {std::uint16_t{1}, std::uint16_t{7}, std::uint16_t{548}, std::uint16_t{1360}}) {
      const std::uint32_t count = (total + size - 1) / size;
      for (std::uint32_t number = 0; number < count; ++number) {
        EXPECT_TRUE(FragmentConsistent(Split(total, size, number), kLimit)) << total << " " << size << " " << number;
      }
    }
  }
}

TEST(DatagramFilter, ImpossibleClaimsAreRefused) {
  // ENet 1.3.17's memory bomb: a million fragments of a 1-byte packet (a 128 KiB bitmap each).
  EXPECT_FALSE(FragmentConsistent({1U << 20, 0, 1, 0, 1}, kLimit));
  EXPECT_FALSE(FragmentConsistent({1U << 20, (1U << 20) - 1, 1, 0, 1}, kLimit));
  EXPECT_FALSE(FragmentConsistent({2, 0, 4097, 0, 2049}, kLimit));  // above the largest message
  EXPECT_FALSE(FragmentConsistent({0, 0, 10, 0, 10}, kLimit));
  EXPECT_FALSE(FragmentConsistent({2, 2, 10, 0, 5}, kLimit));   // number beyond count
  EXPECT_FALSE(FragmentConsistent({2, 0, 10, 1, 5}, kLimit));   // offset not number x size
  EXPECT_FALSE(FragmentConsistent({3, 0, 10, 0, 5}, kLimit));   // 10 bytes in 5-byte fragments are 2
  EXPECT_FALSE(FragmentConsistent({2, 1, 10, 5, 4}, kLimit));   // the last one stops short of the total
  EXPECT_FALSE(FragmentConsistent({3, 2, 12, 6, 6}, kLimit));   // last longer than the others (3 each)
  EXPECT_FALSE(FragmentConsistent({1, 0, 10, 0, 0}, kLimit));   // no data
  EXPECT_FALSE(FragmentConsistent({1, 0, 10, 0, 9}, kLimit));   // a single fragment is the whole message
}

}  // namespace
}  // namespace netcube::transport
