#include "netcube/server/server.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>
#include <random>
#include <unordered_map>
#include <utility>

#include "duration_histogram.h"
#include "input_queue.h"
#include "lag_compensation.h"
#include "netcube/transport/host.h"
#include "rate_budget.h"
#include "spawn.h"
#include "tick_schedule.h"
#include "world_history.h"

namespace netcube::server {
namespace {

constexpr std::uint64_t kNoBaseline = std::numeric_limits<std::uint64_t>::max();

bool ValidRate(int rate) noexcept { return rate >= 1 && rate <= protocol::kMaxRate; }

TickDurations Summary(const DurationHistogram& histogram) {
  return {histogram.samples(), histogram.Percentile(0.50), histogram.Percentile(0.99), histogram.max()};
}

// ENet's own limit on peers (and so on peers from one address).
constexpr std::size_t kMaxPerAddress = 4095;

enum class PeerState : std::uint8_t {
  kPending,     // connected, ConnectRequest not seen yet
  kChallenged,  // sent a Challenge; waiting for its nonce to come back (the address is not proved yet)
  kAccepted,    // a player
  kClosing,   // refused or shut down: waiting for ENet to finish the goodbye
};

struct Connection {
  PeerState state = PeerState::kPending;
  Micros connected_at{0};    // kChallenged: when the Challenge was sent
  Micros last_heard{0};      // kAccepted: the last valid message (silence for the peer timeout ends it)
  std::uint64_t nonce = 0;   // kChallenged only
  std::string name;          // kChallenged only: the name asked for
  sim::PlayerId player = 0;  // kAccepted only
  // Its nonce came back: the address receives what the server sends it. Until then whatever the server
  // says to it is said once (transport::Host::DisconnectUnproven).
  bool proven = false;
  RateBudget packets{kMaxPacketsPerSecond, kMaxPacketsPerSecond};
  RateBudget time_echoes{kTimeEchoBurst, kMaxTimeEchoesPerSecond};
  RateBudget offences{kMaxOffenceBurst, 1};
};

struct PendingTag {
  protocol::Tag tag;
  Micros received{0};
};

struct Client {
  transport::PeerId peer = 0;
  sim::PlayerId id = 0;
  std::uint32_t generation = 0;  // which player holds the id (ids are reused): for delta baselines
  // The newest snapshot tick the client says it holds: the baseline of its next delta.
  std::optional<std::uint64_t> seen_tick;
  // The ticks of the snapshots sent to it, slot tick % kMaxDeltaAge (0: none; ticks start at 1). A client
  // may only name one of these as its baseline, and may be given a delta against an older one of them
  // it still holds (protocol::kHeldBaselines).
  std::array<std::uint64_t, protocol::kMaxDeltaAge> sent_ticks{};
  std::string name;
  InputQueue inputs;
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
  // At most one tag waits for its input; the cooldown is a virtual schedule (GCRA): a tag is on time
  // when it comes no earlier than kTagBurstTolerance before tag_due, and pushes tag_due one cooldown on.
  std::optional<PendingTag> pending_tag;
  Micros tag_due{0};
  std::uint64_t tags_fired = 0;
  std::uint64_t tags_given = 0;
  std::uint64_t tags_taken = 0;
  std::uint64_t tags_refused = 0;
  // The snapshot rate the client asked for (SnapshotRate; it gets the tick rate at most), 0 while it takes
  // the server's. Its own credit, as the server's snapshot_credit; due: it gets this tick's snapshot.
  int snapshot_rate = 0;
  int snapshot_credit = 0;
  bool snapshot_due = false;
};

std::string CheckConfig(const ServerConfig& config) {
  if (!ValidRate(config.tick_rate)) return "tick rate must be in [1, " + std::to_string(protocol::kMaxRate) + "]";
  if (!ValidRate(config.snapshot_rate)) {
    return "snapshot rate must be in [1, " + std::to_string(protocol::kMaxRate) + "]";
  }
  if (config.max_snapshot_rate < config.snapshot_rate || config.max_snapshot_rate > protocol::kMaxRate) {
    return "max snapshot rate must be in [snapshot rate, " + std::to_string(protocol::kMaxRate) + "]";
  }
  if (config.max_clients < 1 || config.max_clients > protocol::kMaxPlayers) {
    return "max clients must be in [1, " + std::to_string(protocol::kMaxPlayers) + "]";
  }
  if (config.max_rewind_ms < 0 || config.max_rewind_ms > protocol::kMaxTagDelayMs) {
    return "max rewind must be in [0, " + std::to_string(protocol::kMaxTagDelayMs) + "] ms";
  }
  if (config.spawn_spacing_units < 1 || config.spawn_spacing_units > kMaxSpawnSpacingUnits) {
    return "spawn spacing must be in [1, " + std::to_string(kMaxSpawnSpacingUnits) + "] units";
  }
  if (config.max_per_address < 1 || config.max_per_address > kMaxPerAddress) {
    return "max per address must be in [1, " + std::to_string(kMaxPerAddress) + "]";
  }
  return {};
}

transport::HostConfig HostConfigFor(const ServerConfig& config) {
  transport::HostConfig host_config;
  host_config.bind_address = config.bind_address;
  host_config.port = config.port;
  host_config.max_peers = config.max_clients + kSpareConnectionSlots + kHandshakeSlots;
  host_config.handshake_timeout_ms = static_cast<std::uint32_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(kHandshakeTimeout).count());
  host_config.max_peers_per_address = config.max_per_address;
  host_config.make_room_for_connections = true;
  host_config.link = config.link;
  host_config.seed = config.seed;
  host_config.timeout_ms = config.peer_timeout_ms;
  return host_config;
}

}  // namespace

struct Server::Impl {
  Impl(const ServerConfig& cfg, std::unique_ptr<transport::Host> h, Micros now)
      : config(cfg), host(std::move(h)), schedule(now, cfg.tick_rate), nonces_by_seed(cfg.seed) {
    clients.reserve(protocol::kMaxPlayers);
    world.reserve(protocol::kMaxPlayers);
    receivers.reserve(protocol::kMaxPlayers);
    writers.reserve(protocol::kMaxPlayers);  // address space only until encodings need it
    tag_results.reserve(protocol::kMaxPlayers);
  }

  ServerConfig config;
  std::unique_ptr<transport::Host> host;
  TickSchedule schedule;
  std::uint64_t tick = 0;
  int snapshot_credit = 0;  // += snapshot_rate per tick; a snapshot each time it reaches tick_rate
  bool shutting_down = false;

  std::unordered_map<transport::PeerId, Connection> connections;
  // Parallel vectors in increasing player id: clients[i] controls world[i].
  std::vector<Client> clients;
  std::vector<sim::PlayerCube> world;

  // Reused every Update or tick, so that the steady state allocates nothing here.
  std::vector<transport::Event> events;
  std::array<sim::Input, protocol::kMaxPlayers * InputQueue::kMaxPerTick> tick_inputs{};
  std::vector<sim::PlayerStep> steps;
  protocol::Message decoded;  // every received message, decoded in place
  // A snapshot's encodings, one per distinct baseline among the clients (on a LAN nearly all share one):
  // made inside the tick, handed to each client after it.
  struct Receiver {
    std::uint64_t baseline = 0;  // kNoBaseline: a full snapshot
    std::size_t client = 0;
    std::size_t group = 0;  // its encoding in writers
    friend bool operator<(const Receiver& a, const Receiver& b) noexcept { return a.baseline < b.baseline; }
  };
  std::vector<Receiver> receivers;
  std::vector<protocol::SnapshotWriter> writers;  // capacity kMaxPlayers, grown to the most groups seen
  std::array<bool, protocol::kMaxPlayers> group_is_delta{};
  protocol::DeltaSnapshot delta;
  protocol::TurnLog turn_log;  // every cube's recent turns, so a delta names all of them since its baseline
  std::array<std::uint32_t, protocol::kMaxPlayers> generations{};  // of world's cubes, at a snapshot
  std::uint32_t next_generation = 0;
  std::array<std::uint8_t, protocol::kMaxPacketBytes> send_buffer{};

  DurationHistogram tick_durations;
  DurationHistogram network_durations;
  Micros network_time{0};  // servicing the network since the last tick, by work_clock
  std::uint64_t ticks_run = 0;
  std::uint64_t ticks_skipped = 0;
  std::uint64_t snapshots_sent = 0;
  std::uint64_t delta_snapshots_sent = 0;
  std::uint64_t snapshot_encodes = 0;
  std::uint64_t delta_prediction_moves = 0;
  std::uint64_t deltas_declined = 0;
  std::uint64_t snapshot_bytes_sent = 0;
  std::uint64_t snapshot_cube_bits = 0;
  std::uint64_t delta_age_ticks = 0;
  std::size_t clients_peak = 0;
  std::uint64_t clients_refused = 0;
  std::uint64_t packets_malformed = 0;
  std::uint64_t peers_reset = 0;
  std::uint64_t peers_kicked = 0;
  std::uint64_t time_echoes_throttled = 0;
  std::uint64_t challenges_sent = 0;
  std::uint64_t challenges_confirmed = 0;
  std::mt19937_64 nonces_by_seed;  // only without config.nonce_source
  InputCounters departed_inputs;  // of clients that have left

  WorldHistory history;
  JudgeScratch judge_scratch;
  std::array<TagRecord, kRecentTags> recent_tags{};
  std::uint64_t tags_recorded = 0;  // recent_tags holds the last min(this, kRecentTags)
  // The tick's verdicts, told to every client after the tick: at most one pending tag per client.
  std::vector<protocol::TagResult> tag_results;
  std::uint64_t tags_hit = 0;
  std::uint64_t tags_refused = 0;
  std::uint64_t tags_capped = 0;
  std::uint64_t tags_decided_by_rewind = 0;
  double rewind_ms_sum = 0.0;
  double rewind_ms_max = 0.0;

  void ServiceNetwork(Micros now);
  void TimedServiceNetwork(Micros now);
  void HandleEvents(Micros now, std::span<const transport::Event> received);
  void OnConnected(Micros now, transport::PeerId peer);
  void OnDisconnected(Micros now, const transport::Event& event);
  void OnReceived(Micros now, const transport::Event& event);
  void OnConnectRequest(Micros now, transport::PeerId peer, Connection& connection,
                        const protocol::ConnectRequest& request);
  void OnChallengeResponse(Micros now, transport::PeerId peer, Connection& connection);
  void Refuse(Micros now, transport::PeerId peer, Connection& connection, protocol::RefuseReason reason);
  void Accept(Micros now, transport::PeerId peer, Connection& connection, const std::string& name);
  void RemovePlayer(Micros now, sim::PlayerId player, protocol::LeaveReason reason);
  void Offend(Micros now, transport::PeerId peer, Connection& connection, protocol::DisconnectReason reason);
  void Kick(Micros now, transport::PeerId peer, Connection& connection, protocol::DisconnectReason reason);
  void Close(Micros now, transport::PeerId peer, Connection& connection, std::uint32_t data);
  void ResetSilentPeers(Micros now);
  void RunDueTicks(Micros now);
  // One simulation step; true when this tick's snapshot is encoded and due to every client.
  bool RunTick(Micros now);
  void SendSnapshots(Micros now);  // the snapshot RunTick encoded, with each client's ack
  void SendTagResults(Micros now);  // the verdicts RunTick reached
  void OnSeen(Client& client, std::uint16_t seen_tick);
  // The baseline tick of a client's next snapshot, kNoBaseline for a full one.
  std::uint64_t BaselineFor(const Client& client) const;
  // Advances the snapshot credits; false if no client gets a snapshot this tick.
  bool MarkSnapshotsDue();
  // The most snapshots a second a client gets, whatever it asks: the operator's cap, at most one a tick.
  int MostSnapshots() const { return std::min(config.max_snapshot_rate, schedule.rate()); }
  // Groups the clients due a snapshot by baseline and encodes each group's snapshot once, into
  // writers[group].
  bool PrepareSnapshots();
  // Brings the receivers' distinct baselines down to kMaxDeltaEncodes: in increasing order they are cut
  // into runs of about equal receivers (a baseline with that many alone is a run of its own; those older
  // than protocol::kHeldBaselines make one run), and each receiver of a run gets its oldest baseline when
  // it was sent it and still holds it, else the newest older run's baseline it holds (a client at 20
  // snapshots a second was sent a third of the ticks a 60-a-second one names), else the full snapshot.
  // `receivers` is sorted by baseline, and stays so.
  void ShareBaselines();
  // Prepares `writer` for receivers of `baseline`; true for a delta, false for a full snapshot.
  bool PrepareSnapshot(std::uint64_t baseline, protocol::SnapshotWriter& writer);
  void OnTag(Micros now, Client& client, const protocol::Tag& tag);
  void JudgeDueTags(Micros now);
  void JudgeTag(std::size_t shooter, const protocol::Tag& tag);

  Client* FindClient(sim::PlayerId id);
  // The one way a message leaves the server: encoded here, carried as bytes by the transport.
  template <protocol::OneMessage M>
  void Send(Micros now, transport::PeerId peer, Client* client, const M& message);
  void SendPacket(Micros now, transport::PeerId peer, Client* client, protocol::Channel channel,
                  std::span<const std::uint8_t> packet);
  template <protocol::OneMessage M>
  void Broadcast(Micros now, const M& message, std::optional<sim::PlayerId> except);
};

// --- Network ---------------------------------------------------------------------------------------------

void Server::Impl::ServiceNetwork(Micros now) {
  events.clear();
  host->Service(now, events);
  HandleEvents(now, events);
}

// ServiceNetwork, its time added to network_time when a work_clock is set.
void Server::Impl::TimedServiceNetwork(Micros now) {
  if (!config.work_clock) return ServiceNetwork(now);
  const Micros started = config.work_clock();
  ServiceNetwork(now);
  network_time += config.work_clock() - started;
}

void Server::Impl::HandleEvents(Micros now, std::span<const transport::Event> received) {
  for (const transport::Event& event : received) {
    switch (event.type) {
      case transport::EventType::kConnected:
        OnConnected(now, event.peer);
        break;
      case transport::EventType::kDisconnected:
        OnDisconnected(now, event);
        break;
      case transport::EventType::kReceived:
        OnReceived(now, event);
        break;
    }
  }
}

void Server::Impl::OnConnected(Micros now, transport::PeerId peer) {
  Connection& connection = connections[peer];
  connection.connected_at = now;
  if (shutting_down) {
    host->Disconnect(now, peer, 0);
    connection.state = PeerState::kClosing;
  }
}

void Server::Impl::OnDisconnected(Micros now, const transport::Event& event) {
  const auto it = connections.find(event.peer);
  if (it == connections.end()) return;
  const Connection connection = it->second;
  connections.erase(it);
  if (connection.state != PeerState::kAccepted) return;
  RemovePlayer(now, connection.player,
               event.timed_out ? protocol::LeaveReason::kTimedOut : protocol::LeaveReason::kDisconnected);
}

void Server::Impl::RemovePlayer(Micros now, sim::PlayerId player, protocol::LeaveReason reason) {
  const auto index = FindClient(player) - clients.data();
  departed_inputs += clients[static_cast<std::size_t>(index)].inputs.counters();
  clients.erase(clients.begin() + index);
  world.erase(world.begin() + index);
  if (!shutting_down) Broadcast(now, protocol::PlayerLeft{player, reason}, player);
}

void Server::Impl::OnReceived(Micros now, const transport::Event& event) {
  const auto it = connections.find(event.peer);
  if (it == connections.end()) return;
  Connection& connection = it->second;
  if (connection.state == PeerState::kClosing) return;  // the goodbye is under way; nothing it says matters
  if (!connection.packets.Take(now)) {
    Kick(now, event.peer, connection, protocol::DisconnectReason::kFlooding);
    return;
  }
  Client* client = connection.state == PeerState::kAccepted ? FindClient(connection.player) : nullptr;
  if (client != nullptr) client->bytes_received += event.data.size();

  protocol::Message& message = decoded;
  const bool decodable = protocol::Decode(event.data, message) == protocol::DecodeError::kNone;
  const bool valid = decodable && protocol::ChannelOf(protocol::TypeOf(message)) == event.channel;
  const bool pending = connection.state == PeerState::kPending;
  const bool challenged = connection.state == PeerState::kChallenged;

  if (valid) {
    if (const auto* request = std::get_if<protocol::ConnectRequest>(&message); request != nullptr && pending) {
      OnConnectRequest(now, event.peer, connection, *request);
      return;
    }
    if (const auto* response = std::get_if<protocol::ChallengeResponse>(&message);
        response != nullptr && challenged && response->nonce == connection.nonce) {
      OnChallengeResponse(now, event.peer, connection);
      return;
    }
    if (const auto* input = std::get_if<protocol::InputMessage>(&message);
        input != nullptr && client != nullptr && client->inputs.WithinReach(input->inputs.back().seq)) {
      // Bound to the sending peer: an input can only ever move the sender's own cube.
      for (const sim::Input& one : input->inputs) client->inputs.Receive(one);
      connection.last_heard = now;
      OnSeen(*client, input->seen_tick);
      return;
    }
    if (const auto* ack = std::get_if<protocol::SnapshotAck>(&message); ack != nullptr && client != nullptr) {
      connection.last_heard = now;
      OnSeen(*client, ack->seen_tick);
      return;
    }
    if (const auto* tag = std::get_if<protocol::Tag>(&message); tag != nullptr && client != nullptr) {
      connection.last_heard = now;
      OnTag(now, *client, *tag);
      return;
    }
    if (const auto* rate = std::get_if<protocol::SnapshotRate>(&message);
        rate != nullptr && client != nullptr) {
      connection.last_heard = now;
      client->snapshot_rate = rate->rate;
      return;
    }
    if (const auto* echo = std::get_if<protocol::TimeEcho>(&message);
        echo != nullptr && !echo->reply && client != nullptr) {
      connection.last_heard = now;
      if (connection.time_echoes.Take(now)) {
        Send(now, event.peer, client, protocol::TimeEcho{true, echo->client_time_us, static_cast<std::uint32_t>(tick)});
      } else {
        ++time_echoes_throttled;
        Offend(now, event.peer, connection, protocol::DisconnectReason::kFlooding);
      }
      return;
    }
  }
  // Undecodable, on the wrong channel, a server-to-client message, out of turn (input or TimeEcho before
  // being accepted, a second ConnectRequest), a wrong nonce, or an input sequence jumping beyond reach:
  // dropped.
  ++packets_malformed;
  // A pending peer's first reliable message has to be its ConnectRequest, a challenged one's the nonce.
  if ((pending || challenged) && event.channel == protocol::Channel::kReliable) {
    if (decodable) {
      Refuse(now, event.peer, connection, protocol::RefuseReason::kMalformedRequest);
    } else {
      // Not a netcube message at all (a request of any version is readable as far as its version): the
      // sender is not a client to be told why, and its address is unproven. Reset in silence.
      host->Drop(event.peer);
      connections.erase(it);
      ++peers_reset;
    }
    return;
  }
  Offend(now, event.peer, connection, protocol::DisconnectReason::kMalformed);
}

void Server::Impl::Offend(Micros now, transport::PeerId peer, Connection& connection,
                          protocol::DisconnectReason reason) {
  if (!connection.offences.Take(now)) Kick(now, peer, connection, reason);
}

// Ends a connection at once, with the reason as the disconnect's value; a player leaves the game first.
void Server::Impl::Kick(Micros now, transport::PeerId peer, Connection& connection,
                        protocol::DisconnectReason reason) {
  const bool silent = reason == protocol::DisconnectReason::kSilent;
  if (connection.state == PeerState::kAccepted) {
    RemovePlayer(now, connection.player, silent ? protocol::LeaveReason::kTimedOut : protocol::LeaveReason::kDisconnected);
  }
  Close(now, peer, connection, static_cast<std::uint32_t>(reason));
  ++(silent ? peers_reset : peers_kicked);
}

// The goodbye, after whatever is queued for the peer. To an unproven address (it may be forged) that is
// said once and never resent: a client that hears it is told why, one that does not times out, and the
// address gets no more than it sent.
void Server::Impl::Close(Micros now, transport::PeerId peer, Connection& connection, std::uint32_t data) {
  if (connection.proven) {
    host->Disconnect(now, peer, data);
  } else {
    host->DisconnectUnproven(now, peer, data);
  }
  connection.state = PeerState::kClosing;
}

void Server::Impl::OnConnectRequest(Micros now, transport::PeerId peer, Connection& connection,
                                    const protocol::ConnectRequest& request) {
  // The version is checked first, so that any other version is told why even when the server is full.
  if (request.version != protocol::kProtocolVersion) {
    Refuse(now, peer, connection, protocol::RefuseReason::kVersionMismatch);
  } else if (request.name.empty()) {
    Refuse(now, peer, connection, protocol::RefuseReason::kMalformedRequest);
  } else {
    // Nothing more until the address is proved: no slot, no announcement, no snapshot.
    connection.state = PeerState::kChallenged;
    connection.connected_at = now;
    connection.nonce = config.nonce_source ? config.nonce_source() : nonces_by_seed();
    connection.name = request.name;
    Send(now, peer, nullptr, protocol::Challenge{connection.nonce});
    ++challenges_sent;
  }
}

// The nonce came back: the client receives what is sent to its address.
void Server::Impl::OnChallengeResponse(Micros now, transport::PeerId peer, Connection& connection) {
  ++challenges_confirmed;
  connection.proven = true;
  host->MarkProven(peer);
  if (clients.size() >= config.max_clients) {
    Refuse(now, peer, connection, protocol::RefuseReason::kServerFull);
  } else {
    Accept(now, peer, connection, connection.name);
  }
}

void Server::Impl::Refuse(Micros now, transport::PeerId peer, Connection& connection,
                          protocol::RefuseReason reason) {
  Send(now, peer, nullptr, protocol::ConnectRefused{reason, protocol::kProtocolVersion});
  Close(now, peer, connection, 0);  // after the refusal, which is already queued
  ++clients_refused;
}

void Server::Impl::Accept(Micros now, transport::PeerId peer, Connection& connection, const std::string& name) {
  // The lowest free id: the first gap in the sorted ids.
  std::size_t index = 0;
  while (index < clients.size() && clients[index].id == index) ++index;
  const auto id = static_cast<sim::PlayerId>(index);

  Client client;
  client.inputs = InputQueue(config.tick_rate, config.input_buffer);
  client.peer = peer;
  client.id = id;
  client.generation = next_generation++;
  client.name = name;
  // A shared spawn is the slot of an empty world, whoever is already there.
  const sim::PlayerCube cube{id, SpawnState(config.shared_spawn ? std::span<const sim::PlayerCube>() : world,
                                            config.spawn_spacing_units)};
  clients.insert(clients.begin() + static_cast<std::ptrdiff_t>(index), std::move(client));
  world.insert(world.begin() + static_cast<std::ptrdiff_t>(index), cube);
  connection.state = PeerState::kAccepted;
  connection.player = id;
  connection.last_heard = now;
  clients_peak = std::max(clients_peak, clients.size());

  Client* newcomer = &clients[index];
  protocol::Welcome welcome;
  welcome.player_id = id;
  welcome.tick_rate = static_cast<std::uint8_t>(schedule.rate());
  // The rate snapshots really come at: at most one per tick.
  welcome.snapshot_rate = static_cast<std::uint8_t>(std::min(config.snapshot_rate, schedule.rate()));
  welcome.max_snapshot_rate = static_cast<std::uint8_t>(MostSnapshots());
  welcome.max_players = static_cast<std::uint16_t>(config.max_clients);
  welcome.collisions = config.collisions;
  welcome.server_tick = static_cast<std::uint32_t>(tick);
  Send(now, peer, newcomer, welcome);
  for (const Client& present : clients) Send(now, peer, newcomer, protocol::PlayerJoined{present.id, present.name});
  Broadcast(now, protocol::PlayerJoined{id, name}, id);
}

// The application's own timeouts: ENet keeps a connection alive as long as its acknowledgements come,
// and those can be forged without a single netcube message.
void Server::Impl::ResetSilentPeers(Micros now) {
  const Micros peer_timeout = std::chrono::milliseconds(config.peer_timeout_ms);
  for (auto it = connections.begin(); it != connections.end();) {
    auto& [peer, connection] = *it;
    if (connection.state == PeerState::kChallenged && now - connection.connected_at > kPendingTimeout) {
      // Not a word more to an address that never proved itself: its ENet peer is reset in silence.
      host->Drop(peer);
      ++peers_reset;
      it = connections.erase(it);
      continue;
    }
    if ((connection.state == PeerState::kPending && now - connection.connected_at > kPendingTimeout) ||
        (connection.state == PeerState::kAccepted && now - connection.last_heard > peer_timeout)) {
      Kick(now, peer, connection, protocol::DisconnectReason::kSilent);
    }
    ++it;
  }
}

Client* Server::Impl::FindClient(sim::PlayerId id) {
  const auto it = std::lower_bound(clients.begin(), clients.end(), id,
                                   [](const Client& c, sim::PlayerId wanted) { return c.id < wanted; });
  return it != clients.end() && it->id == id ? &*it : nullptr;
}

template <protocol::OneMessage M>
void Server::Impl::Send(Micros now, transport::PeerId peer, Client* client, const M& message) {
  const std::size_t size = protocol::Encode(message, send_buffer);
  if (size == 0) return;  // every message the server builds is valid; nothing to send if not
  SendPacket(now, peer, client, protocol::ChannelOf(protocol::kTypeOf<M>), std::span(send_buffer.data(), size));
}

void Server::Impl::SendPacket(Micros now, transport::PeerId peer, Client* client, protocol::Channel channel,
                              std::span<const std::uint8_t> packet) {
  host->Send(now, peer, channel, packet);
  if (client != nullptr) client->bytes_sent += packet.size();
}

template <protocol::OneMessage M>
void Server::Impl::Broadcast(Micros now, const M& message, std::optional<sim::PlayerId> except) {
  const std::size_t size = protocol::Encode(message, send_buffer);
  if (size == 0) return;  // as in Send
  const std::span<const std::uint8_t> packet(send_buffer.data(), size);
  for (Client& client : clients) {
    if (client.id != except) SendPacket(now, client.peer, &client, protocol::ChannelOf(protocol::kTypeOf<M>), packet);
  }
}

// --- Ticks -----------------------------------------------------------------------------------------------

void Server::Impl::RunDueTicks(Micros now) {
  const std::uint64_t last_due = schedule.LastDueTick(now);
  if (last_due <= tick) return;
  if (now - schedule.TimeOf(tick + 1) > kMaxTickLag) {
    // Hopelessly late (a stalled process): the missed ticks are not simulated, but the tick number keeps
    // following the clock so that clients' estimates of server time stay valid.
    ticks_skipped += last_due - tick - 1;
    tick = last_due - 1;
  }
  // The tick's time is the simulation's and the snapshot's encoding; handing each client its packet is
  // the network's, with the servicing since the last tick.
  const auto work_now = [this] { return config.work_clock ? config.work_clock() : Micros(0); };
  while (tick < last_due) {
    const Micros started = work_now();
    const bool snapshot_ready = RunTick(now);
    const Micros simulated = work_now();
    SendTagResults(now);
    if (snapshot_ready) SendSnapshots(now);
    if (config.work_clock) {
      tick_durations.Add(simulated - started);
      network_time += work_now() - simulated;
      network_durations.Add(std::exchange(network_time, Micros(0)));
    }
  }
}

bool Server::Impl::RunTick(Micros now) {
  steps.clear();
  std::size_t used = 0;
  for (std::size_t i = 0; i < clients.size(); ++i) {
    const std::span<sim::Input, InputQueue::kMaxPerTick> out(tick_inputs.data() + used, InputQueue::kMaxPerTick);
    // A moving cube is one whose client sends an input every step. One at rest may be holding keys
    // against a wall, or its client may have let go, which it does not send: not known to be streaming.
    const sim::CubeState& cube = world[i].state;
    const bool streaming = cube.vx != 0 || cube.vy != 0;
    const std::size_t count = clients[i].inputs.TakeForTick(out, streaming);
    if (count > 0) steps.push_back({&world[i], std::span<const sim::Input>(out.data(), count)});
    used += count;
  }
  sim::StepWorld(world, steps, config.collisions);
  ++tick;
  ++ticks_run;
  history.Record(tick, schedule.TimeOf(tick), world,
                 [this](std::size_t i) { return clients[i].inputs.counters().processed > 0; },
                 [this](std::size_t i) { return clients[i].generation; });
  std::span<const sim::PlayerCube> recorded;
  std::span<const std::uint32_t> recorded_generations;
  if (history.WorldOf(tick, recorded, recorded_generations)) turn_log.Record(recorded, recorded_generations);
  JudgeDueTags(now);

  return MarkSnapshotsDue() && PrepareSnapshots();
}

bool Server::Impl::MarkSnapshotsDue() {
  const int tick_rate = schedule.rate();
  const auto take_credit = [tick_rate](int& credit, int rate) {
    credit += rate;
    if (credit < tick_rate) return false;
    credit %= tick_rate;
    return true;
  };
  const bool server_due = take_credit(snapshot_credit, config.snapshot_rate);
  bool any_due = false;
  for (Client& client : clients) {
    client.snapshot_due =
        client.snapshot_rate > 0
            ? take_credit(client.snapshot_credit, std::min(client.snapshot_rate, MostSnapshots()))
            : server_due;
    any_due = any_due || client.snapshot_due;
  }
  return any_due;
}

void Server::Impl::OnSeen(Client& client, std::uint16_t seen_tick) {
  // The low 16 bits of a tick at most 65535 old: unwrapped against the current tick. A claim of a tick
  // the client never received only spoils its own next delta, which it drops.
  const std::uint64_t seen = tick - static_cast<std::uint16_t>(static_cast<std::uint16_t>(tick) - seen_tick);
  if (client.sent_ticks[seen % client.sent_ticks.size()] != seen) return;  // never sent: a lie or a stale one
  if (!client.seen_tick || seen > *client.seen_tick) client.seen_tick = seen;
}

std::uint64_t Server::Impl::BaselineFor(const Client& client) const {
  if (config.snapshot_encoding != SnapshotEncoding::kDelta || !client.seen_tick) return kNoBaseline;
  const std::uint64_t age = tick - *client.seen_tick;
  std::span<const sim::PlayerCube> cubes;
  std::span<const std::uint32_t> gens;
  if (age < 1 || age > protocol::kMaxDeltaAge || !history.WorldOf(*client.seen_tick, cubes, gens)) return kNoBaseline;
  return *client.seen_tick;
}

bool Server::Impl::PrepareSnapshots() {
  for (std::size_t i = 0; i < clients.size(); ++i) generations[i] = clients[i].generation;
  receivers.clear();
  for (std::size_t i = 0; i < clients.size(); ++i) {
    if (clients[i].snapshot_due) receivers.push_back({BaselineFor(clients[i]), i, 0});
  }
  std::sort(receivers.begin(), receivers.end());
  ShareBaselines();
  std::size_t groups = 0;
  for (std::size_t k = 0; k < receivers.size(); ++k) {
    if (k == 0 || receivers[k].baseline != receivers[k - 1].baseline) {
      if (writers.size() == groups) writers.emplace_back();
      group_is_delta[groups] = PrepareSnapshot(receivers[k].baseline, writers[groups]);
      ++groups;
    }
    receivers[k].group = groups - 1;
  }
  snapshot_encodes += groups;
  return true;
}

void Server::Impl::ShareBaselines() {
  std::size_t delta_receivers = 0;
  std::size_t distinct = 0;
  for (; delta_receivers < receivers.size() && receivers[delta_receivers].baseline != kNoBaseline;
       ++delta_receivers) {
    if (delta_receivers == 0 ||
        receivers[delta_receivers].baseline != receivers[delta_receivers - 1].baseline) {
      ++distinct;
    }
  }
  if (distinct <= kMaxDeltaEncodes) return;
  const std::size_t run_size = (delta_receivers + kMaxDeltaEncodes - 1) / kMaxDeltaEncodes;
  std::size_t runs = 0;
  std::size_t in_run = 0;
  std::uint64_t anchor = kNoBaseline;
  std::array<std::uint64_t, kMaxDeltaEncodes> anchors{};  // each run's, oldest first
  for (std::size_t k = 0; k < delta_receivers;) {
    const std::uint64_t baseline = receivers[k].baseline;
    std::size_t end = k;
    while (end < delta_receivers && receivers[end].baseline == baseline) ++end;
    // Baselines older than a client must hold (an honest client names one only after a long loss, a
    // hostile one at will) all share the first run: one encode for all of them.
    const bool held = tick - baseline <= protocol::kHeldBaselines;
    if (runs < kMaxDeltaEncodes && (runs == 0 || (held && (in_run >= run_size || end - k >= run_size)))) {
      anchor = baseline;
      anchors[runs] = anchor;
      in_run = 0;
      ++runs;
    }
    in_run += end - k;
    for (; k < end; ++k) {
      const Client& client = clients[receivers[k].client];
      // Sent before the newest it told of, so held unless it was lost: a jittery link bunches snapshots
      // and a client tells only the newest of each bunch. A lost one costs the client that delta, which it
      // drops, no more.
      const auto holds = [&](std::uint64_t shared) {
        return shared == baseline || (client.sent_ticks[shared % client.sent_ticks.size()] == shared &&
                                      tick - shared <= protocol::kHeldBaselines);
      };
      std::uint64_t shared = kNoBaseline;
      for (std::size_t run = runs; run-- > 0;) {
        if (holds(anchors[run])) {
          shared = anchors[run];
          break;
        }
      }
      if (shared == kNoBaseline) ++deltas_declined;
      receivers[k].baseline = shared;
    }
  }
  std::sort(receivers.begin(), receivers.end());
}

bool Server::Impl::PrepareSnapshot(std::uint64_t baseline, protocol::SnapshotWriter& writer) {
  const auto server_tick = static_cast<std::uint32_t>(tick);
  std::span<const sim::PlayerCube> cubes;
  std::span<const std::uint32_t> gens;
  // A delta longer than the full snapshot (a world turned over since an old baseline) is not worth sending.
  const std::size_t full_bits = protocol::SnapshotWriter::FullSharedBits(world.size());
  if (baseline != kNoBaseline && history.WorldOf(baseline, cubes, gens) &&
      protocol::MakeDelta(server_tick, world, std::span(generations.data(), world.size()),
                          static_cast<int>(tick - baseline), cubes, gens, delta, &delta_prediction_moves,
                          &turn_log) &&
      writer.Prepare(delta) && writer.shared_bits() <= full_bits) {
    return true;
  }
  [[maybe_unused]] const bool encoded = writer.Prepare(server_tick, world);
  assert(encoded && "the server's world is always encodable: ids increasing, states in range");
  return false;
}

void Server::Impl::SendSnapshots(Micros now) {
  constexpr protocol::Channel kChannel = protocol::ChannelOf(protocol::MessageType::kSnapshot);
  for (const Receiver& receiver : receivers) {
    const std::size_t i = receiver.client;
    Client& client = clients[i];
    const bool has_ack = client.inputs.counters().processed > 0;
    const auto packet = writers[receiver.group].PacketFor(
        has_ack ? std::optional(protocol::SnapshotWriter::ReceiverAck{world[i].state.last_input, client.inputs.lead()})
                : std::nullopt);
    if (packet.empty()) continue;
    SendPacket(now, client.peer, &client, kChannel, packet);
    client.sent_ticks[tick % client.sent_ticks.size()] = tick;
    snapshot_bytes_sent += packet.size();
    snapshot_cube_bits += writers[receiver.group].cube_bits();
    if (group_is_delta[receiver.group]) {
      ++delta_snapshots_sent;
      delta_age_ticks += tick - receiver.baseline;
    }
  }
  snapshots_sent += receivers.size();
}

// --- Tags ------------------------------------------------------------------------------------------------

void Server::Impl::OnTag(Micros now, Client& client, const protocol::Tag& tag) {
  const Micros cooldown{sim::kTagCooldownMs * 1000};
  if (client.pending_tag || now < client.tag_due - kTagBurstTolerance) {
    ++client.tags_refused;
    ++tags_refused;
    Send(now, client.peer, &client, protocol::TagResult{client.id, tag.shot, protocol::TagOutcome::kRefused});
    return;
  }
  client.tag_due = std::max(client.tag_due, now) + cooldown;
  client.pending_tag = PendingTag{tag, now};
}

void Server::Impl::JudgeDueTags(Micros now) {
  for (std::size_t i = 0; i < clients.size(); ++i) {
    Client& client = clients[i];
    if (!client.pending_tag) continue;
    // The ray starts where the shooter saw its own cube: after the input it fired after. An input that
    // never comes (lost for good, or a lie) delays the tag by kMaxTagWait at most.
    const bool applied = client.inputs.counters().processed > 0
                             ? !sim::SeqLess(world[i].state.last_input, client.pending_tag->tag.seq)
                             : client.inputs.size() == 0;
    if (!applied && now - client.pending_tag->received < kMaxTagWait) continue;
    const protocol::Tag tag = client.pending_tag->tag;
    client.pending_tag.reset();
    JudgeTag(i, tag);
  }
}

void Server::Impl::JudgeTag(std::size_t shooter, const protocol::Tag& tag) {
  PastCube victim;
  const TagRecord record =
      Judge(history, world[shooter], tag, config.lag_compensation, config.max_rewind_ms, judge_scratch, victim);
  recent_tags[tags_recorded % kRecentTags] = record;
  ++tags_recorded;
  ++clients[shooter].tags_fired;
  rewind_ms_sum += record.rewind_ms;
  rewind_ms_max = std::max(rewind_ms_max, record.rewind_ms);
  if (record.capped) ++tags_capped;
  if (record.lag_compensation && record.rewound.hit != record.present.hit) ++tags_decided_by_rewind;

  protocol::TagResult result{clients[shooter].id, tag.shot, record.outcome,
                             static_cast<std::uint16_t>(record.lag_compensation ? std::lround(record.rewind_ms) : 0)};
  if (record.outcome == protocol::TagOutcome::kHit) {
    ++tags_hit;
    ++clients[shooter].tags_given;
    if (Client* target = FindClient(victim.id)) ++target->tags_taken;
    result.target = victim.id;
    result.target_has_input = victim.has_input;
    result.target_seq = victim.has_input ? victim.last_input : sim::Seq{0};
  }
  tag_results.push_back(result);
}

void Server::Impl::SendTagResults(Micros now) {
  for (const protocol::TagResult& result : tag_results) Broadcast(now, result, std::nullopt);
  tag_results.clear();
}

// --- Server ----------------------------------------------------------------------------------------------

std::unique_ptr<Server> Server::Create(const ServerConfig& config, Micros now, std::string* error) {
  // `error` is optional; the transport's is not, so its reason goes through `problem`.
  std::string problem = CheckConfig(config);
  std::unique_ptr<transport::Host> host;
  if (problem.empty()) host = transport::Host::Listen(HostConfigFor(config), &problem);
  if (host == nullptr) {
    if (error != nullptr) *error = std::move(problem);
    return nullptr;
  }
  return std::unique_ptr<Server>(new Server(std::make_unique<Impl>(config, std::move(host), now)));
}

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Server::~Server() = default;

void Server::Update(Micros now) {
  Impl& s = *impl_;
  s.TimedServiceNetwork(now);
  if (s.shutting_down) return;
  s.ResetSilentPeers(now);
  const std::uint64_t before = s.tick;
  s.RunDueTicks(now);
  // Hand this tick's snapshots to the network now rather than at the next Update.
  if (s.tick != before) s.TimedServiceNetwork(now);
}

void Server::HandleEvents(Micros now, std::span<const transport::Event> events) { impl_->HandleEvents(now, events); }

Micros Server::next_wakeup() const { return impl_->schedule.TimeOf(impl_->tick + 1); }

void Server::Shutdown(Micros now) {
  Impl& s = *impl_;
  if (s.shutting_down) return;
  s.shutting_down = true;
  for (auto& [peer, connection] : s.connections) {
    if (connection.state == PeerState::kClosing) continue;
    s.host->Disconnect(now, peer, 0);
    connection.state = PeerState::kClosing;
  }
  s.ServiceNetwork(now);
  s.host->Flush();
}

std::uint16_t Server::port() const { return impl_->host->port(); }

bool Server::SetTickRate(int tick_rate) {
  if (!ValidRate(tick_rate)) return false;
  Impl& s = *impl_;
  s.schedule.Rebase(s.tick, tick_rate);
  s.config.tick_rate = tick_rate;
  s.snapshot_credit = std::min(s.snapshot_credit, tick_rate - 1);
  for (Client& client : s.clients) {
    client.inputs.SetTickRate(tick_rate);
    client.snapshot_credit = std::min(client.snapshot_credit, tick_rate - 1);
  }
  return true;
}

bool Server::SetSnapshotRate(int snapshot_rate) {
  if (!ValidRate(snapshot_rate) || snapshot_rate > impl_->config.max_snapshot_rate) return false;
  impl_->config.snapshot_rate = snapshot_rate;
  return true;
}

void Server::SetCollisions(bool collisions) { impl_->config.collisions = collisions; }

void Server::SetLagCompensation(bool on) { impl_->config.lag_compensation = on; }

void Server::SetInputBuffer(bool on) {
  impl_->config.input_buffer = on;
  for (Client& client : impl_->clients) client.inputs.SetBuffered(on);
}

void Server::SetSnapshotEncoding(SnapshotEncoding encoding) { impl_->config.snapshot_encoding = encoding; }

const char* ToString(SnapshotEncoding encoding) noexcept {
  return encoding == SnapshotEncoding::kFull ? "full" : "delta";
}

bool Server::SetMaxRewindMs(int max_rewind_ms) {
  if (max_rewind_ms < 0 || max_rewind_ms > protocol::kMaxTagDelayMs) return false;
  impl_->config.max_rewind_ms = max_rewind_ms;
  return true;
}

void Server::SetLink(const transport::LinkSettings& link) {
  impl_->host->SetLink(link);
  impl_->config.link = link;
}

const ServerConfig& Server::config() const { return impl_->config; }

std::span<const sim::PlayerCube> Server::world() const { return impl_->world; }

std::uint32_t Server::tick() const { return static_cast<std::uint32_t>(impl_->tick); }

std::vector<ClientInfo> Server::clients() const {
  const Impl& s = *impl_;
  std::vector<ClientInfo> out;
  out.reserve(s.clients.size());
  for (std::size_t i = 0; i < s.clients.size(); ++i) {
    const Client& c = s.clients[i];
    const InputCounters& inputs = c.inputs.counters();
    ClientInfo info;
    info.id = c.id;
    info.name = c.name;
    if (inputs.processed > 0) info.last_processed_seq = s.world[i].state.last_input;
    info.queued_inputs = c.inputs.size();
    info.input_target = c.inputs.target();
    info.snapshot_rate = c.snapshot_rate > 0 ? std::min(c.snapshot_rate, s.MostSnapshots())
                                             : std::min(s.config.snapshot_rate, s.config.tick_rate);
    info.own_snapshot_rate = c.snapshot_rate > 0;
    info.inputs = inputs;
    info.bytes_sent = c.bytes_sent;
    info.bytes_received = c.bytes_received;
    info.tags_fired = c.tags_fired;
    info.tags_given = c.tags_given;
    info.tags_taken = c.tags_taken;
    info.tags_refused = c.tags_refused;
    out.push_back(std::move(info));
  }
  return out;
}

std::size_t Server::peer_count() const { return impl_->connections.size(); }

std::vector<TagRecord> Server::recent_tags() const {
  const Impl& s = *impl_;
  const std::uint64_t count = std::min<std::uint64_t>(s.tags_recorded, kRecentTags);
  std::vector<TagRecord> out;
  out.reserve(count);
  for (std::uint64_t i = s.tags_recorded - count; i < s.tags_recorded; ++i) out.push_back(s.recent_tags[i % kRecentTags]);
  return out;
}

ServerStats Server::stats() const {
  const Impl& s = *impl_;
  const transport::TransportCounters transport = s.host->counters();

  ServerStats stats;
  stats.ticks = s.ticks_run;
  stats.ticks_skipped = s.ticks_skipped;
  stats.snapshots_sent = s.snapshots_sent;
  stats.tick_durations = Summary(s.tick_durations);
  stats.delta_snapshots_sent = s.delta_snapshots_sent;
  stats.snapshot_encodes = s.snapshot_encodes;
  stats.delta_prediction_moves = s.delta_prediction_moves;
  stats.deltas_declined = s.deltas_declined;
  stats.snapshot_bytes_sent = s.snapshot_bytes_sent;
  stats.snapshot_cube_bits = s.snapshot_cube_bits;
  stats.delta_age_ticks = s.delta_age_ticks;
  stats.clients = s.clients.size();
  stats.clients_peak = s.clients_peak;
  stats.clients_refused = s.clients_refused;
  stats.inputs = s.departed_inputs;
  for (const Client& c : s.clients) stats.inputs += c.inputs.counters();
  stats.packets_malformed = s.packets_malformed;
  stats.tags_judged = s.tags_recorded;
  stats.tags_hit = s.tags_hit;
  stats.tags_refused = s.tags_refused;
  stats.tags_capped = s.tags_capped;
  stats.tags_decided_by_rewind = s.tags_decided_by_rewind;
  stats.rewind_ms_sum = s.rewind_ms_sum;
  stats.rewind_ms_max = s.rewind_ms_max;
  stats.payload_bytes_sent = transport.payload_bytes_sent;
  stats.payload_bytes_received = transport.payload_bytes_received;
  stats.wire_bytes_sent = transport.wire_bytes_sent;
  stats.wire_bytes_received = transport.wire_bytes_received;
  stats.datagrams_filtered = transport.datagrams_filtered;
  stats.receive_errors = transport.receive_errors;
  stats.network_durations = Summary(s.network_durations);
  stats.peers_reset = s.peers_reset + transport.handshakes_reset;
  stats.peers_kicked = s.peers_kicked;
  stats.peers_evicted = transport.unproven_evicted;
  stats.time_echoes_throttled = s.time_echoes_throttled;
  stats.challenges_sent = s.challenges_sent;
  stats.challenges_confirmed = s.challenges_confirmed;
  return stats;
}

}  // namespace netcube::server
