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
// Source addresses with a bucket of their own at most; a new one takes the place of the longest idle.
constexpr std::size_t kMaxTrackedSources = 256;
// Regulars: sources answered recently, which may spend the part of the bucket of all sources that newcomers
// leave (a share of the burst). A flood from many forged sources is all newcomers, or holds a few regular
// places at most, each within its own rate: it cannot spend a browser's replies once the browser has been
// answered. A regular not answered for kRegularTimeout (a browser asks once a second) gives its place up.
constexpr std::size_t kMaxRegulars = 8;
constexpr Micros kRegularTimeout{3'000'000};
constexpr double kRegularShareOfBurst = 0.5;

struct TokenBucket {
  double tokens = 0.0;
  Micros refilled_at{0};

  static TokenBucket Full(double burst, Micros now) { return {burst, now}; }

  // True (and a token spent) if a reply may go out now, leaving at least `kept` tokens.
  bool Take(Micros now, double burst, double per_second, double kept = 0.0) {
    if (now > refilled_at) {
      const double seconds = std::chrono::duration<double>(now - refilled_at).count();
      tokens = std::min(burst, tokens + seconds * per_second);
      refilled_at = now;
    }
    if (tokens < kept + 1.0) return false;
    tokens -= 1.0;
    return true;
  }
};

struct SourceBucket {
  std::uint32_t address = 0;
  TokenBucket bucket;
};

struct Regular {
  std::uint32_t address = 0;
  Micros answered_at{0};
};

}  // namespace

struct Responder::Impl {
  ResponderConfig config;
  UdpSocket socket;
  std::string multicast_error;
  ResponderCounters counters;
  std::optional<TokenBucket> all_sources;  // full at the first query
  std::vector<SourceBucket> sources;
  std::vector<Regular> regulars;  // at most kMaxRegulars

  TokenBucket& SourceBucketOf(std::uint32_t address, Micros now) {
    const auto known = std::find_if(sources.begin(), sources.end(),
                                    [address](const SourceBucket& s) { return s.address == address; });
    if (known != sources.end()) return known->bucket;
    const TokenBucket full = TokenBucket::Full(config.burst_per_source, now);
    if (sources.size() < kMaxTrackedSources) return sources.emplace_back(SourceBucket{address, full}).bucket;
    SourceBucket& idlest =
        *std::min_element(sources.begin(), sources.end(), [](const SourceBucket& a, const SourceBucket& b) {
          return a.bucket.refilled_at < b.bucket.refilled_at;
        });
    idlest = SourceBucket{address, full};
    return idlest.bucket;
  }

  Regular* RegularOf(std::uint32_t address, Micros now) {
    const auto it = std::find_if(regulars.begin(), regulars.end(),
                                 [address](const Regular& r) { return r.address == address; });
    return it != regulars.end() && now - it->answered_at <= kRegularTimeout ? &*it : nullptr;
  }

  // An answered source is a regular from now on, if there is a place: a free one or one given up.
  void Answered(std::uint32_t address, Micros now) {
    if (Regular* regular = RegularOf(address, now)) {
      regular->answered_at = now;
      return;
    }
    if (regulars.size() < kMaxRegulars) {
      regulars.push_back({address, now});
      return;
    }
    Regular& stalest =
        *std::min_element(regulars.begin(), regulars.end(),
                          [](const Regular& a, const Regular& b) { return a.answered_at < b.answered_at; });
    if (now - stalest.answered_at > kRegularTimeout) stalest = {address, now};
  }

  // True (and a token spent from both buckets) if a reply to `address` may go out now.
  bool MayReply(std::uint32_t address, Micros now) {
    if (!all_sources) all_sources = TokenBucket::Full(config.burst, now);
    TokenBucket& own = SourceBucketOf(address, now);
    if (!own.Take(now, config.burst_per_source, config.replies_per_second_per_source)) return false;
    const double kept = RegularOf(address, now) != nullptr ? 0.0 : config.burst * kRegularShareOfBurst;
    return all_sources->Take(now, config.burst, config.replies_per_second, kept);
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
      s.Answered(from.address, now);
      ++s.counters.queries_answered;
      s.counters.bytes_sent += bytes;
    }
  }
}

std::uint16_t Responder::port() const noexcept { return impl_->socket.port(); }
const std::string& Responder::multicast_error() const noexcept { return impl_->multicast_error; }
const ResponderCounters& Responder::counters() const noexcept { return impl_->counters; }

}  // namespace netcube::discovery
