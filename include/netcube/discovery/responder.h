#pragma once
// The server's side of LAN discovery: answers every well-formed query on the discovery port with the
// server's description, within a rate limit. Driven by Service(now); it never reads a clock.
#include <cstdint>
#include <memory>
#include <string>

#include "netcube/protocol/discovery.h"
#include "netcube/sim/time.h"

namespace netcube::discovery {

inline constexpr std::uint16_t kDiscoveryPort = 7770;            // well-known: every browser asks here
inline constexpr const char* kMulticastGroup = "239.255.78.67";  // organisation-local scope

struct ResponderConfig {
  std::string bind_address = "0.0.0.0";
  std::uint16_t port = kDiscoveryPort;  // 0 = any free port (tests)
  bool multicast = true;                // also answer queries sent to kMulticastGroup
  // A token bucket over all sources: at most `burst` replies at once, refilled at replies_per_second.
  int replies_per_second = 50;
  int burst = 20;
  // And one per source address, so that one noisy host cannot spend everyone's replies. A browser asks
  // once a second.
  int replies_per_second_per_source = 2;
  int burst_per_source = 4;
};

struct ResponderCounters {
  std::uint64_t queries_answered = 0;
  std::uint64_t queries_malformed = 0;     // dropped: not a well-formed query (wrong size, magic, padding)
  std::uint64_t queries_rate_limited = 0;  // dropped: the bucket of all sources, or of this one, was empty
  std::uint64_t bytes_received = 0;
  std::uint64_t bytes_sent = 0;
};

class Responder {
 public:
  // nullptr and `error` set if the port cannot be bound. A failed multicast join is not fatal (many
  // containers have no multicast route): multicast_error() says why, and broadcasts are still answered.
  static std::unique_ptr<Responder> Open(const ResponderConfig& config, std::string* error);
  ~Responder();
  Responder(const Responder&) = delete;
  Responder& operator=(const Responder&) = delete;

  // Reads every pending datagram and answers each well-formed query with `info` (its client_time_us is
  // replaced by the query's). `info` must encode (a name of 1..31 printable characters, ...).
  void Service(Micros now, const protocol::DiscoveryReply& info);

  std::uint16_t port() const noexcept;
  const std::string& multicast_error() const noexcept;
  const ResponderCounters& counters() const noexcept;

 private:
  struct Impl;
  explicit Responder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace netcube::discovery
