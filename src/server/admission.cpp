#include "admission.h"

#include <chrono>

namespace netcube::server {

Admission::Admission(const ServerConfig& config, transport::Host& host)
    : config_(config), host_(host), nonces_by_seed_(config.seed) {}

void Admission::OnConnected(Micros now, transport::PeerId peer, bool shutting_down) {
  Connection& connection = connections_[peer];
  connection.connected_at = now;
  if (shutting_down) {
    host_.Disconnect(now, peer, 0);
    connection.state = PeerState::kClosing;
  }
}

namespace {

Seat SeatOf(transport::PeerId peer, const Connection& connection) {
  return {peer, connection.spectate ? std::nullopt : std::optional<sim::PlayerId>(connection.player)};
}

}  // namespace

std::optional<Seat> Admission::OnDisconnected(transport::PeerId peer) {
  const auto it = connections_.find(peer);
  if (it == connections_.end()) return std::nullopt;
  const Connection connection = it->second;
  connections_.erase(it);
  if (connection.state != PeerState::kAccepted) return std::nullopt;
  return SeatOf(peer, connection);
}

Connection* Admission::Receive(Micros now, transport::PeerId peer, const Leave& leave) {
  const auto it = connections_.find(peer);
  if (it == connections_.end()) return nullptr;
  Connection& connection = it->second;
  if (connection.state == PeerState::kClosing)
    return nullptr;  // the goodbye is under way; nothing it says matters
  if (!connection.packets.Take(now)) {
    Kick(now, peer, connection, protocol::DisconnectReason::kFlooding, leave);
    return nullptr;
  }
  return &connection;
}

void Admission::OnMalformed(Micros now, transport::PeerId peer, Connection& connection,
                            protocol::Channel channel, bool decodable, Outbox& outbox, const Leave& leave) {
  ++counters_.packets_malformed;
  // A pending peer's first reliable message has to be its ConnectRequest, a challenged one's the nonce.
  const bool admitting =
      connection.state == PeerState::kPending || connection.state == PeerState::kChallenged;
  if (admitting && channel == protocol::Channel::kReliable) {
    if (decodable) {
      Refuse(now, peer, connection, protocol::RefuseReason::kMalformedRequest, outbox);
    } else {
      // Not a netcube message at all (a request of any version is readable as far as its version): the
      // sender is not a client to be told why, and its address is unproven. Reset in silence.
      host_.Drop(peer);
      connections_.erase(peer);
      ++counters_.peers_reset;
    }
    return;
  }
  Offend(now, peer, connection, protocol::DisconnectReason::kMalformed, leave);
}

bool Admission::TakeTimeEcho(Micros now, transport::PeerId peer, Connection& connection, const Leave& leave) {
  if (connection.time_echoes.Take(now)) return true;
  ++counters_.time_echoes_throttled;
  Offend(now, peer, connection, protocol::DisconnectReason::kFlooding, leave);
  return false;
}

void Admission::Offend(Micros now, transport::PeerId peer, Connection& connection,
                       protocol::DisconnectReason reason, const Leave& leave) {
  if (!connection.offences.Take(now)) Kick(now, peer, connection, reason, leave);
}

// Ends a connection at once, with the reason as the disconnect's value; a player leaves the game first.
void Admission::Kick(Micros now, transport::PeerId peer, Connection& connection,
                     protocol::DisconnectReason reason, const Leave& leave) {
  const bool silent = reason == protocol::DisconnectReason::kSilent;
  if (connection.state == PeerState::kAccepted) {
    leave(SeatOf(peer, connection),
          silent ? protocol::LeaveReason::kTimedOut : protocol::LeaveReason::kDisconnected);
  }
  Close(now, peer, connection, static_cast<std::uint32_t>(reason));
  ++(silent ? counters_.peers_reset : counters_.peers_kicked);
}

// The goodbye, after whatever is queued for the peer. To an unproven address (it may be forged) that is
// said once and never resent: a client that hears it is told why, one that does not times out, and the
// address gets no more than it sent.
void Admission::Close(Micros now, transport::PeerId peer, Connection& connection, std::uint32_t data) {
  if (connection.proven) {
    host_.Disconnect(now, peer, data);
  } else {
    host_.DisconnectUnproven(now, peer, data);
  }
  connection.state = PeerState::kClosing;
}

void Admission::OnConnectRequest(Micros now, transport::PeerId peer, Connection& connection,
                                 const protocol::ConnectRequest& request, Outbox& outbox) {
  // The version is checked first, so that any other version is told why even when the server is full.
  if (request.version != protocol::kProtocolVersion) {
    Refuse(now, peer, connection, protocol::RefuseReason::kVersionMismatch, outbox);
  } else if (request.name.empty()) {
    Refuse(now, peer, connection, protocol::RefuseReason::kMalformedRequest, outbox);
  } else {
    // Nothing more until the address is proved: no slot, no announcement, no snapshot.
    connection.state = PeerState::kChallenged;
    connection.connected_at = now;
    connection.nonce = config_.nonce_source ? config_.nonce_source() : nonces_by_seed_();
    connection.name = request.name;
    connection.spectate = request.spectate;
    outbox.Send(now, peer, nullptr, protocol::Challenge{connection.nonce});
    ++counters_.challenges_sent;
  }
}

bool Admission::OnChallengeResponse(Micros now, transport::PeerId peer, Connection& connection, bool full,
                                    Outbox& outbox) {
  ++counters_.challenges_confirmed;
  connection.proven = true;
  host_.MarkProven(peer);
  if (full) {
    Refuse(
        now, peer, connection,
        connection.spectate ? protocol::RefuseReason::kNoSpectatorSeat : protocol::RefuseReason::kServerFull,
        outbox);
  }
  return !full;
}

void Admission::Seated(Micros now, Connection& connection, std::optional<sim::PlayerId> player) noexcept {
  connection.state = PeerState::kAccepted;
  connection.player = player.value_or(0);
  connection.last_heard = now;
}

void Admission::Refuse(Micros now, transport::PeerId peer, Connection& connection,
                       protocol::RefuseReason reason, Outbox& outbox) {
  outbox.Send(now, peer, nullptr, protocol::ConnectRefused{reason, protocol::kProtocolVersion});
  Close(now, peer, connection, 0);  // after the refusal, which is already queued
  ++counters_.clients_refused;
}

// The application's own timeouts: ENet keeps a connection alive as long as its acknowledgements come,
// and those can be forged without a single netcube message.
void Admission::ResetSilentPeers(Micros now, const Leave& leave) {
  const Micros peer_timeout = std::chrono::milliseconds(config_.peer_timeout_ms);
  for (auto it = connections_.begin(); it != connections_.end();) {
    auto& [peer, connection] = *it;
    if (connection.state == PeerState::kChallenged && now - connection.connected_at > kPendingTimeout) {
      // Not a word more to an address that never proved itself: its ENet peer is reset in silence.
      host_.Drop(peer);
      ++counters_.peers_reset;
      it = connections_.erase(it);
      continue;
    }
    if ((connection.state == PeerState::kPending && now - connection.connected_at > kPendingTimeout) ||
        (connection.state == PeerState::kAccepted && now - connection.last_heard > peer_timeout)) {
      Kick(now, peer, connection, protocol::DisconnectReason::kSilent, leave);
    }
    ++it;
  }
}

void Admission::CloseAll(Micros now) {
  for (auto& [peer, connection] : connections_) {
    if (connection.state == PeerState::kClosing) continue;
    host_.Disconnect(now, peer, 0);
    connection.state = PeerState::kClosing;
  }
}

}  // namespace netcube::server
