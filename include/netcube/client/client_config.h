#pragma once
// The vocabulary of a client's owner: what it sets (ClientConfig) and the states of its connection. The
// client's rooms include this, never the façade's client.h.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "netcube/client/settings.h"
#include "netcube/sim/time.h"
#include "netcube/sim/world.h"
#include "netcube/transport/link_conditioner.h"
#include "netcube/transport/network.h"

namespace netcube::client {

enum class ConnectionState : std::uint8_t {
  kDisconnected,  // never connected, or left politely (Disconnect)
  kConnecting,    // ENet handshake and ConnectRequest under way
  kConnected,     // Welcome received: player id and server settings known
  kRefused,       // the server said no; status() has its reason
  kLost,          // the server went away (timeout, silence, or it closed the connection); see status()
  kUnreachable,   // the connection never happened: no answer, or closed before the Welcome; see status()
};
const char* ToString(ConnectionState state) noexcept;

struct ClientConfig {
  std::string name = "player";  // printable ASCII, at most protocol::kMaxNameLength
  // The client's link conditioner, applied to both directions: latency_ms is one way, so the added round
  // trip is twice it. Changeable later with SetLink.
  transport::LinkSettings link;
  std::uint64_t seed = 1;  // the conditioner's random generator
  // Where each connection's host comes from: empty = real UDP through ENet (transport::UdpNetwork()).
  std::shared_ptr<transport::Network> network;
  // The conditioners' decisions, packet by packet: incoming (what a comparison's fairness is checked on)
  // and outgoing (the journal's record of the link).
  transport::LinkLog incoming_link_log;
  transport::LinkLog outgoing_link_log;
  // Input samples per simulation step (1/60 s). 2 samples twice per step: a speed hack the server must
  // refuse.
  int input_rate = 1;
  Settings settings;
  // No message from the server for this long (in the caller's time) means it is gone: kLost. Also given to
  // ENet as its peer timeout.
  std::uint32_t timeout_ms = 5000;
  // The local address the client sends from (numeric IPv4): 0.0.0.0 lets the system choose.
  std::string source_address = "0.0.0.0";
  // The least time between two refreshes of the remote cubes' views (their interpolation, smoothing and
  // view delay); the own cube's is refreshed at every Update. 0: every Update, as a window drawing a frame
  // per Update wants. A client drawing nothing but updated far more often (a bot's 1 ms loop) refreshes
  // them as a display would instead: 127 remote cubes every millisecond was a third of a bot's work.
  Micros view_interval{0};
  // The most bytes an InterestSnapshot may take, asked of the server after the Welcome (SnapshotBudget,
  // [protocol::kMinSnapshotBudget, protocol::kMaxPacketBytes]); 0: the server's budget.
  std::size_t snapshot_budget = 0;
  // Watch instead of play: no cube of its own (ConnectRequest's spectate); with `follow`, its camera
  // follows that player's cube (a Viewpoint, sent after the Welcome). See Client::Watch.
  bool spectate = false;
  std::optional<sim::PlayerId> follow;
};

}  // namespace netcube::client
