#include "netcube/discovery/browser.h"

#include <algorithm>
#include <array>
#include <tuple>

#include "netcube/transport/udp_socket.h"

namespace netcube::discovery {

using transport::FormatIpv4;
using transport::ParseIpv4;
using transport::UdpEndpoint;
using transport::UdpSocket;
namespace {

// Replies to a query older than this many of ours are unsolicited.
constexpr std::size_t kRememberedQueries = 4;
// A flood cannot keep one Service call busy for ever; the rest waits in the socket's buffer.
constexpr int kMaxDatagramsPerService = 256;

}  // namespace

struct Browser::Impl {
  BrowserConfig config;
  UdpSocket socket;
  std::vector<UdpEndpoint> targets;
  std::vector<FoundServer> servers;
  BrowserCounters counters;
  std::optional<Micros> next_query;
  // The client_time_us of our newest queries, and when each was sent.
  std::array<std::pair<std::uint32_t, Micros>, kRememberedQueries> sent{};
  std::size_t sent_count = 0;

  void SendQueries(Micros now) {
    protocol::DiscoveryQuery query;
    query.client_time_us = static_cast<std::uint32_t>(now.count());
    std::array<std::uint8_t, protocol::kDiscoveryQueryBytes> bytes{};
    protocol::EncodeDiscoveryQuery(query, bytes);
    for (const UdpEndpoint& target : targets) {
      if (socket.SendTo(target, bytes)) {
        ++counters.queries_sent;
      } else {
        ++counters.send_errors;
      }
    }
    sent[sent_count % kRememberedQueries] = {query.client_time_us, now};
    ++sent_count;
  }

  std::optional<Micros> SentAt(std::uint32_t client_time_us) const {
    for (std::size_t i = 0; i < std::min(sent_count, kRememberedQueries); ++i) {
      if (sent[i].first == client_time_us) return sent[i].second;
    }
    return std::nullopt;
  }

  void Receive(Micros now) {
    std::array<std::uint8_t, protocol::kDiscoveryQueryBytes + 1> in{};
    UdpEndpoint from;
    for (int i = 0; i < kMaxDatagramsPerService; ++i) {
      const std::optional<std::size_t> length = socket.Receive(in, from);
      if (!length) break;
      protocol::DiscoveryReply reply;
      const std::size_t readable = std::min(*length, in.size());
      std::optional<Micros> sent_at;
      if (protocol::DecodeDiscoveryReply(std::span(in.data(), readable), reply) !=
              protocol::DecodeError::kNone ||
          !(sent_at = SentAt(reply.client_time_us))) {
        ++counters.replies_dropped;
        continue;
      }
      const std::string address = FormatIpv4(reply.address != 0 ? reply.address : from.address);
      auto found = std::find_if(servers.begin(), servers.end(), [&](const FoundServer& s) {
        return s.address == address && s.port == reply.port;
      });
      if (found == servers.end()) {
        if (servers.size() >= kMaxFoundServers) {
          ++counters.replies_dropped;
          continue;
        }
        found = servers.insert(servers.end(), FoundServer{address, reply.port, {}, {}, {}});
      }
      ++counters.replies_received;
      found->reply = std::move(reply);
      found->round_trip = now - *sent_at;
      found->last_heard = now;
    }
  }
};

Browser::Browser(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Browser::~Browser() = default;

std::unique_ptr<Browser> Browser::Open(const BrowserConfig& config, std::string* error) {
  std::vector<UdpEndpoint> targets;
  for (const std::string& target : config.targets) {
    const std::optional<std::uint32_t> address = ParseIpv4(target);
    if (!address) {
      if (error != nullptr) *error = "not an IPv4 address: " + target;
      return nullptr;
    }
    targets.push_back({*address, config.port});
  }
  std::optional<UdpSocket> socket =
      UdpSocket::Open({"0.0.0.0", 0, /*shared=*/false, /*broadcast=*/true}, error);
  if (!socket) return nullptr;
  return std::unique_ptr<Browser>(new Browser(
      std::make_unique<Impl>(Impl{config, std::move(*socket), std::move(targets), {}, {}, {}, {}, 0})));
}

void Browser::Service(Micros now) {
  Impl& s = *impl_;
  if (!s.next_query || now >= *s.next_query) {
    s.SendQueries(now);
    s.next_query = now + s.config.query_interval;
  }
  s.Receive(now);
  std::erase_if(s.servers,
                [&](const FoundServer& server) { return now - server.last_heard > s.config.forget_after; });
  std::sort(s.servers.begin(), s.servers.end(), [](const FoundServer& a, const FoundServer& b) {
    return std::tie(a.reply.name, a.address, a.port) < std::tie(b.reply.name, b.address, b.port);
  });
}

const std::vector<FoundServer>& Browser::servers() const noexcept { return impl_->servers; }
const BrowserCounters& Browser::counters() const noexcept { return impl_->counters; }
std::uint16_t Browser::port() const noexcept { return impl_->socket.port(); }

}  // namespace netcube::discovery
