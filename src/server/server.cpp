#include "netcube/server/server.h"

#include <algorithm>
#include <string>
#include <utility>

#include "admission.h"
#include "config.h"
#include "duration_histogram.h"
#include "netcube/transport/host.h"
#include "outbox.h"
#include "players.h"
#include "simulation.h"
#include "snapshots.h"
#include "tags.h"
#include "tuning.h"

namespace netcube::server {
namespace {

transport::HostConfig HostConfigFor(const ServerConfig& config) {
  transport::HostConfig host_config;
  host_config.bind_address = config.bind_address;
  host_config.port = config.port;
  host_config.max_peers =
      config.max_clients + config.max_spectators + kSpareConnectionSlots + kHandshakeSlots;
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

// The conductor: the network's events go to the room that owns them, and each due tick walks through the
// simulation, the tags and the snapshots. What a room says goes out through the outbox; a player whose
// connection ends comes back from admission through `Leave`.
struct Server::Impl {
  Impl(const ServerConfig& cfg, std::unique_ptr<transport::Host> h, Micros now)
      : config(cfg),
        host(std::move(h)),
        outbox(*host),
        admission(config, *host),
        simulation(now, cfg.tick_rate) {}

  ServerConfig config;
  std::unique_ptr<transport::Host> host;
  Outbox outbox;
  Admission admission;
  Players players;
  Simulation simulation;
  Snapshots snapshots;
  Tags tags;
  bool shutting_down = false;

  // Reused every Update, so that the steady state allocates nothing here.
  std::vector<transport::Event> events;
  protocol::Message decoded;  // every received message, decoded in place

  DurationHistogram tick_durations;
  DurationHistogram network_durations;
  Micros network_time{0};  // servicing the network since the last tick, by work_clock

  void ServiceNetwork(Micros now);
  void TimedServiceNetwork(Micros now);
  void HandleEvents(Micros now, std::span<const transport::Event> received);
  void OnReceived(Micros now, const transport::Event& event);
  // Hands a message of `connection` to its room; false when it may not send it now.
  bool Dispatch(Micros now, transport::PeerId peer, Connection& connection, Client* client,
                const protocol::Message& message, const Admission::Leave& leave);
  void OnChallengeResponse(Micros now, transport::PeerId peer, Connection& connection);
  // A player whose connection ended leaves the game; the others are told unless the server shuts down. A
  // spectator just goes.
  Admission::Leave LeaveAt(Micros now) {
    return [this, now](const Seat& seat, protocol::LeaveReason reason) {
      if (seat.player) {
        players.Leave(now, *seat.player, reason, !shutting_down, outbox);
      } else {
        players.Unwatch(seat.peer);
      }
    };
  }
  void RunDueTicks(Micros now);
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
        admission.OnConnected(now, event.peer, shutting_down);
        break;
      case transport::EventType::kDisconnected:
        if (const std::optional<Seat> seat = admission.OnDisconnected(event.peer)) {
          LeaveAt(now)(*seat, event.timed_out ? protocol::LeaveReason::kTimedOut
                                              : protocol::LeaveReason::kDisconnected);
        }
        break;
      case transport::EventType::kReceived:
        OnReceived(now, event);
        break;
    }
  }
}

void Server::Impl::OnReceived(Micros now, const transport::Event& event) {
  const Admission::Leave leave = LeaveAt(now);
  Connection* connection = admission.Receive(now, event.peer, leave);
  if (connection == nullptr) return;
  Client* client = nullptr;
  if (connection->state == PeerState::kAccepted) {
    client =
        connection->spectate ? players.FindSpectator(event.peer) : players.FindClient(connection->player);
  }
  if (client != nullptr) client->bytes_received += event.data.size();

  const bool decodable = protocol::Decode(event.data, decoded) == protocol::DecodeError::kNone;
  const bool valid = decodable && protocol::ChannelOf(protocol::TypeOf(decoded)) == event.channel;
  if (valid && Dispatch(now, event.peer, *connection, client, decoded, leave)) return;
  // Undecodable, on the wrong channel, a server-to-client message, out of turn (input or TimeEcho before
  // being accepted, a second ConnectRequest), a wrong nonce, or an input sequence jumping beyond reach:
  // dropped.
  admission.OnMalformed(now, event.peer, *connection, event.channel, decodable, outbox, leave);
}

bool Server::Impl::Dispatch(Micros now, transport::PeerId peer, Connection& connection, Client* client,
                            const protocol::Message& message, const Admission::Leave& leave) {
  if (const auto* request = std::get_if<protocol::ConnectRequest>(&message)) {
    if (connection.state != PeerState::kPending) return false;
    admission.OnConnectRequest(now, peer, connection, *request, outbox);
    return true;
  }
  if (const auto* response = std::get_if<protocol::ChallengeResponse>(&message)) {
    if (connection.state != PeerState::kChallenged || response->nonce != connection.nonce) return false;
    OnChallengeResponse(now, peer, connection);
    return true;
  }
  // The rest come from clients, inputs and tags from players only; each is bound to the sending peer: an
  // input can only ever move the sender's own cube.
  if (client == nullptr) return false;
  const std::uint64_t tick = simulation.tick();
  if (const auto* ack = std::get_if<protocol::SnapshotAck>(&message)) {
    Snapshots::OnSeen(client->feed, tick, ack->seen_tick);
  } else if (const auto* rate = std::get_if<protocol::SnapshotRate>(&message)) {
    client->feed.rate = rate->rate;
  } else if (const auto* budget = std::get_if<protocol::SnapshotBudget>(&message)) {
    client->feed.budget = budget->bytes;
  } else if (const auto* viewpoint = std::get_if<protocol::Viewpoint>(&message)) {
    // A spectator's only; a point must lie on the arena (a player that is not there is followed once it is).
    const bool on_arena = viewpoint->follow || (viewpoint->x_units < config.arena.width_units() &&
                                                viewpoint->y_units < config.arena.height_units());
    if (client->player || !on_arena) return false;
    client->viewpoint = *viewpoint;
  } else if (const auto* echo = std::get_if<protocol::TimeEcho>(&message); echo != nullptr && !echo->reply) {
    connection.last_heard = now;
    if (admission.TakeTimeEcho(now, peer, connection, leave)) {
      outbox.Send(now, peer, &client->bytes_sent,
                  protocol::TimeEcho{true, echo->client_time_us, static_cast<std::uint32_t>(tick)});
    }
    return true;
  } else if (const auto* input = std::get_if<protocol::InputMessage>(&message)) {
    Player* player = players.PlayerOf(*client);
    if (player == nullptr || !player->inputs.WithinReach(input->inputs.back().seq)) return false;
    for (const sim::Input& one : input->inputs) player->inputs.Receive(one);
    Snapshots::OnSeen(client->feed, tick, input->seen_tick);
  } else if (const auto* tag = std::get_if<protocol::Tag>(&message)) {
    Player* player = players.PlayerOf(*client);
    if (player == nullptr) return false;
    tags.OnTag(now, *player, *client, *tag, outbox);
  } else {
    return false;
  }
  connection.last_heard = now;
  return true;
}

void Server::Impl::OnChallengeResponse(Micros now, transport::PeerId peer, Connection& connection) {
  const bool full = connection.spectate ? players.spectators() >= config.max_spectators
                                        : players.players().size() >= config.max_clients;
  if (!admission.OnChallengeResponse(now, peer, connection, full, outbox)) return;
  const protocol::Welcome welcome =
      WelcomeFor(config, simulation.rate(), simulation.tick(), connection.spectate);
  if (connection.spectate) {
    players.Watch(now, peer, welcome, config, outbox);
    admission.Seated(now, connection, std::nullopt);
    return;
  }
  const sim::PlayerId id = players.Join(now, peer, connection.name, welcome, config, outbox);
  admission.Seated(now, connection, id);
}

// --- Ticks -----------------------------------------------------------------------------------------------

void Server::Impl::RunDueTicks(Micros now) {
  const std::uint64_t last_due = simulation.LastDue(now);
  // The tick's time is the simulation's, the tags' and the snapshot's encoding; handing each client its
  // packet is the network's, with the servicing since the last tick.
  const auto work_now = [this] { return config.work_clock ? config.work_clock() : Micros(0); };
  while (simulation.tick() < last_due) {
    const Micros started = work_now();
    simulation.Step(players, config.collisions, config.arena);
    snapshots.Record(simulation.tick(), players, simulation.history(), simulation.arrivals(),
                     simulation.steps(), config);
    tags.JudgeDue(now, players, simulation.history(), config);
    const bool snapshot_due = snapshots.MarkDue(players, config, simulation.rate());
    if (snapshot_due) {
      snapshots.Prepare(simulation.tick(), players, simulation.history(), config);
    }
    const Micros simulated = work_now();
    tags.SendResults(now, players, outbox);
    if (snapshot_due) snapshots.Send(now, simulation.tick(), players, config, outbox);
    if (config.work_clock) {
      tick_durations.Add(simulated - started);
      network_time += work_now() - simulated;
      network_durations.Add(std::exchange(network_time, Micros(0)));
    }
  }
}

// --- Server ----------------------------------------------------------------------------------------------

std::unique_ptr<Server> Server::Create(const ServerConfig& config, Micros now, std::string* error) {
  // `error` is optional; the transport's is not, so its reason goes through `problem`.
  std::string problem = CheckConfig(config);
  std::unique_ptr<transport::Host> host;
  transport::Network& network = config.network ? *config.network : *transport::UdpNetwork();
  if (problem.empty()) host = network.Listen(HostConfigFor(config), &problem);
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
  s.TimedServiceNetwork(now);  // admission, players and what they say
  if (s.shutting_down) return;
  s.admission.ResetSilentPeers(now, s.LeaveAt(now));
  const std::uint64_t before = s.simulation.tick();
  s.RunDueTicks(now);  // simulation, tags, snapshots
  // Hand this tick's snapshots to the network now rather than at the next Update.
  if (s.simulation.tick() != before) s.TimedServiceNetwork(now);
}

void Server::HandleEvents(Micros now, std::span<const transport::Event> events) {
  impl_->HandleEvents(now, events);
}

Micros Server::next_wakeup() const { return impl_->simulation.TimeOf(impl_->simulation.tick() + 1); }

void Server::Shutdown(Micros now) {
  Impl& s = *impl_;
  if (s.shutting_down) return;
  s.shutting_down = true;
  s.admission.CloseAll(now);
  s.ServiceNetwork(now);
  s.host->Flush();
}

std::uint16_t Server::port() const { return impl_->host->port(); }

bool Server::SetTickRate(int tick_rate) {
  if (!ValidRate(tick_rate)) return false;
  Impl& s = *impl_;
  s.simulation.SetRate(tick_rate);
  s.config.tick_rate = tick_rate;
  s.snapshots.OnTickRate(tick_rate, s.players.clients());
  for (Player& player : s.players.players()) player.inputs.SetTickRate(tick_rate);
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
  for (Player& player : impl_->players.players()) player.inputs.SetBuffered(on);
}

void Server::SetInterest(bool on) { impl_->config.interest = on; }

void Server::SetSnapshotEncoding(SnapshotEncoding encoding) { impl_->config.snapshot_encoding = encoding; }

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

std::span<const sim::PlayerCube> Server::world() const { return impl_->players.world(); }

std::uint32_t Server::tick() const { return static_cast<std::uint32_t>(impl_->simulation.tick()); }

std::vector<ClientInfo> Server::clients() const {
  std::vector<ClientInfo> out;
  clients(out);
  return out;
}

void Server::clients(std::vector<ClientInfo>& out) const {
  const Impl& s = *impl_;
  out.resize(s.players.players().size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    ClientInfo& info = out[i];
    s.players.Info(i, info);
    info.snapshot_rate = Snapshots::RateOf(*s.players.FindClient(info.id), s.config, s.config.tick_rate);
  }
}

bool Server::interest_of(sim::PlayerId id, InterestInfo& out) const {
  const Impl& s = *impl_;
  const Client* client = s.players.FindClient(id);
  if (client == nullptr) return false;
  Interest::Describe(s.simulation.tick(), *client, s.players, s.config, out);
  return true;
}

std::size_t Server::peer_count() const { return impl_->admission.size(); }

std::vector<TagRecord> Server::recent_tags() const { return impl_->tags.Recent(); }

ServerStats Server::stats() const {
  const Impl& s = *impl_;
  ServerStats stats;
  static_cast<TickCounters&>(stats) = s.simulation.counters();
  static_cast<SnapshotCounters&>(stats) = s.snapshots.counters();
  static_cast<AdmissionCounters&>(stats) = s.admission.counters();
  static_cast<TagCounters&>(stats) = s.tags.counters();
  stats.tick_durations = s.tick_durations.Summary();
  stats.network_durations = s.network_durations.Summary();
  stats.clients = s.players.players().size();
  stats.spectators = s.players.spectators();
  stats.clients_peak = s.players.peak();
  stats.inputs = s.players.AllInputs();
  // The transport's counters, under the server's names.
  const transport::TransportCounters transport = s.host->counters();
  stats.payload_bytes_sent = transport.payload_bytes_sent;
  stats.payload_bytes_received = transport.payload_bytes_received;
  stats.wire_bytes_sent = transport.wire_bytes_sent;
  stats.wire_bytes_received = transport.wire_bytes_received;
  stats.datagrams_filtered = transport.datagrams_filtered;
  stats.receive_errors = transport.receive_errors;
  stats.peers_reset += transport.handshakes_reset;
  stats.peers_evicted = transport.unproven_evicted;
  return stats;
}

void Server::RestartDurations() {
  impl_->tick_durations = {};
  impl_->network_durations = {};
  impl_->network_time = Micros(0);
}

}  // namespace netcube::server
