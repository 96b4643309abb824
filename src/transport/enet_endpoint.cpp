#include "enet_endpoint.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace netcube::transport {
namespace {

// No valid message is larger, so ENet refuses larger packets both ways (its default is 32 MB), and the
// datagram filter drops any fragment that claims a larger total before ENet allocates it.
constexpr std::size_t kMaxEnetPacketBytes = protocol::kMaxPacketBytes;
// What ENet may hold for one peer, waiting for reassembly or for a gap in the reliable sequence to fill
// (its default is 32 MB): far more than an honest peer ever has in flight.
constexpr std::size_t kMaxWaitingBytesPerPeer = 64 * protocol::kMaxPacketBytes;
// A reliable or fragmented message open at once per peer: each costs ENet its total length until done.
constexpr std::size_t kMaxOpenReassemblies = 8;
// Commands ENet may hold back for one peer at once: 176 bytes each whatever their data, and each makes
// ENet's sorted insert walk one step further, so the bound is also the longest walk one command costs.
// A listening host's peers are strangers. An honest one parks commands only while a lost reliable command
// is resent: the few reliable messages it sent meanwhile, or on the unreliable channel (where ENet sends
// a reliable command only when the unreliable sequence wraps, every 65,535 packets) a round trip's packets.
constexpr std::size_t kMaxParkedCommandsPerStranger = 256;
// An outgoing host's one peer is the server it chose, whose reliable messages can be many while a lost one
// is resent: every tag's result goes to every player (64 players tagging 4 times a second, on a 1 s round
// trip, park about 500).
constexpr std::size_t kMaxParkedCommandsFromServer = 4096;
// The kernel's receive buffer (ENet asks for 256 KiB): room for bursts and floods between two services.
// Linux caps it at net.core.rmem_max.
constexpr int kSocketReceiveBufferBytes = 4 * 1024 * 1024;
// ENet 1.3.17 gives up a whole service call on one datagram too large for its 4 KiB buffer, and
// enet_host_service returns -1 having read nothing else. The pump goes on reading past that many of them
// at most per Service, so a flood of them cannot starve everyone else, nor keep the pump for ever.
constexpr int kMaxReceiveErrorsPerService = 1024;
// ENet reads at most 256 datagrams in one enet_host_service call, and a call whose datagrams were all
// filtered reports nothing: the pump goes on while calls read their full 256, up to this many of them per
// Service, so a flood of datagrams the filter drops cannot queue ahead of honest ones in the socket.
constexpr int kEnetReadsPerCall = 256;
constexpr int kMaxFullReadsPerService = 16;

void ConfigureTimeouts(ENetPeer* peer, std::uint32_t timeout_ms) {
  // Declared dead once reliable traffic (at least ENet's pings) has gone unacknowledged for timeout_ms
  // after its retransmissions ran out, and at 2 x timeout_ms in any case. Pings at a quarter of the timeout
  // (50 to 500 ms) keep a silent connection carrying something to acknowledge. 0 keeps ENet's 5 to 30 s.
  constexpr std::uint32_t kMinPingIntervalMs = 50;
  const auto maximum = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(2ULL * timeout_ms, std::numeric_limits<std::uint32_t>::max()));
  enet_peer_timeout(peer, 0, timeout_ms, maximum);
  enet_peer_ping_interval(
      peer, std::clamp<std::uint32_t>(timeout_ms / 4, kMinPingIntervalMs, ENET_PEER_PING_INTERVAL));
}

void ConfigureConnectedPeer(ENetPeer* peer, std::uint32_t timeout_ms) {
  ConfigureTimeouts(peer, timeout_ms);
  // ENet's packet throttle silently drops unreliable packets whenever it sees the round-trip time rise.
  // Loss must come only from the network and our link conditioner (the game's redundancy is built for
  // those, and benchmarks must measure exactly the configured network), so the throttle is pinned open:
  // full acceleration back to the limit, no deceleration. Bandwidth limits are 0, so the limit stays at
  // ENET_PEER_PACKET_THROTTLE_SCALE. Set on this side only (enet_peer_throttle_configure would also send
  // the other side a reliable command, resent to an address that never proved itself): both sides
  // configure their own.
  peer->packetThrottleInterval = ENET_PEER_PACKET_THROTTLE_INTERVAL;
  peer->packetThrottleAcceleration = ENET_PEER_PACKET_THROTTLE_SCALE;
  peer->packetThrottleDeceleration = 0;
}

bool ResolveAddress(const std::string& name, std::uint16_t port, ENetAddress& address) {
  address.port = port;
  // The numeric form first: no resolver involved for "127.0.0.1".
  return enet_address_set_host_ip(&address, name.c_str()) == 0 ||
         enet_address_set_host(&address, name.c_str()) == 0;
}

}  // namespace

EnetEndpoint::~EnetEndpoint() {
  ReleaseReceived();
  if (host_ != nullptr) enet_host_destroy(host_);
}

std::unique_ptr<EnetEndpoint> EnetEndpoint::Create(const HostConfig& config, const ENetAddress& address,
                                                   std::size_t peer_count, std::size_t max_parked_commands,
                                                   std::string* error) {
  auto endpoint = std::make_unique<EnetEndpoint>(config);
  endpoint->filter_ = {protocol::kMaxPacketBytes, kMaxOpenReassemblies, max_parked_commands};
  if (!endpoint->library_.ready()) {
    *error = "enet_initialize failed";
    return nullptr;
  }
  ENetHost* host = enet_host_create(&address, peer_count, protocol::kChannelCount, 0, 0);
  if (host == nullptr) {
    *error = "cannot bind UDP " + config.bind_address + ":" + std::to_string(config.port) +
             " (address in use or not local?)";
    return nullptr;
  }
  endpoint->host_ = host;
  host->maximumPacketSize = kMaxEnetPacketBytes;
  host->maximumWaitingData = kMaxWaitingBytesPerPeer;
  host->intercept = Intercept;
  if (config.max_peers_per_address > 0) host->duplicatePeers = config.max_peers_per_address;
  endpoint->slots_.resize(host->peerCount);
  // Best effort: a smaller buffer only means floods drop more in the kernel.
  enet_socket_set_option(host->socket, ENET_SOCKOPT_RCVBUF, kSocketReceiveBufferBytes);
  return endpoint;
}

std::unique_ptr<EnetEndpoint> EnetEndpoint::Listen(const HostConfig& config, std::string* error) {
  if (config.max_peers == 0 || config.max_peers > ENET_PROTOCOL_MAXIMUM_PEER_ID) {
    *error = "max_peers must be within [1, " + std::to_string(ENET_PROTOCOL_MAXIMUM_PEER_ID) + "]";
    return nullptr;
  }
  // A local interface's address: numeric, so that a typo fails at once instead of in a DNS lookup.
  ENetAddress address{};
  address.port = config.port;
  if (enet_address_set_host_ip(&address, config.bind_address.c_str()) != 0) {
    *error = "invalid bind address '" + config.bind_address + "' (expected a numeric IPv4 address)";
    return nullptr;
  }
  return Create(config, address, config.max_peers, kMaxParkedCommandsPerStranger, error);
}

std::unique_ptr<EnetEndpoint> EnetEndpoint::Outgoing(const HostConfig& config, std::string* error) {
  // The source address: any port, on the interface asked for (a test's own loopback address, say).
  ENetAddress address{};
  if (enet_address_set_host_ip(&address, config.bind_address.c_str()) != 0) {
    *error = "invalid source address '" + config.bind_address + "' (expected a numeric IPv4 address)";
    return nullptr;
  }
  HostConfig source = config;
  source.port = 0;
  return Create(source, address, 1, kMaxParkedCommandsFromServer, error);
}

EnetEndpoint::PeerRecord* EnetEndpoint::FindConnection(PeerId id) {
  const auto it = peers_.find(id);
  return it == peers_.end() || it->second.enet == nullptr ? nullptr : &it->second;
}

void EnetEndpoint::Release(PeerId id, std::uint32_t disconnect_data, bool timed_out) {
  const auto it = peers_.find(id);
  if (it == peers_.end()) return;
  if (it->second.enet != nullptr) it->second.enet->data = nullptr;
  peers_.erase(it);
  released_.push_back(DisconnectedEvent(id, disconnect_data, timed_out));
}

void EnetEndpoint::ReleaseReceived() {
  for (ENetPacket* packet : received_) enet_packet_destroy(packet);
  received_.clear();
}

std::optional<PeerId> EnetEndpoint::Connect(const std::string& host, std::uint16_t port, std::string* error) {
  ENetAddress address{};
  if (!ResolveAddress(host, port, address)) {
    *error = "cannot resolve host '" + host + "'";
    return std::nullopt;
  }
  ENetPeer* peer = enet_host_connect(host_, &address, protocol::kChannelCount, 0);
  if (peer == nullptr) {
    *error = "no free connection slot on this host";
    return std::nullopt;
  }
  ConfigureTimeouts(peer, config_.timeout_ms);
  const PeerId id = next_peer_id_++;
  peer->data = ToUserData(id);
  peers_[id] = {peer, false, true, std::nullopt};  // our own connection: never made room from
  return id;
}

void EnetEndpoint::Send(PeerId peer, protocol::Channel channel, std::span<const std::uint8_t> payload) {
  PeerRecord* record = FindConnection(peer);
  if (record == nullptr) return;  // the peer has gone: discard
  const bool reliable = channel == protocol::Channel::kReliable;
  const enet_uint32 flags = reliable ? ENET_PACKET_FLAG_RELIABLE
                                     // A snapshot can exceed the MTU; without this flag ENet sends its
                                     // fragments reliably.
                                     : ENET_PACKET_FLAG_UNRELIABLE_FRAGMENT;
  ENetPacket* packet = send_buffers_.MakePacket(payload, flags);
  if (packet == nullptr) return;
  // Fails when the peer is not (or no longer) connected or the packet is over kMaxEnetPacketBytes.
  if (enet_peer_send(record->enet, static_cast<std::uint8_t>(channel), packet) != 0) {
    enet_packet_destroy(packet);
    return;
  }
  ++totals_.packets_sent;
  totals_.payload_bytes_sent += payload.size();
}

void EnetEndpoint::Disconnect(Micros /*now*/, PeerId peer, std::uint32_t data) {
  if (PeerRecord* record = FindConnection(peer)) BeginDisconnect(peer, *record, data);
}

void EnetEndpoint::DisconnectUnproven(Micros /*now*/, PeerId peer, std::uint32_t data) {
  if (PeerRecord* record = FindConnection(peer)) BeginUnprovenDisconnect(peer, *record, data);
}

void EnetEndpoint::BeginDisconnect(PeerId id, PeerRecord& record, std::uint32_t data) {
  record.closing = true;
  enet_peer_disconnect_later(record.enet, WireDisconnectValue(data));
  // A connection still being set up is reset on the spot, and ENet reports nothing: report it ourselves.
  if (record.enet->state == ENET_PEER_STATE_DISCONNECTED) Release(id, 0, false);
}

void EnetEndpoint::MarkProven(PeerId peer) {
  if (const auto it = peers_.find(peer); it != peers_.end()) it->second.proven = true;
}

void EnetEndpoint::Drop(PeerId peer) {
  const auto it = peers_.find(peer);
  if (it == peers_.end()) return;
  if (ENetPeer* enet = it->second.enet; enet != nullptr) {
    enet->data = nullptr;
    enet_peer_reset(enet);
  }
  peers_.erase(it);
}

void EnetEndpoint::Service(Micros now, std::vector<Event>& events) {
  ReleaseReceived();  // the application has read the last Service's payloads
  PumpEnet(now, events);
  SayGoodbyesOnce();
  WatchSlots(now);
  events.insert(events.end(), released_.begin(), released_.end());
  released_.clear();
  CollectWireTotals();
}

void EnetEndpoint::PumpEnet(Micros now, std::vector<Event>& events) {
  servicing_ = this;
  servicing_now_ = now;
  ++service_count_;
  ENetEvent event;
  for (int errors = 0, full_reads = 0;;) {
    datagrams_read_ = 0;
    const int result = enet_host_service(host_, &event, 0);
    // Each connection makes ENet tell every connected peer, within a second, this host's bandwidth limits
    // in a reliable command: none here (0 both ways, as the handshake already said), so it says nothing
    // new, and to a peer that never proved its address it would be resent until the peer timed out.
    host_->recalculateBandwidthLimits = 0;
    if (result > 0) {
      OnEnetEvent(event, events);
    } else if (result < 0 && errors < kMaxReceiveErrorsPerService) {
      ++errors;
      ++totals_.receive_errors;
    } else if (result == 0 && datagrams_read_ >= kEnetReadsPerCall && full_reads < kMaxFullReadsPerService) {
      ++full_reads;  // ENet stopped at its limit, not at an empty socket
    } else {
      break;
    }
  }
  servicing_ = nullptr;
}

void EnetEndpoint::OnEnetEvent(const ENetEvent& event, std::vector<Event>& events) {
  switch (event.type) {
    case ENET_EVENT_TYPE_CONNECT: {
      // Our own Connect already named the peer; a connection from outside gets a fresh id.
      PeerId id = FromUserData(event.peer);
      if (id == 0) {
        id = next_peer_id_++;
        event.peer->data = ToUserData(id);
        peers_[id].enet = event.peer;
      }
      ConfigureConnectedPeer(event.peer, config_.timeout_ms);
      events.push_back(ConnectedEvent(id));
      return;
    }
    case ENET_EVENT_TYPE_RECEIVE: {
      const PeerId id = FromUserData(event.peer);
      if (id == 0) {
        enet_packet_destroy(event.packet);
        return;
      }
      ++totals_.packets_received;
      totals_.payload_bytes_received += event.packet->dataLength;
      // Read in place; the packet is destroyed at the next Service.
      received_.push_back(event.packet);
      events.push_back(ReceivedEvent(id, static_cast<protocol::Channel>(event.channelID),
                                     std::span(event.packet->data, event.packet->dataLength)));
      return;
    }
    case ENET_EVENT_TYPE_DISCONNECT: {
      const PeerId id = FromUserData(event.peer);
      const auto it = peers_.find(id);
      if (id == 0 || it == peers_.end()) return;
      // Our own code always says goodbye with a non-zero value (see BeginDisconnect); ENet reports a
      // timeout with 0. The end of a disconnect we started is not a timeout either.
      const bool timed_out = event.data == 0 && !it->second.closing;
      it->second.enet->data = nullptr;
      peers_.erase(it);
      events.push_back(DisconnectedEvent(id, event.data == 0 ? 0 : event.data - 1, timed_out));
      return;
    }
    case ENET_EVENT_TYPE_NONE:
      return;
  }
}

// ENet's totals are 32-bit and meant to be reset by the user: move them into our 64-bit ones.
void EnetEndpoint::CollectWireTotals() {
  totals_.wire_bytes_sent += std::exchange(host_->totalSentData, 0);
  totals_.wire_bytes_received += std::exchange(host_->totalReceivedData, 0);
  totals_.wire_packets_sent += std::exchange(host_->totalSentPackets, 0);
  totals_.wire_packets_received += std::exchange(host_->totalReceivedPackets, 0);
}

void EnetEndpoint::Flush() {
  enet_host_flush(host_);
  CollectWireTotals();
}

std::uint16_t EnetEndpoint::port() const {
  ENetAddress address{};
  if (enet_socket_get_address(host_->socket, &address) != 0) return 0;
  return address.port;
}

TransportCounters EnetEndpoint::counters() const {
  TransportCounters counters = totals_;
  // Plus what ENet has counted since the last Service.
  counters.wire_bytes_sent += host_->totalSentData;
  counters.wire_bytes_received += host_->totalReceivedData;
  counters.wire_packets_sent += host_->totalSentPackets;
  counters.wire_packets_received += host_->totalReceivedPackets;
  return counters;
}

std::optional<std::uint32_t> EnetEndpoint::RttMs(PeerId peer) const {
  const auto it = peers_.find(peer);
  if (it == peers_.end() || it->second.enet == nullptr) return std::nullopt;
  return it->second.enet->roundTripTime;
}

}  // namespace netcube::transport
