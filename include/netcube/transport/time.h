#pragma once
#include <chrono>

namespace netcube {

// Time as library code sees it: microseconds since an epoch the caller chooses. Libraries never read a
// clock; executables pass a monotonic clock, tests pass whatever they like.
using Micros = std::chrono::microseconds;

}  // namespace netcube
