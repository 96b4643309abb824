#pragma once
#include <chrono>

namespace netcube {

// Time as every layer sees it: microseconds since an epoch the caller chooses. Libraries never read a
// clock; executables pass a monotonic clock, tests pass whatever they like. It lives with the innermost
// layer because every layer above takes `now` in it.
using Micros = std::chrono::microseconds;

}  // namespace netcube
