#include "duration_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace netcube::server {

std::size_t DurationHistogram::BucketOf(std::uint64_t micros) noexcept {
  if (micros < kExactLimit) return static_cast<std::size_t>(micros);
  // Shift so the value keeps kSubBucketBits + 1 significant bits: [32, 64) after the shift.
  const int shift = std::min(static_cast<int>(std::bit_width(micros)) - (kSubBucketBits + 1), kMaxExponent);
  const std::uint64_t top = std::min(micros >> shift, kExactLimit - 1);
  const std::uint64_t sub = top - (kExactLimit / 2);
  return static_cast<std::size_t>(kExactLimit / 2 + static_cast<std::uint64_t>(shift) * (kExactLimit / 2) +
                                  sub);
}

std::uint64_t DurationHistogram::MidpointOf(std::size_t bucket) noexcept {
  if (bucket < kExactLimit) return bucket;
  const std::uint64_t shift = (bucket - kExactLimit / 2) / (kExactLimit / 2);
  const std::uint64_t top = (bucket - kExactLimit / 2) % (kExactLimit / 2) + kExactLimit / 2;
  return (top << shift) + ((std::uint64_t{1} << shift) / 2);
}

void DurationHistogram::Add(Micros duration) noexcept {
  const auto micros = static_cast<std::uint64_t>(std::max<std::int64_t>(duration.count(), 0));
  ++counts_[BucketOf(micros)];
  ++samples_;
  max_ = std::max(max_, Micros(static_cast<std::int64_t>(micros)));
}

Micros DurationHistogram::Percentile(double fraction) const noexcept {
  if (samples_ == 0) return Micros(0);
  const auto rank = std::max<std::uint64_t>(
      1,
      static_cast<std::uint64_t>(std::ceil(std::clamp(fraction, 0.0, 1.0) * static_cast<double>(samples_))));
  std::uint64_t seen = 0;
  for (std::size_t bucket = 0; bucket < counts_.size(); ++bucket) {
    seen += counts_[bucket];
    if (seen >= rank) {
      return std::min(Micros(static_cast<std::int64_t>(MidpointOf(bucket))), max_);
    }
  }
  return max_;
}

TickDurations DurationHistogram::Summary() const noexcept {
  return {samples(), Percentile(0.50), Percentile(0.99), max()};
}

}  // namespace netcube::server
