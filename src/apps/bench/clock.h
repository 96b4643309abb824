#pragma once
// The bench's clocks: the wall clock that drives the real-time scenario, and the clock that times the
// server's ticks (its own thread's CPU time by default, so that time the scheduler gives to the bot
// process or to anything else on the machine is not counted as tick work).
#include <chrono>
#include <ctime>

#include "netcube/sim/time.h"

namespace netcube::bench {

using SteadyClock = std::chrono::steady_clock;

// Microseconds since the first call, on the monotonic clock.
inline Micros WallNow() {
  static const SteadyClock::time_point start = SteadyClock::now();
  return std::chrono::duration_cast<Micros>(SteadyClock::now() - start);
}

inline double ToSeconds(Micros t) { return static_cast<double>(t.count()) / 1e6; }

// The calling thread's CPU time.
inline Micros ThreadCpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return Micros(static_cast<std::int64_t>(ts.tv_sec) * 1'000'000 + ts.tv_nsec / 1000);
}

}  // namespace netcube::bench
