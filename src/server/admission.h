#pragma once
// The server's room for connections and admission: every ENet peer from its connection until its goodbye,
// the challenge that proves an address before it costs anything, refusals, the per-peer budgets and the
// kicks that enforce them, and the application's own timeouts. What it says to a peer goes through the
// Outbox handed in; a player or spectator whose connection ends is handed back through `Leave`, for the
// game to remove.
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>

#include "netcube/server/server_config.h"
#include "netcube/server/server_stats.h"
#include "outbox.h"
#include "rate_budget.h"
#include "tuning.h"

namespace netcube::server {

enum class PeerState : std::uint8_t {
  kPending,     // connected, ConnectRequest not seen yet
  kChallenged,  // sent a Challenge; waiting for its nonce to come back (the address is not proved yet)
  kAccepted,    // a player or a spectator
  kClosing,     // refused or shut down: waiting for ENet to finish the goodbye
};

struct Connection {
  PeerState state = PeerState::kPending;
  Micros connected_at{0};    // kChallenged: when the Challenge was sent
  Micros last_heard{0};      // kAccepted: the last valid message (silence for the peer timeout ends it)
  std::uint64_t nonce = 0;   // kChallenged only
  std::string name;          // kChallenged only: the name asked for
  bool spectate = false;     // kChallenged and kAccepted: it asked to watch, without a cube
  sim::PlayerId player = 0;  // kAccepted, not spectating: its player
  // Its nonce came back: the address receives what the server sends it. Until then whatever the server
  // says to it is said once (transport::Host::DisconnectUnproven).
  bool proven = false;
  RateBudget packets{kMaxPacketsPerSecond, kMaxPacketsPerSecond};
  RateBudget time_echoes{kTimeEchoBurst, kMaxTimeEchoesPerSecond};
  RateBudget offences{kMaxOffenceBurst, 1};
};

// An accepted connection: a player's (its id) or a spectator's.
struct Seat {
  transport::PeerId peer = 0;
  std::optional<sim::PlayerId> player;
};

class Admission {
 public:
  // A seat whose connection ended, for the caller to take out of the game (and tell the others).
  using Leave = std::function<void(const Seat&, protocol::LeaveReason)>;

  Admission(const ServerConfig& config, transport::Host& host);

  void OnConnected(Micros now, transport::PeerId peer, bool shutting_down);
  // The connection is gone; the seat it had, if any, is left.
  std::optional<Seat> OnDisconnected(transport::PeerId peer);
  // The connection whose packet just came, if what it says is to be read: known, not closing, and within
  // its packet budget (past that it is kicked).
  Connection* Receive(Micros now, transport::PeerId peer, const Leave& leave);

  void OnConnectRequest(Micros now, transport::PeerId peer, Connection& connection,
                        const protocol::ConnectRequest& request, Outbox& outbox);
  // The nonce came back: the client receives what is sent to its address. True when it may play or watch
  // (the caller seats it, then calls Seated); with no seat free (`full`: of its kind) it is refused.
  bool OnChallengeResponse(Micros now, transport::PeerId peer, Connection& connection, bool full,
                           Outbox& outbox);
  // `player` empty: a spectator.
  void Seated(Micros now, Connection& connection, std::optional<sim::PlayerId> player) noexcept;
  // A message the connection may not send now, or cannot be read: dropped and counted; a pending or
  // challenged peer is refused (or reset, when it is no netcube client), a player offends.
  void OnMalformed(Micros now, transport::PeerId peer, Connection& connection, protocol::Channel channel,
                   bool decodable, Outbox& outbox, const Leave& leave);
  // Whether a TimeEcho request may be answered; one over the budget offends.
  bool TakeTimeEcho(Micros now, transport::PeerId peer, Connection& connection, const Leave& leave);

  // Resets or kicks connections that prove nothing in time and players gone silent.
  void ResetSilentPeers(Micros now, const Leave& leave);
  // Says goodbye to every connection (the server shuts down).
  void CloseAll(Micros now);

  std::size_t size() const noexcept { return connections_.size(); }
  const AdmissionCounters& counters() const noexcept { return counters_; }

 private:
  void Refuse(Micros now, transport::PeerId peer, Connection& connection, protocol::RefuseReason reason,
              Outbox& outbox);
  void Offend(Micros now, transport::PeerId peer, Connection& connection, protocol::DisconnectReason reason,
              const Leave& leave);
  void Kick(Micros now, transport::PeerId peer, Connection& connection, protocol::DisconnectReason reason,
            const Leave& leave);
  void Close(Micros now, transport::PeerId peer, Connection& connection, std::uint32_t data);

  const ServerConfig& config_;  // the server's, with its live settings
  transport::Host& host_;
  std::unordered_map<transport::PeerId, Connection> connections_;
  std::mt19937_64 nonces_by_seed_;  // only without config_.nonce_source
  AdmissionCounters counters_;
};

}  // namespace netcube::server
