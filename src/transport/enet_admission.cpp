// A listening ENet endpoint's defences against strangers: every datagram through the filter before ENet
// acts on it, handshakes never completed reset, unproven connections making room for new ones, and what is
// said to an unproven peer as it is disconnected said once (docs/SECURITY.md).
#include <algorithm>
#include <cstddef>
#include <cstring>

#include "enet_endpoint.h"

namespace netcube::transport {
namespace {

// How long what is sent to an unproven peer as it is disconnected waits for its acknowledgement (it is
// never resent): a round trip across the world, and a slow client's service interval, with room to spare.
constexpr enet_uint32 kUnprovenAckWaitMs = 1000;

// A datagram that asks ENet for a new connection: addressed to no peer, and its first command CONNECT
// (ENet reads the CONNECT only from such a datagram). Its connect id, or nothing if it is not one.
std::optional<enet_uint32> ConnectionRequestId(std::span<const std::uint8_t> datagram) {
  if (datagram.size() < 2) return std::nullopt;
  const auto peer_field = static_cast<std::uint16_t>(datagram[0] << 8 | datagram[1]);
  // ENet drops a compressed datagram here: this host has no compressor.
  if ((peer_field & ENET_PROTOCOL_HEADER_FLAG_COMPRESSED) != 0 ||
      (peer_field & ENET_PROTOCOL_MAXIMUM_PEER_ID) != ENET_PROTOCOL_MAXIMUM_PEER_ID) {
    return std::nullopt;
  }
  const std::size_t header = (peer_field & ENET_PROTOCOL_HEADER_FLAG_SENT_TIME) != 0
                                 ? sizeof(ENetProtocolHeader)
                                 : offsetof(ENetProtocolHeader, sentTime);
  if (datagram.size() < header + sizeof(ENetProtocolConnect) ||
      (datagram[header] & ENET_PROTOCOL_COMMAND_MASK) != ENET_PROTOCOL_COMMAND_CONNECT) {
    return std::nullopt;
  }
  enet_uint32 connect_id = 0;
  std::memcpy(&connect_id, datagram.data() + header + offsetof(ENetProtocolConnect, connectID),
              sizeof connect_id);
  return connect_id;  // as ENet compares it: in network order
}

// ENet resends its answer to a connection request (VERIFY_CONNECT, 48 bytes) after half a second, before
// the handshake is reset: to an address that never proved itself, twice what it sent. The answer is held
// past the handshake's life instead (twice it: room for a virtual clock behind the real one), so each
// request is answered once; an honest client whose answer was lost asks again after the reset.
void HoldHandshakeAnswer(ENetPeer& peer, enet_uint32 hold_ms) {
  if (enet_list_empty(&peer.sentReliableCommands)) return;
  for (ENetListIterator it = enet_list_begin(&peer.sentReliableCommands);
       it != enet_list_end(&peer.sentReliableCommands); it = enet_list_next(it)) {
    auto& command = *reinterpret_cast<ENetOutgoingCommand*>(it);
    command.roundTripTimeout = std::max(command.roundTripTimeout, hold_ms);
    command.roundTripTimeoutLimit = std::max(command.roundTripTimeoutLimit, command.roundTripTimeout);
  }
  const auto& first =
      *reinterpret_cast<const ENetOutgoingCommand*>(enet_list_front(&peer.sentReliableCommands));
  peer.nextTimeout = first.sentTime + first.roundTripTimeout;
}

}  // namespace

int EnetEndpoint::Intercept(ENetHost* enet, ENetEvent* /*event*/) {
  EnetEndpoint* endpoint = servicing_;
  if (endpoint == nullptr) return 0;
  ++endpoint->datagrams_read_;
  const std::span<const std::uint8_t> datagram(enet->receivedData, enet->receivedDataLength);
  if (!AcceptDatagram(*enet, datagram, endpoint->filter_)) {
    ++endpoint->totals_.datagrams_filtered;
    return 1;
  }
  if (endpoint->config_.make_room_for_connections) {
    if (const std::optional<enet_uint32> connect_id = ConnectionRequestId(datagram);
        connect_id && !endpoint->MakeRoomFor(enet->receivedAddress, *connect_id)) {
      ++endpoint->totals_.datagrams_filtered;
      return 1;
    }
  }
  return 0;
}

// Unproven: a connection from outside still in its handshake (not yet reported to the application), or
// one the application has not proven.
bool EnetEndpoint::Unproven(const ENetPeer& peer) const {
  if (peer.state == ENET_PEER_STATE_DISCONNECTED) return false;
  const PeerId id = FromUserData(&peer);
  if (id == 0) return true;
  const auto it = peers_.find(id);
  return it != peers_.end() && !it->second.proven;
}

// A connection request is about to reach ENet (false: it is dropped here, before ENet scans its peers
// for it). An address asking as only a flood or a join-and-leave loop does is dropped whether or not there
// is room (ConnectMeter). Otherwise, if the request will find every slot taken, and ENet would take it (the
// address is under its limit; not a resend of a handshake under way), an unproven connection makes room
// (RoomPlan::TakeVictim: of the address holding the most, then asking again, a handshake never answered
// before one answered); an address asking again may evict only within the budget of evictions. The
// candidates come from the room plan, made again only when a slot holds what it does not expect.
bool EnetEndpoint::MakeRoomFor(const ENetAddress& from, enet_uint32 connect_id) {
  const double score = connect_meter_.Count(from.host, servicing_now_);
  // An honest address asks once a join (ENet resends a request unanswered), for at most duplicatePeers
  // joins at once: past twice that, whether or not there is room, it floods or churns.
  if (score > 2.0 * static_cast<double>(host_->duplicatePeers)) return false;
  std::size_t from_address = 0;
  bool plan_holds = room_plan_.MadeIn(service_count_);
  for (std::size_t i = 0; i < host_->peerCount; ++i) {
    const ENetPeer& peer = host_->peers[i];
    if (peer.state == ENET_PEER_STATE_DISCONNECTED) return true;  // a free slot: nothing to do
    plan_holds = plan_holds && room_plan_.Holds(i, peer);
    if (peer.state == ENET_PEER_STATE_CONNECTING || peer.address.host != from.host) continue;
    if (peer.address.port == from.port && peer.connectID == connect_id) return true;
    ++from_address;
  }
  if (from_address >= host_->duplicatePeers) return true;
  if (score >= 2.0 && !connect_meter_.TakeEviction(servicing_now_)) return false;
  if (!plan_holds) MakeRoomPlan();
  if (const std::optional<std::size_t> victim =
          room_plan_.TakeVictim(from.host, connect_id, servicing_now_, score)) {
    Evict(host_->peers[*victim]);
  }
  return true;
}

void EnetEndpoint::MakeRoomPlan() {
  room_plan_.Begin(host_->peerCount, service_count_);
  for (std::size_t i = 0; i < host_->peerCount; ++i) {
    const ENetPeer& peer = host_->peers[i];
    room_plan_.Occupied(i, peer.connectID);
    if (!Unproven(peer)) continue;
    // A connection taken during this Service is not watched yet: the newest.
    const Micros since =
        slots_[i] && slots_[i]->connect_id == peer.connectID ? slots_[i]->since : servicing_now_;
    room_plan_.AddUnproven(peer.address.host, i, since, peer.state != ENET_PEER_STATE_ACKNOWLEDGING_CONNECT,
                           connect_meter_.Score(peer.address.host, servicing_now_));
  }
}

void EnetEndpoint::Evict(ENetPeer& peer) {
  if (const auto it = peers_.find(FromUserData(&peer)); it != peers_.end() && it->second.enet == &peer) {
    Release(it->first, 0, true);
  }
  enet_peer_reset(&peer);
  slots_[static_cast<std::size_t>(&peer - host_->peers)].reset();
  ++totals_.unproven_evicted;
}

// Notes when each slot's connection began. ENet answers a connection request at once and then waits for
// the acknowledgement of its answer as long as it would for any reliable command; a request that is never
// completed is reset here instead, after handshake_timeout_ms.
void EnetEndpoint::WatchSlots(Micros now) {
  const Micros limit = std::chrono::milliseconds(config_.handshake_timeout_ms);
  for (std::size_t i = 0; i < host_->peerCount; ++i) {
    ENetPeer& peer = host_->peers[i];
    std::optional<SlotOccupant>& slot = slots_[i];
    if (peer.state == ENET_PEER_STATE_DISCONNECTED) {
      slot.reset();
      continue;
    }
    if (!slot || slot->connect_id != peer.connectID) {
      slot = SlotOccupant{peer.connectID, now};
      if (config_.handshake_timeout_ms != 0 && peer.state == ENET_PEER_STATE_ACKNOWLEDGING_CONNECT) {
        HoldHandshakeAnswer(peer, 2 * config_.handshake_timeout_ms);
      }
    }
    // Our own outgoing connections (named in `data`) wait in another state.
    if (config_.handshake_timeout_ms != 0 && peer.state == ENET_PEER_STATE_ACKNOWLEDGING_CONNECT &&
        now - slot->since > limit) {
      enet_peer_reset(&peer);
      slot.reset();
      ++totals_.handshakes_reset;
    }
  }
}

// ENet resends an unacknowledged reliable command after its round-trip timeout (rtt + 4 x variance) until
// its own timeout: to a silent address, many times what that address sent. Here what is queued for the
// peer is sent once: its round-trip timeout is at least kUnprovenAckWaitMs, and the first command to
// reach its timeout ends the connection (a timeout limit of 1: no resend). A goodbye follows only an
// acknowledgement, and only once (SayGoodbyesOnce).
void EnetEndpoint::BeginUnprovenDisconnect(PeerId id, PeerRecord& record, std::uint32_t data) {
  ENetPeer* peer = record.enet;
  if (peer->state != ENET_PEER_STATE_CONNECTED) return BeginDisconnect(id, record, data);
  record.closing = true;
  record.goodbye_once = WireDisconnectValue(data);
  peer->roundTripTime = std::max(peer->roundTripTime, kUnprovenAckWaitMs);
  enet_peer_timeout(peer, 1, 1, 1);
  goodbyes_once_.push_back(id);
}

void EnetEndpoint::SayGoodbyesOnce() {
  std::erase_if(goodbyes_once_, [&](PeerId id) {
    PeerRecord* record = FindConnection(id);
    if (record == nullptr) return true;  // ENet gave up waiting (a timeout, reported as ours), or dropped
    ENetPeer* peer = record->enet;
    if (!enet_list_empty(&peer->outgoingCommands) || !enet_list_empty(&peer->sentReliableCommands))
      return false;
    // Unsequenced, never resent, and the peer is reset at once: ENet reports nothing, so we do.
    enet_peer_disconnect_now(peer, *record->goodbye_once);
    Release(id, 0, false);
    return true;
  });
}

}  // namespace netcube::transport
