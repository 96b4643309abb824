#pragma once
// Tick durations in bounded memory: a log-linear histogram (exact below 64 µs, then 32 buckets per power
// of two, ~3% resolution) from which any percentile can be read, plus the exact maximum.
#include <array>
#include <cstddef>
#include <cstdint>

#include "netcube/server/server_stats.h"
#include "netcube/sim/time.h"

namespace netcube::server {

class DurationHistogram {
 public:
  void Add(Micros duration) noexcept;
  // The duration below which `fraction` (0..1] of the samples fall, to the histogram's resolution.
  Micros Percentile(double fraction) const noexcept;
  Micros max() const noexcept { return max_; }
  std::uint64_t samples() const noexcept { return samples_; }
  // p50, p99 and the maximum.
  TickDurations Summary() const noexcept;

 private:
  static constexpr int kSubBucketBits = 5;
  static constexpr std::uint64_t kExactLimit = 2u << kSubBucketBits;  // values below are their own bucket
  static constexpr int kMaxExponent = 40;                             // ~12 days in µs: far past any tick
  static constexpr std::size_t kBucketCount = kExactLimit + kMaxExponent * (1u << kSubBucketBits);

  static std::size_t BucketOf(std::uint64_t micros) noexcept;
  static std::uint64_t MidpointOf(std::size_t bucket) noexcept;

  std::array<std::uint64_t, kBucketCount> counts_{};
  std::uint64_t samples_ = 0;
  Micros max_{0};
};

}  // namespace netcube::server
