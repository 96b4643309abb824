#include "tick_schedule.h"

namespace netcube::server {
namespace {
constexpr std::int64_t kMicrosPerSecond = 1'000'000;
}  // namespace

Micros TickSchedule::TimeOf(std::uint64_t tick) const noexcept {
  const auto since_base = static_cast<std::int64_t>(tick - base_tick_);
  return base_time_ + Micros(since_base * kMicrosPerSecond / rate_);
}

std::uint64_t TickSchedule::LastDueTick(Micros now) const noexcept {
  const std::int64_t elapsed = (now - base_time_).count();
  if (elapsed < 0) return base_tick_;
  // The largest k with floor(k * 1e6 / rate) <= elapsed, i.e. k * 1e6 < (elapsed + 1) * rate.
  const std::int64_t k = ((elapsed + 1) * rate_ - 1) / kMicrosPerSecond;
  return base_tick_ + static_cast<std::uint64_t>(k);
}

void TickSchedule::Rebase(std::uint64_t tick, int rate) noexcept {
  base_time_ = TimeOf(tick);
  base_tick_ = tick;
  rate_ = rate;
}

}  // namespace netcube::server
