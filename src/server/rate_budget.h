#pragma once
// A token bucket on the caller's clock: up to `burst` events at once, then `per_second` on average. The
// server keeps one per peer for each thing a peer could otherwise make it do without bound.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "netcube/sim/time.h"

namespace netcube::server {

class RateBudget {
 public:
  constexpr RateBudget(std::int64_t burst, std::int64_t per_second) noexcept
      : burst_(burst * kMicrosPerSecond), per_second_(per_second), credit_(burst_) {}

  // Spends one event's worth if there is one (true), after crediting the time since the last call.
  bool Take(Micros now) noexcept {
    if (last_) credit_ = std::min(burst_, credit_ + (now - *last_).count() * per_second_);
    last_ = now;
    if (credit_ < kMicrosPerSecond) return false;
    credit_ -= kMicrosPerSecond;
    return true;
  }

 private:
  // Credit in millionths of an event, so a per-second rate adds exactly per_second per microsecond.
  static constexpr std::int64_t kMicrosPerSecond = 1'000'000;
  std::int64_t burst_;
  std::int64_t per_second_;
  std::int64_t credit_;
  std::optional<Micros> last_;
};

}  // namespace netcube::server
