#include "netcube/discovery/responder.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <vector>

#include "netcube/transport/udp_socket.h"

namespace netcube::discovery {

using transport::FormatIpv4;
using transport::ParseIpv4;
using transport::UdpEndpoint;
using transport::UdpSocket;

namespace {

// A flood cannot keep one Service call busy for ever; the rest waits in the socket's buffer.
constexpr int kMaxDatagramsPerService = 256;
// Keys (source addresses, or their /24s) with a bucket of their own at most; a new one takes the place of
// the longest idle.
constexpr std::size_t kMaxTrackedKeys = 256;
// How often a /24 asks, metered: a LAN's browsers ask once a second each. A flood from many forged
// sources drains the meters of the /24s it uses, and its sources' own buckets if each asks faster than a
// browser does.
constexpr double kPrefixBurst = 20.0;
constexpr double kPrefixQueriesPerSecond = 10.0;
// Quiet: a source and its /24 both at least half their bucket. Only a quiet source may spend the part of
// the bucket of all sources that the others leave (a share of the burst), so a flood cannot spend the
// replies of a browser that asks as browsers do, whether it was answered before or asks first during it.
constexpr double kQuietShare = 0.5;
constexpr double kQuietShareOfBurst = 0.5;

struct TokenBucket {
  double tokens = 0.0;
  Micros refilled_at{0};

  void Refill(Micros now, double burst, double per_second) {
    if (now <= refilled_at) return;
    const double seconds = std::chrono::duration<double>(now - refilled_at).count();
    tokens = std::min(burst, tokens + seconds * per_second);
    refilled_at = now;
  }
  // True (and a token spent) if a reply may go out now, leaving at least `kept` tokens.
  bool Take(double kept = 0.0) {
    if (tokens < kept + 1.0) return false;
    tokens -= 1.0;
    return true;
  }
  // A meter's count: a token spent if there is one.
  void Count() { tokens = std::max(0.0, tokens - 1.0); }
};

struct KeyedBucket {
  std::uint32_t key = 0;
  TokenBucket bucket;
};

// The bucket of `key`, refilled to `now`: a new key's is full.
TokenBucket& BucketOf(std::vector<KeyedBucket>& table, std::uint32_t key, Micros now, double burst,
                      double per_second) {
  auto known = std::find_if(table.begin(), table.end(), [key](const KeyedBucket& b) { return b.key == key; });
  if (known == table.end()) {
    const KeyedBucket full{key, {burst, now}};
    if (table.size() < kMaxTrackedKeys) {
      known = table.insert(table.end(), full);
    } else {
      known = std::min_element(table.begin(), table.end(), [](const KeyedBucket& a, const KeyedBucket& b) {
        return a.bucket.refilled_at < b.bucket.refilled_at;
      });
      *known = full;
    }
  }
  known->bucket.Refill(now, burst, per_second);
  return known->bucket;
}

}  // namespace

struct Responder::Impl {
  ResponderConfig config;
  UdpSocket socket;
  std::string multicast_error;
  ResponderCounters counters;
  std::optional<TokenBucket> all_sources;  // full at the first query
  std::vector<KeyedBucket> sources;
  std::vector<KeyedBucket> prefixes;  // meters of the /24s

  // True (and a token spent from the buckets) if a reply to `address` may go out now.
  bool MayReply(std::uint32_t address, Micros now) {
    if (!all_sources) all_sources = TokenBucket{static_cast<double>(config.burst), now};
    all_sources->Refill(now, config.burst, config.replies_per_second);
    TokenBucket& prefix = BucketOf(prefixes, address >> 8, now, kPrefixBurst, kPrefixQueriesPerSecond);
    prefix.Count();  // every query, answered or not
    const double source_burst = config.burst_per_source;
    TokenBucket& own = BucketOf(sources, address, now, source_burst, config.replies_per_second_per_source);
    if (!own.Take()) return false;
    const bool quiet =
        prefix.tokens >= kPrefixBurst * kQuietShare && own.tokens >= source_burst * kQuietShare;
    return all_sources->Take(quiet ? 0.0 : config.burst * kQuietShareOfBurst);
  }
};

Responder::Responder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Responder::~Responder() = default;

std::unique_ptr<Responder> Responder::Open(const ResponderConfig& config, std::string* error) {
  std::optional<UdpSocket> socket = UdpSocket::Open({config.bind_address, config.port, /*shared=*/true,
                                                     /*broadcast=*/false},
                                                    error);
  if (!socket) return nullptr;
  auto impl = std::make_unique<Impl>(Impl{config, std::move(*socket), {}, {}, std::nullopt, {}, {}});
  if (config.multicast) {
    impl->socket.JoinMulticastGroup(*ParseIpv4(kMulticastGroup), &impl->multicast_error);
  }
  return std::unique_ptr<Responder>(new Responder(std::move(impl)));
}

void Responder::Service(Micros now, const protocol::DiscoveryReply& info) {
  Impl& s = *impl_;
  // One byte more than a query, so an oversized datagram shows as too large instead of passing truncated.
  std::array<std::uint8_t, protocol::kDiscoveryQueryBytes + 1> in{};
  std::array<std::uint8_t, protocol::kDiscoveryQueryBytes> out{};
  UdpEndpoint from;
  for (int i = 0; i < kMaxDatagramsPerService; ++i) {
    const std::optional<std::size_t> length = s.socket.Receive(in, from);
    if (!length) break;
    s.counters.bytes_received += *length;
    protocol::DiscoveryQuery query;
    const std::size_t readable = std::min(*length, in.size());
    // Port 0 cannot be answered; it only appears in forged datagrams.
    if (from.port == 0 || protocol::DecodeDiscoveryQuery(std::span(in.data(), readable), query) !=
                              protocol::DecodeError::kNone) {
      ++s.counters.queries_malformed;
      continue;
    }
    if (!s.MayReply(from.address, now)) {
      ++s.counters.queries_rate_limited;
      continue;
    }
    protocol::DiscoveryReply reply = info;
    reply.client_time_us = query.client_time_us;
    const std::size_t bytes = protocol::EncodeDiscoveryReply(reply, out);
    if (bytes == 0 || bytes > *length) continue;  // an invalid `info`: the caller's bug, nothing to send
    if (s.socket.SendTo(from, std::span(out.data(), bytes))) {
      ++s.counters.queries_answered;
      s.counters.bytes_sent += bytes;
    }
  }
}

std::uint16_t Responder::port() const noexcept { return impl_->socket.port(); }
const std::string& Responder::multicast_error() const noexcept { return impl_->multicast_error; }
const ResponderCounters& Responder::counters() const noexcept { return impl_->counters; }

}  // namespace netcube::discovery
