#pragma once
// What Server and Client talk through: one network Endpoint (ENet over UDP, or in memory: see network.h)
// behind a link conditioner in each direction, peers as small handles, the protocol's two channels, and
// byte and packet counters. Everything is driven by Service(now). It carries bytes and knows no message, as
// ENet knows no format. In steady state it allocates nothing: a conditioner that impairs nothing is
// skipped, and a received payload is read where the endpoint put it.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "netcube/protocol/channel.h"
#include "netcube/sim/time.h"
#include "netcube/transport/endpoint.h"
#include "netcube/transport/link_conditioner.h"

namespace netcube::transport {

class Host {
 public:
  // Over real UDP through ENet (UdpNetwork()): a server host bound to bind_address:port. nullptr and
  // `error` set on failure.
  static std::unique_ptr<Host> Listen(const HostConfig& config, std::string* error);
  // Over real UDP through ENet: a client host with room for one outgoing connection.
  static std::unique_ptr<Host> Outgoing(const HostConfig& config, std::string* error);
  // `endpoint` behind conditioners with config's link, seed and logs (Network::Listen and Outgoing).
  Host(std::unique_ptr<Endpoint> endpoint, const HostConfig& config);
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
  // The endpoint's own smoothed round-trip time to the peer (below the conditioner), milliseconds: ENet's;
  // none in memory.
  std::optional<std::uint32_t> EnetRttMs(PeerId peer) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace netcube::transport
