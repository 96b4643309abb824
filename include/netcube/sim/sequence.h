#pragma once
// 16-bit sequence numbers that wrap: every comparison goes through these, never through `<`.
#include <cstdint>

namespace netcube::sim {

using Seq = std::uint16_t;

// True when `a` is newer than `b`, treating the space as a circle (half the range ahead is "newer").
constexpr bool SeqGreater(Seq a, Seq b) noexcept {
  return ((a > b) && (a - b <= 32768)) || ((a < b) && (b - a > 32768));
}
constexpr bool SeqLess(Seq a, Seq b) noexcept { return SeqGreater(b, a); }

// Signed distance from `b` forward to `a` (a - b), valid while they are less than 32768 apart.
constexpr int SeqDiff(Seq a, Seq b) noexcept {
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(a - b));
}

}  // namespace netcube::sim
