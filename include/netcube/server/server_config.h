#pragma once
// What the owner of a server sets: its configuration (ServerConfig), with the defaults and bounds a flag
// or a panel offers. The live settings change through Server's setters.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "netcube/protocol/messages.h"
#include "netcube/sim/time.h"
#include "netcube/transport/link_conditioner.h"
#include "netcube/transport/network.h"

namespace netcube::server {

// Connection slots beyond max_clients, so that a full server can still say "server full".
inline constexpr std::size_t kSpareConnectionSlots = 8;
// ENet connections from one IP address at once: room for a LAN of players behind one NAT.
inline constexpr std::size_t kDefaultMaxPerAddress = 8;
inline constexpr int kDefaultMaxRewindMs = 500;

// How snapshots are encoded: every cube in full, or against the newest snapshot each client holds.
enum class SnapshotEncoding : std::uint8_t { kFull, kDelta };
const char* ToString(SnapshotEncoding encoding) noexcept;

// Interest management: a cube is relevant to a client within this many units of its own cube (and stays
// so up to kInterestMarginUnits further, so that one at the edge does not flicker in and out). The default
// covers the standard arena from any point in it (its diagonal is 73 units): there every client is sent the
// whole world, as without interest management.
inline constexpr int kDefaultInterestRadiusUnits = 80;
inline constexpr int kMinInterestRadiusUnits = 16;
inline constexpr int kInterestMarginUnits = 16;
// A cube within this many units of a client's cube has its state in every one of the client's snapshots,
// whatever the budget (as long as the cubes this near fit in it): what the player is about to touch.
inline constexpr int kNearUnits = 16;
// The bytes a client's InterestSnapshot may take: one UDP datagram on any internet path (IPv6's smallest
// MTU, 1,280 bytes, less its headers and ENet's).
inline constexpr std::size_t kDefaultSnapshotBudget = 1200;

// Spectators (connections without a cube) a server seats beside its players, by default and at most.
inline constexpr std::size_t kDefaultMaxSpectators = 16;
inline constexpr std::size_t kMaxSpectators = 256;

inline constexpr int kDefaultSpawnSpacingUnits = 8;
inline constexpr int kMaxSpawnSpacingUnits = 32;

struct ServerConfig {
  std::string bind_address = "0.0.0.0";
  std::uint16_t port = 7777;  // 0 = an ephemeral port (read it back with Server::port())
  int tick_rate = 60;         // simulation ticks per second, [1, protocol::kMaxRate]
  int snapshot_rate = 20;     // snapshots per second, [1, protocol::kMaxRate]; capped by tick_rate
  // The most snapshots a second any client may ask for (Source's sv_maxupdaterate), [snapshot_rate,
  // protocol::kMaxRate]; capped by tick_rate. Told in the Welcome and in discovery replies.
  int max_snapshot_rate = protocol::kMaxRate;
  std::size_t max_clients = 32;  // [1, protocol::kMaxPlayers]
  // Spectators seated beside the players, [0, kMaxSpectators]; 0: nobody may watch.
  std::size_t max_spectators = kDefaultMaxSpectators;
  // A spectator's snapshots a second at most (SourceTV's tv_snapshotrate), [1, protocol::kMaxRate]: it
  // gets snapshot_rate or this, the lower, and may ask for up to max_snapshot_rate or this. Told in a
  // spectator's Welcome. No lower than a player's by default: where every client shares the tick's
  // snapshot a spectator at a lower rate holds older baselines, one more encode a tick
  // (docs/decisions/0023); where each gets its own, an operator expecting many spectators halves what
  // they cost in encodes and bytes with half the snapshot rate.
  int spectator_snapshot_rate = protocol::kMaxRate;
  bool collisions = true;  // players push each other apart
  // The walls, whole units on each side within [sim::kMinArenaUnits, sim::kMaxArenaUnits]. Told in the
  // Welcome, in every full snapshot and in discovery replies.
  sim::Arena arena = sim::kStandardArena;
  // Every cube spawns at the same place, on top of any other: with collisions off, compared players
  // (netcube-client --compare) start alike and never touch each other.
  bool shared_spawn = false;
  // While the arena has room, a new cube spawns at least this many units (along x or y) from every other,
  // [1, kMaxSpawnSpacingUnits]. The lab spreads its two players wider than the default, so that a first
  // key press toward the other player is not a collision.
  int spawn_spacing_units = kDefaultSpawnSpacingUnits;
  transport::LinkSettings link;  // the server side's link conditioner, both directions
  std::uint64_t seed = 1;        // the link conditioner's random generator
  // Where the server's host comes from: empty = real UDP through ENet (transport::UdpNetwork()); the lab
  // and the bench hand it an in-memory hub (transport::MemoryNetwork) shared with their clients.
  std::shared_ptr<transport::Network> network;
  // A client that sends no valid message for this long is dropped (PlayerLeft{kTimedOut}), whatever ENet
  // thinks of the connection; ENet's own timeout is the same.
  std::uint32_t peer_timeout_ms = 5000;
  std::size_t max_per_address = kDefaultMaxPerAddress;  // [1, 4095]: see kDefaultMaxPerAddress
  bool lag_compensation = true;  // judge tags against the world as the shooter saw it (off: as it is now)
  int max_rewind_ms = kDefaultMaxRewindMs;  // [0, protocol::kMaxTagDelayMs]
  SnapshotEncoding snapshot_encoding = SnapshotEncoding::kDelta;
  // Interest management: a client to which some cube is not relevant (farther than interest_radius_units,
  // [kMinInterestRadiusUnits, sim::kMaxArenaUnits]) gets an InterestSnapshot of those that are, within
  // snapshot_budget bytes ([protocol::kMinSnapshotBudget, protocol::kMaxPacketBytes]; a client may ask for
  // less); off: every client gets every cube. Off by default: full states of a set cost more bytes and
  // encodes than the shared delta of the whole world unless the set is a small part of it
  // (docs/decisions/0022), so it is the operator's choice, for a large world.
  bool interest = false;
  int interest_radius_units = kDefaultInterestRadiusUnits;
  std::size_t snapshot_budget = kDefaultSnapshotBudget;
  // Each client's inputs wait in a small adaptive buffer, so that a tick applies one step's inputs even
  // when they arrive unevenly (off: a tick applies whatever has arrived, and a late input leaves a dry
  // tick). Snapshots tell each client its input lead either way.
  bool input_buffer = true;
  // Measures tick durations only (empty = not measured). Any monotonic clock.
  std::function<Micros()> work_clock;
  // Where Challenge nonces come from: they must be unpredictable to anyone who does not receive what is
  // sent to the address, so netcube-server draws each from the OS (getrandom). Empty = a generator
  // seeded from `seed`: predictable, for tests, benches and labs on loopback only.
  std::function<std::uint64_t()> nonce_source;
};

}  // namespace netcube::server
