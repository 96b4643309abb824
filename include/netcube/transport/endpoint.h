#pragma once
// One end of a network, before any conditioning: peers as small handles, bytes on the protocol's two
// channels, connection events, driven by Service(now). A Network makes endpoints (over ENet and UDP, or in
// memory) and a Host puts its link conditioner in front of one, so everything above (Server, Client) is
// handed its network instead of building it. An endpoint knows no message and reads no clock.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "netcube/protocol/channel.h"
#include "netcube/sim/time.h"
#include "netcube/transport/link_conditioner.h"

namespace netcube::transport {

using PeerId = std::uint32_t;  // a connection's handle within one Host; never reused while the host lives

struct HostConfig {
  std::string bind_address = "0.0.0.0";  // numeric IPv4 (in memory: any name); a client host's source address
  std::uint16_t port = 0;                // servers; 0 = an ephemeral port (read it back with port())
  std::size_t max_peers = 32;
  LinkSettings link;                // applied to both directions
  std::uint64_t seed = 1;           // the conditioner's random generator
  std::uint32_t timeout_ms = 5000;  // a silent peer is disconnected (timed out) after 1-2x this
  // A connection from outside whose ENet handshake is still unacknowledged after this is reset, so
  // connection attempts that are never completed (a spoofed source, say) hold a slot this long at most.
  // 0 leaves it to ENet (5 to 30 s).
  std::uint32_t handshake_timeout_ms = 0;
  // ENet connections from one IP address at once, handshakes included; ENet refuses more before it
  // spends a slot on them. 0 = no limit.
  std::size_t max_peers_per_address = 0;
  // When a connection request from outside finds every peer slot taken, an unproven connection (one the
  // application has not called MarkProven for) makes room: the oldest of the address holding the most of
  // them is reset, so that connections which never prove anything cannot keep anyone out, however many
  // addresses they come from. A connected peer reset this way ends in kDisconnected (timed out).
  bool make_room_for_connections = false;
  // Each conditioner's decisions, packet by packet (LinkConditioner::SetLog), when set.
  LinkLog outgoing_log;
  LinkLog incoming_log;
};

enum class EventType : std::uint8_t { kConnected, kDisconnected, kReceived };

struct Event {
  EventType type = EventType::kReceived;
  PeerId peer = 0;
  protocol::Channel channel = protocol::Channel::kReliable;
  std::span<const std::uint8_t> data;  // kReceived: the payload, valid until the next Service
  std::uint32_t disconnect_data = 0;   // kDisconnected: the value the other side gave (0 if none)
  bool timed_out = false;              // kDisconnected: no goodbye, the peer went silent (or never answered)
};

inline Event ConnectedEvent(PeerId peer) {
  Event event;
  event.type = EventType::kConnected;
  event.peer = peer;
  return event;
}
inline Event ReceivedEvent(PeerId peer, protocol::Channel channel, std::span<const std::uint8_t> data) {
  Event event;
  event.peer = peer;
  event.channel = channel;
  event.data = data;
  return event;
}
inline Event DisconnectedEvent(PeerId peer, std::uint32_t disconnect_data, bool timed_out) {
  Event event;
  event.type = EventType::kDisconnected;
  event.peer = peer;
  event.disconnect_data = disconnect_data;
  event.timed_out = timed_out;
  return event;
}

struct TransportCounters {
  // Application payloads at the endpoint: after the outgoing conditioner, before the incoming one.
  std::uint64_t payload_bytes_sent = 0;  // application bytes handed to the endpoint
  std::uint64_t payload_bytes_received = 0;
  std::uint64_t packets_sent = 0;
  std::uint64_t packets_received = 0;
  // The endpoint's own totals: over ENet its UDP payloads (headers, acks, pings, fragments); in memory
  // every datagram of the hub (connection control included), payload bytes only: it has no headers.
  std::uint64_t wire_bytes_sent = 0;
  std::uint64_t wire_bytes_received = 0;
  std::uint64_t wire_packets_sent = 0;
  std::uint64_t wire_packets_received = 0;
  // Defences against hostile datagrams, below ENet (always 0 in memory: a hub holds no stranger).
  std::uint64_t datagrams_filtered = 0;  // dropped by the datagram filter before ENet saw them
  std::uint64_t receive_errors = 0;      // datagrams ENet failed to read (larger than its 4 KiB buffer)
  std::uint64_t handshakes_reset = 0;    // connections from outside reset after handshake_timeout_ms
  std::uint64_t unproven_evicted = 0;  // unproven connections reset to make room (make_room_for_connections)
  // The conditioners' own counts; connection events and disconnect requests pass through them too.
  LinkConditionerCounters outgoing;
  LinkConditionerCounters incoming;
};

// What Host asks of a network's end; Host's methods of the same names say what each one means. Here
// nothing is conditioned, and events come out in the order they happen.
class Endpoint {
 public:
  virtual ~Endpoint() = default;
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  virtual std::optional<PeerId> Connect(const std::string& host, std::uint16_t port, std::string* error) = 0;
  // Discarded when the peer is not (or no longer) connected.
  virtual void Send(PeerId peer, protocol::Channel channel, std::span<const std::uint8_t> payload) = 0;
  virtual void Disconnect(Micros now, PeerId peer, std::uint32_t data) = 0;
  virtual void DisconnectUnproven(Micros now, PeerId peer, std::uint32_t data) = 0;
  virtual void MarkProven(PeerId peer) = 0;
  // No event follows, and the peer's id is forgotten at once.
  virtual void Drop(PeerId peer) = 0;
  // Appends what happened since the last Service. A peer's id is forgotten with its kDisconnected.
  virtual void Service(Micros now, std::vector<Event>& events) = 0;
  virtual void Flush() = 0;
  virtual std::uint16_t port() const = 0;
  // Without the conditioners' counts, which the Host adds.
  virtual TransportCounters counters() const = 0;
  // The endpoint's own smoothed round trip to the peer, milliseconds, when it measures one.
  virtual std::optional<std::uint32_t> RttMs(PeerId peer) const = 0;

 protected:
  Endpoint() = default;
};

}  // namespace netcube::transport
