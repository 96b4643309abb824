#pragma once
// The client's side of LAN discovery: sends a query every second (to the broadcast address and the
// multicast group by default), and keeps the list of servers that answered, with each one's round trip.
// Driven by Service(now); it never reads a clock.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "netcube/discovery/responder.h"
#include "netcube/protocol/discovery.h"
#include "netcube/sim/time.h"

namespace netcube::discovery {

inline constexpr std::size_t kMaxFoundServers = 64;  // more answers than this are dropped and counted

struct BrowserConfig {
  std::uint16_t port = kDiscoveryPort;  // where the servers listen
  // Where queries go: broadcast and multicast addresses, or any unicast address to ask one host.
  std::vector<std::string> targets = {"255.255.255.255", kMulticastGroup};
  Micros query_interval{1'000'000};
  Micros forget_after{3'500'000};  // a server silent this long leaves the list
};

struct FoundServer {
  std::string address;  // dotted IPv4 of the game port: the reply's source unless the server named one
  std::uint16_t port = 0;
  protocol::DiscoveryReply reply;  // name, version, players, rates as the server sent them
  Micros round_trip{0};            // of the newest answered query
  Micros last_heard{0};
  bool compatible() const noexcept { return reply.version == protocol::kProtocolVersion; }
};

struct BrowserCounters {
  std::uint64_t queries_sent = 0;
  std::uint64_t send_errors = 0;       // a target the network refused (no route for broadcast, ...)
  std::uint64_t replies_received = 0;  // well-formed answers to one of our queries
  std::uint64_t replies_dropped = 0;   // malformed, unsolicited (no query of ours), or the list was full
};

class Browser {
 public:
  // nullptr and `error` set if no socket can be opened or a target is not an IPv4 address.
  static std::unique_ptr<Browser> Open(const BrowserConfig& config, std::string* error);
  ~Browser();
  Browser(const Browser&) = delete;
  Browser& operator=(const Browser&) = delete;

  // Sends a query to every target when one is due (the first call sends at once), reads the replies, and
  // forgets servers not heard for forget_after.
  void Service(Micros now);

  // Sorted by name, then address and port.
  const std::vector<FoundServer>& servers() const noexcept;
  const BrowserCounters& counters() const noexcept;
  std::uint16_t port() const noexcept;  // the local port replies come back to

 private:
  struct Impl;
  explicit Browser(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace netcube::discovery
