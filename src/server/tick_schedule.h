#pragma once
// When each tick is due, computed from a base in integers so that no error accumulates: tick n runs at
// base_time + (n - base_tick) * 1e6 / rate microseconds. A rate change re-bases at the last tick.
#include <cstdint>

#include "netcube/sim/time.h"

namespace netcube::server {

class TickSchedule {
 public:
  TickSchedule(Micros start, int rate) noexcept : base_time_(start), rate_(rate) {}

  // When tick `tick` (>= the base tick) is due.
  Micros TimeOf(std::uint64_t tick) const noexcept;
  // The newest tick due at `now` (the base tick if none after it is).
  std::uint64_t LastDueTick(Micros now) const noexcept;
  // From now on ticks after `tick` follow `rate`, starting from the time `tick` had.
  void Rebase(std::uint64_t tick, int rate) noexcept;

  int rate() const noexcept { return rate_; }

 private:
  Micros base_time_;
  std::uint64_t base_tick_ = 0;
  int rate_;
};

}  // namespace netcube::server
