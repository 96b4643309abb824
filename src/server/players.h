#pragma once
// The server's room for the game's people: the clients (accepted connections, each fed snapshots) and the
// players among them (a player is the role of a client that controls a cube), with the world of their
// cubes. A client without a player is a spectator: it is fed snapshots and told who joins and leaves, and
// controls nothing. A client is told of a player (its name) when it joins, or, with interest management,
// when its cube first comes into the client's relevant set, and of its leaving when it was told of it,
// through the Outbox the caller hands in.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "input_queue.h"
#include "interest.h"
#include "netcube/protocol/recent_ticks.h"
#include "netcube/server/server_config.h"
#include "netcube/server/server_stats.h"
#include "outbox.h"
#include "rate_budget.h"
#include "tuning.h"

namespace netcube::server {

struct PendingTag {
  protocol::Tag tag;
  Micros received{0};
};

// The role of a client that controls a cube: its inputs and its tags.
struct Player {
  sim::PlayerId id = 0;
  std::uint32_t generation = 0;  // which player holds the id (ids are reused): for delta baselines
  std::string name;
  InputQueue inputs;
  // At most one tag waits for its input; the cooldown is a virtual schedule (GCRA): a tag is on time
  // when it comes no earlier than kTagBurstTolerance before tag_due, and pushes tag_due one cooldown on.
  std::optional<PendingTag> pending_tag;
  Micros tag_due{0};
  std::uint64_t tags_fired = 0;
  std::uint64_t tags_given = 0;
  std::uint64_t tags_taken = 0;
  std::uint64_t tags_refused = 0;
};

// What the snapshots room keeps of each client it feeds.
struct SnapshotFeed {
  // The snapshot rate the client asked for (SnapshotRate; it gets the tick rate at most), 0 while it takes
  // the server's. Its own credit, as the server's; due: it gets this tick's snapshot. First, with the
  // client's player and viewpoint before them: every tick reads these of every client, one cache line each.
  int rate = 0;
  int credit = 0;
  bool phased = false;  // its credit started at a phase of its own (Snapshots::MarkDue, staggered)
  bool due = false;
  // The ticks of the recent snapshots sent to it. A client may only name one of these as its baseline
  // (an older one would be too old for a delta: protocol::kHeldBaselines).
  protocol::RecentTicks sent;
  // The ticks it told of: it held each when it told, and keeps it for protocol::kHeldBaselines snapshots
  // more, so a delta may be made against any of those (a snapshot sent may have been lost, one told of was
  // not). A feed is a few words: the snapshots room goes over every client's each tick.
  protocol::RecentTicks told;
  // The same of its InterestSnapshots: a member's state may be predicted from one the client told of.
  protocol::RecentTicks interest_sent;
  protocol::RecentTicks interest_told;
  // The bytes it asked its InterestSnapshots to keep within (SnapshotBudget), 0 while it takes the server's.
  std::size_t budget = 0;
  // The shared snapshots in a row it was sent without a fresh enough kept baseline (SnapshotEncoder), at
  // most protocol::kHeldBaselines: the client that waited longest is served first.
  std::uint32_t unserved = 0;
};

// The players a client was told of (PlayerJoined) and not yet of their leaving, by id.
class NamedPlayers {
 public:
  bool Has(sim::PlayerId id) const noexcept {
    return !bits_.empty() && ((bits_[id / 64] >> (id % 64)) & 1u) != 0;
  }
  void Add(sim::PlayerId id) {
    if (bits_.empty()) bits_.resize(kWords);
    bits_[id / 64] |= std::uint64_t{1} << (id % 64);
  }
  // Whether it was told of `id`, which it is not any more.
  bool Remove(sim::PlayerId id) noexcept {
    const bool had = Has(id);
    if (had) bits_[id / 64] &= ~(std::uint64_t{1} << (id % 64));
    return had;
  }

 private:
  static constexpr std::size_t kWords = (protocol::kMaxPlayers + 63) / 64;
  std::vector<std::uint64_t> bits_;  // on the heap, made at the first: records move at every join and leave
};

// An accepted connection in the game.
struct Client {
  transport::PeerId peer = 0;
  std::optional<sim::PlayerId> player;  // the cube it controls; empty for a spectator
  // A spectator's camera (Viewpoint), where its relevant set is chosen around; empty: the arena's centre.
  std::optional<protocol::Viewpoint> viewpoint;
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
  SnapshotFeed feed;
  InterestView interest;
  NamedPlayers named;
  RateBudget bystander_hits{kBystanderHitsPerSecond, kBystanderHitsPerSecond};  // other players' hits told
};

class Players {
 public:
  Players();

  // Seats the client of `peer` as a player at the lowest free id, its cube at a spawn slot, and tells it
  // `welcome` (with its id). Unless players are named by set (NamedBySet), it is told of every player
  // present, and the others of it.
  sim::PlayerId Join(Micros now, transport::PeerId peer, const std::string& name, protocol::Welcome welcome,
                     const ServerConfig& config, Outbox& outbox);
  // The player, its cube and its client leave; the clients told of it are told it left unless `announce`
  // is false.
  void Leave(Micros now, sim::PlayerId id, protocol::LeaveReason reason, bool announce, Outbox& outbox);
  // Seats the client of `peer` as a spectator and tells it `welcome` (a spectator's), then, unless players
  // are named by set, every player present. Nobody else is told: a spectator is in nobody's world.
  void Watch(Micros now, transport::PeerId peer, protocol::Welcome welcome, const ServerConfig& config,
             Outbox& outbox);
  // Whether a client is told of a player only once its cube comes into the client's relevant set: where
  // interest management may leave cubes out of it.
  static bool NamedBySet(const ServerConfig& config) noexcept { return !Interest::EveryCubeRelevant(config); }
  // Tells `client` of the players of `ids` (increasing) it was not told of, a few to a message.
  void Name(Micros now, Client& client, std::span<const sim::PlayerId> ids, Outbox& outbox);
  // Tells `client` of every player present it was not told of, in increasing id: a few messages, not one
  // a player.
  void TellPresent(Micros now, Client& client, Outbox& outbox);
  // The spectator of `peer` leaves.
  void Unwatch(transport::PeerId peer);

  Client* FindClient(sim::PlayerId id);
  const Client* FindClient(sim::PlayerId id) const;
  // The client of the player a spectator follows (its Viewpoint), when that player is there; else null.
  const Client* Followed(const Client& spectator) const;
  Client* FindSpectator(transport::PeerId peer);
  std::size_t spectators() const noexcept { return clients_.size() - players_.size(); }
  // The player `client` plays as; null for a spectator.
  Player* PlayerOf(const Client& client);
  // The player's index in players() and world().
  std::optional<std::size_t> IndexOf(sim::PlayerId id) const;

  // Increasing player id (spectators after); players_[i] controls world_[i]: that pairing is what a player
  // is.
  std::vector<Client>& clients() noexcept { return clients_; }
  const std::vector<Client>& clients() const noexcept { return clients_; }
  std::vector<Player>& players() noexcept { return players_; }
  const std::vector<Player>& players() const noexcept { return players_; }
  std::vector<sim::PlayerCube>& world() noexcept { return world_; }
  const std::vector<sim::PlayerCube>& world() const noexcept { return world_; }

  // Whether the player's cube has had an input applied, so snapshots carry its ack.
  bool HasAck(std::size_t index) const noexcept { return players_[index].inputs.counters().processed > 0; }
  // What the inputs of every player, present and departed, became.
  InputCounters AllInputs() const noexcept;
  std::size_t peak() const noexcept { return peak_; }
  // The view of one player for tools, all but its snapshot rate.
  void Info(std::size_t index, ClientInfo& info) const;

 private:
  std::vector<Client> clients_;
  std::vector<Player> players_;
  std::vector<sim::PlayerCube> world_;
  std::uint32_t next_generation_ = 0;
  std::size_t peak_ = 0;
  InputCounters departed_inputs_;   // of players that have left
  std::vector<sim::PlayerId> ids_;  // TellPresent's
};

}  // namespace netcube::server
