#pragma once
// A thin, testable layer over one ENet host: peers as small handles, the protocol's two channels, a link
// conditioner in each direction, and byte and packet counters. Everything is driven by Service(now). It
// carries bytes and knows no message, as ENet knows no format. In steady state it allocates nothing: a
// conditioner that impairs nothing is skipped, payloads travel in recycled buffers that ENet sends from
// directly, and a received payload is read where ENet put it.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "netcube/protocol/channel.h"
#include "netcube/transport/link_conditioner.h"
#include "netcube/sim/time.h"

namespace netcube::transport {

using PeerId = std::uint32_t;  // a connection's handle within one Host; never reused while the host lives

struct HostConfig {
  std::string bind_address = "0.0.0.0";  // numeric IPv4; a client host's source address
  std::uint16_t port = 0;                // servers; 0 = an ephemeral port (read it back with port())
  std::size_t max_peers = 32;
  LinkSettings link;                     // applied to both directions
  std::uint64_t seed = 1;                // the conditioner's random generator
  std::uint32_t timeout_ms = 5000;       // a silent peer is disconnected (timed out) after 1-2x this
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
  std::uint32_t disconnect_data = 0;  // kDisconnected: the value the other side gave (0 if none)
  bool timed_out = false;             // kDisconnected: no goodbye, the peer went silent (or never answered)
};

struct TransportCounters {
  // Application payloads at the ENet boundary: after the outgoing conditioner, before the incoming one.
  std::uint64_t payload_bytes_sent = 0;  // application bytes handed to ENet
  std::uint64_t payload_bytes_received = 0;
  std::uint64_t packets_sent = 0;
  std::uint64_t packets_received = 0;
  std::uint64_t wire_bytes_sent = 0;  // ENet's own totals: headers, acks, pings, fragments
  std::uint64_t wire_bytes_received = 0;
  std::uint64_t wire_packets_sent = 0;
  std::uint64_t wire_packets_received = 0;
  // Defences against hostile datagrams, below ENet.
  std::uint64_t datagrams_filtered = 0;  // dropped by the datagram filter before ENet saw them
  std::uint64_t receive_errors = 0;      // datagrams ENet failed to read (larger than its 4 KiB buffer)
  std::uint64_t handshakes_reset = 0;    // connections from outside reset after handshake_timeout_ms
  std::uint64_t unproven_evicted = 0;  // unproven connections reset to make room (make_room_for_connections)
  // The conditioners' own counts; connection events and disconnect requests pass through them too.
  LinkConditionerCounters outgoing;
  LinkConditionerCounters incoming;
};

class Host {
 public:
  // A server host bound to bind_address:port. nullptr and `error` set on failure.
  static std::unique_ptr<Host> Listen(const HostConfig& config, std::string* error);
  // A client host with room for one outgoing connection.
  static std::unique_ptr<Host> Outgoing(const HostConfig& config, std::string* error);
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // Starts connecting; a kConnected (or kDisconnected) event follows from Service.
  std::optional<PeerId> Connect(const std::string& host, std::uint16_t port, std::string* error);

  // Queues one message payload for `peer` on `channel` (reliable on kReliable; unreliable, sequenced
  // and fragmentable on kUnreliable). It goes through the outgoing conditioner first. Payloads for a peer
  // that has gone (or is not connected yet) are discarded. Payloads over protocol::kMaxPacketBytes are
  // refused by ENet at both ends.
  void Send(Micros now, PeerId peer, protocol::Channel channel, std::span<const std::uint8_t> payload);

  // Polite disconnect after everything already queued for the peer has been sent (it follows the reliable
  // traffic through the outgoing conditioner). The other side gets kDisconnected with `data` and
  // timed_out=false; `data` may be anything but 0xFFFFFFFF (sent as 0xFFFFFFFE: the wire carries data + 1
  // so that 0 can only mean a timeout). Here a kDisconnected (disconnect_data 0, timed_out=false) follows
  // once the goodbye is done.
  void Disconnect(Micros now, PeerId peer, std::uint32_t data);
  // Disconnect, for a peer whose address never proved itself (it may be forged: whatever goes there lands
  // on someone else): everything queued for it is sent once and never resent. If the peer acknowledges it
  // within a second, the goodbye (`data`, as in Disconnect) is sent once; if not, the connection is
  // forgotten in silence. Either way a kDisconnected (timed_out=false) follows here.
  void DisconnectUnproven(Micros now, PeerId peer, std::uint32_t data);
  // The application has proof that the peer receives what is sent to its address (it echoed a secret sent
  // there): the peer is never reset to make room for another (HostConfig::make_room_for_connections).
  void MarkProven(PeerId peer);
  // Forget the peer at once, telling it nothing (for tests of vanishing clients): the other side times
  // out. No event follows here, and nothing more is delivered from this peer.
  void Drop(PeerId peer);

  // Sends what the outgoing conditioner has due, services ENet without blocking, and appends to `events`
  // everything the incoming conditioner has due. Connection events pass the incoming conditioner as
  // reliable traffic: in order with the peer's reliable data. An unreliable packet that jitter carries
  // ahead of its peer's kConnected is discarded, as is anything from a peer after its kDisconnected.
  void Service(Micros now, std::vector<Event>& events);
  // Pushes queued ENet traffic out now (before a shutdown). Destroying a Host says no goodbyes: call
  // Disconnect and Service until the kDisconnected events first to be polite.
  void Flush();

  void SetLink(const LinkSettings& settings);
  const LinkSettings& link() const;
  std::uint16_t port() const;
  TransportCounters counters() const;
  // ENet's own smoothed round-trip time to the peer (below the conditioner), milliseconds.
  std::optional<std::uint32_t> EnetRttMs(PeerId peer) const;

 private:
  struct Impl;
  explicit Host(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace netcube::transport
