#pragma once
// What netcube-server asks of the machine: the monotonic clock, the kernel's random nonces and its host
// name.
#include <cstdint>
#include <string>

#include "netcube/sim/time.h"

namespace netcube::apps {

// Microseconds since the process's first call, on the monotonic clock.
Micros SteadyNow();
// A Challenge nonce from the kernel's CSPRNG, each one drawn afresh so none tells anything of the next.
std::uint64_t OsNonce();
// The machine's host name as a discovery name: printable ASCII only, at most kMaxServerNameLength.
std::string DefaultServerName();

}  // namespace netcube::apps
