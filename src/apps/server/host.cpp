#include "host.h"

#include <sys/random.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "netcube/protocol/discovery.h"
#include "netcube/protocol/rules.h"

namespace netcube::apps {

Micros SteadyNow() {
  using Clock = std::chrono::steady_clock;
  static const Clock::time_point start = Clock::now();
  return std::chrono::duration_cast<Micros>(Clock::now() - start);
}

std::uint64_t OsNonce() {
  std::uint64_t nonce = 0;
  // 8 bytes from getrandom never come short once the pool is initialised; without it there is no secret.
  if (getrandom(&nonce, sizeof nonce, 0) != static_cast<ssize_t>(sizeof nonce)) {
    std::perror("netcube-server: getrandom");
    std::abort();
  }
  return nonce;
}

std::string DefaultServerName() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::string name;
  for (const char* c = host; *c != '\0' && name.size() < protocol::kMaxServerNameLength; ++c) {
    if (protocol::IsPrintable(*c)) name.push_back(*c);
  }
  return name.empty() ? "netcube" : name;
}

}  // namespace netcube::apps
