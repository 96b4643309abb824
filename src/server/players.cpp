#include "players.h"

#include <algorithm>
#include <cassert>
#include <span>
#include <utility>

#include "spawn.h"

namespace netcube::server {
namespace {

// Clients in increasing player id, spectators after: the first not before `id`.
template <class Clients>
auto LowerBound(Clients& clients, sim::PlayerId id) {
  return std::lower_bound(clients.begin(), clients.end(), id, [](const Client& c, sim::PlayerId wanted) {
    return c.player.has_value() && *c.player < wanted;
  });
}

constexpr protocol::Channel kJoinedChannel = protocol::ChannelOf(protocol::MessageType::kPlayerJoined);
constexpr protocol::Channel kLeftChannel = protocol::ChannelOf(protocol::MessageType::kPlayerLeft);

}  // namespace

Players::Players() {
  clients_.reserve(protocol::kMaxPlayers + kMaxSpectators);
  players_.reserve(protocol::kMaxPlayers);
  world_.reserve(protocol::kMaxPlayers);
}

sim::PlayerId Players::Join(Micros now, transport::PeerId peer, const std::string& name,
                            protocol::Welcome welcome, const ServerConfig& config, Outbox& outbox) {
  // The lowest free id: the first gap in the sorted ids.
  std::size_t index = 0;
  while (index < players_.size() && players_[index].id == index) ++index;
  const auto id = static_cast<sim::PlayerId>(index);

  Player player;
  player.inputs = InputQueue(config.tick_rate, config.input_buffer);
  player.id = id;
  player.generation = next_generation_++;
  player.name = name;
  // A shared spawn is the slot of an empty world, whoever is already there.
  const sim::PlayerCube cube{id, SpawnState(config.shared_spawn ? std::span<const sim::PlayerCube>() : world_,
                                            config.spawn_spacing_units, config.arena)};
  players_.insert(players_.begin() + static_cast<std::ptrdiff_t>(index), std::move(player));
  world_.insert(world_.begin() + static_cast<std::ptrdiff_t>(index), cube);
  Client& newcomer = *clients_.insert(LowerBound(clients_, id), Client{peer, id, {}, 0, 0, {}, {}, {}});
  peak_ = std::max(peak_, players_.size());

  welcome.player_id = id;
  outbox.Send(now, peer, &newcomer.bytes_sent, welcome);
  if (!NamedBySet(config)) {
    TellPresent(now, newcomer, outbox);
    protocol::PlayerJoined joined;
    joined.players.push_back({id, name});
    const std::span<const std::uint8_t> packet = outbox.Encode(joined);
    for (Client& client : clients_) {
      if (client.named.Has(id)) continue;  // the newcomer
      client.named.Add(id);
      outbox.SendPacket(now, client.peer, &client.bytes_sent, kJoinedChannel, packet);
    }
  }
  return id;
}

void Players::Leave(Micros now, sim::PlayerId id, protocol::LeaveReason reason, bool announce,
                    Outbox& outbox) {
  const std::optional<std::size_t> index = IndexOf(id);
  assert(index && "only a player leaves");
  departed_inputs_ += players_[*index].inputs.counters();
  players_.erase(players_.begin() + static_cast<std::ptrdiff_t>(*index));
  world_.erase(world_.begin() + static_cast<std::ptrdiff_t>(*index));
  clients_.erase(LowerBound(clients_, id));
  const std::span<const std::uint8_t> packet = outbox.Encode(protocol::PlayerLeft{id, reason});
  for (Client& client : clients_) {
    // Told or not, it forgets the id: a player who takes it next is told of anew.
    if (client.named.Remove(id) && announce) {
      outbox.SendPacket(now, client.peer, &client.bytes_sent, kLeftChannel, packet);
    }
  }
}

void Players::Name(Micros now, Client& client, std::span<const sim::PlayerId> ids, Outbox& outbox) {
  // Every snapshot of every client asks; mostly it was told of them all, and no message is made.
  const auto told = [&client](sim::PlayerId id) { return client.named.Has(id); };
  if (std::all_of(ids.begin(), ids.end(), told)) return;
  protocol::PlayerJoined message;
  const auto send = [&] {
    if (!message.players.empty()) outbox.Send(now, client.peer, &client.bytes_sent, message);
    message.players.clear();
  };
  for (const sim::PlayerId id : ids) {
    if (told(id)) continue;
    const std::optional<std::size_t> index = IndexOf(id);
    if (!index) continue;
    client.named.Add(id);
    message.players.push_back({id, players_[*index].name});
    if (message.players.size() == protocol::kMaxJoinedPerMessage) send();
  }
  send();
}

void Players::TellPresent(Micros now, Client& client, Outbox& outbox) {
  ids_.clear();
  for (const Player& player : players_) ids_.push_back(player.id);
  Name(now, client, ids_, outbox);
}

void Players::Watch(Micros now, transport::PeerId peer, protocol::Welcome welcome, const ServerConfig& config,
                    Outbox& outbox) {
  Client& spectator = clients_.emplace_back();
  spectator.peer = peer;
  welcome.player_id = 0;
  outbox.Send(now, peer, &spectator.bytes_sent, welcome);
  if (!NamedBySet(config)) TellPresent(now, spectator, outbox);
}

void Players::Unwatch(transport::PeerId peer) {
  const Client* spectator = FindSpectator(peer);
  assert(spectator != nullptr && "only a spectator stops watching");
  clients_.erase(clients_.begin() + (spectator - clients_.data()));
}

Client* Players::FindSpectator(transport::PeerId peer) {
  const auto spectators = clients_.begin() + static_cast<std::ptrdiff_t>(players_.size());
  const auto it =
      std::find_if(spectators, clients_.end(), [peer](const Client& client) { return client.peer == peer; });
  return it != clients_.end() ? &*it : nullptr;
}

Client* Players::FindClient(sim::PlayerId id) {
  const std::optional<std::size_t> index = IndexOf(id);
  return index ? &clients_[*index] : nullptr;
}

const Client* Players::FindClient(sim::PlayerId id) const {
  // Searched in the world (a few words a cube), not among the clients (hundreds of bytes each): a player's
  // client shares its cube's index.
  const std::optional<std::size_t> index = IndexOf(id);
  return index ? &clients_[*index] : nullptr;
}

const Client* Players::Followed(const Client& spectator) const {
  const std::optional<protocol::Viewpoint>& viewpoint = spectator.viewpoint;
  return !spectator.player && viewpoint && viewpoint->follow ? FindClient(viewpoint->player_id) : nullptr;
}

Player* Players::PlayerOf(const Client& client) {
  const std::optional<std::size_t> index = client.player ? IndexOf(*client.player) : std::nullopt;
  return index ? &players_[*index] : nullptr;
}

std::optional<std::size_t> Players::IndexOf(sim::PlayerId id) const {
  // The world's cubes share the players' order and are a few words each: fewer cache lines to search.
  const auto it =
      std::lower_bound(world_.begin(), world_.end(), id,
                       [](const sim::PlayerCube& p, sim::PlayerId wanted) { return p.id < wanted; });
  if (it == world_.end() || it->id != id) return std::nullopt;
  return static_cast<std::size_t>(it - world_.begin());
}

InputCounters Players::AllInputs() const noexcept {
  InputCounters all = departed_inputs_;
  for (const Player& player : players_) all += player.inputs.counters();
  return all;
}

void Players::Info(std::size_t index, ClientInfo& info) const {
  const Player& player = players_[index];
  const Client& client = *FindClient(player.id);
  info.id = player.id;
  info.name = player.name;  // assigned into the caller's string: no allocation once it has grown
  info.last_processed_seq.reset();
  if (HasAck(index)) info.last_processed_seq = world_[index].state.last_input;
  info.queued_inputs = player.inputs.size();
  info.input_target = player.inputs.target();
  info.own_snapshot_rate = client.feed.rate > 0;
  info.inputs = player.inputs.counters();
  info.bytes_sent = client.bytes_sent;
  info.bytes_received = client.bytes_received;
  info.tags_fired = player.tags_fired;
  info.tags_given = player.tags_given;
  info.tags_taken = player.tags_taken;
  info.tags_refused = player.tags_refused;
}

}  // namespace netcube::server
