#pragma once
// LAN discovery: the query a browser broadcasts and the reply a server sends back, on their own UDP port
// beside the game (docs/PROTOCOL.md, "LAN discovery"). They are plain UDP datagrams, not ENet packets, and
// no game message changes. A query is padded to kDiscoveryQueryBytes and no reply is longer, so a forged
// source address never makes a server send more bytes than it received.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "netcube/protocol/messages.h"

namespace netcube::protocol {

inline constexpr std::uint32_t kDiscoveryQueryMagic = 0x4E434451;  // "NCDQ"
inline constexpr std::uint32_t kDiscoveryReplyMagic = 0x4E434452;  // "NCDR"
inline constexpr std::size_t kDiscoveryQueryBytes = 48;            // every query, padding included
inline constexpr std::size_t kMaxServerNameLength = 26;            // the longest reply is then 48 bytes

// Browser -> server.
struct DiscoveryQuery {
  std::uint16_t version = kProtocolVersion;  // the browser's game protocol version (any value is answered)
  std::uint32_t client_time_us = 0;          // echoed in the reply: the browser's clock, for the round trip
  friend bool operator==(const DiscoveryQuery&, const DiscoveryQuery&) = default;
};

// Server -> browser.
struct DiscoveryReply {
  std::uint16_t version = kProtocolVersion;  // the server's game protocol version
  std::uint32_t client_time_us = 0;          // the query's, unchanged
  std::uint32_t address = 0;                 // the game's IPv4 address (host order); 0 = the reply's source
  std::uint16_t port = 7777;                 // the game's UDP port, never 0
  std::uint16_t players = 0;                 // at most max_players
  std::uint16_t max_players = 32;
  std::uint8_t tick_rate = 60;
  std::uint8_t snapshot_rate = 20;
  std::uint8_t max_snapshot_rate = 60;  // the most a client may ask for (the Welcome's)
  sim::Arena arena;                     // the Welcome's
  std::string name;                     // 1..kMaxServerNameLength printable ASCII characters
  friend bool operator==(const DiscoveryReply&, const DiscoveryReply&) = default;
};

// Both return the byte count (a query is always kDiscoveryQueryBytes), or 0 if a value is out of range
// or `out` is too small.
std::size_t EncodeDiscoveryQuery(const DiscoveryQuery& query, std::span<std::uint8_t> out) noexcept;
std::size_t EncodeDiscoveryReply(const DiscoveryReply& reply, std::span<std::uint8_t> out) noexcept;
// Exact encoded size of a valid reply (0 for an invalid one).
std::size_t MeasureDiscoveryReply(const DiscoveryReply& reply) noexcept;

// Whole datagrams only; on failure `out` is untouched. A query of any other length than
// kDiscoveryQueryBytes, or whose padding is not zero, is malformed.
DecodeError DecodeDiscoveryQuery(std::span<const std::uint8_t> datagram, DiscoveryQuery& out) noexcept;
DecodeError DecodeDiscoveryReply(std::span<const std::uint8_t> datagram, DiscoveryReply& out) noexcept;

}  // namespace netcube::protocol
