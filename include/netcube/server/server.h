#pragma once
// The authoritative game server: accepts players over the transport, applies each client's inputs exactly
// once and in order at a fixed tick rate (with a rate limit against speed hacks), steps the shared world,
// and sends every client a snapshot of it with the ack of its own last applied input.
//
// Time is a parameter: the owner calls Update(now) often (about every millisecond) and may sleep until
// next_wakeup(). The server never reads a clock, except the optional work_clock that only measures how
// long a tick takes.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "netcube/protocol/messages.h"
#include "netcube/server/server_config.h"
#include "netcube/server/server_stats.h"
#include "netcube/sim/time.h"
#include "netcube/sim/world.h"
#include "netcube/transport/network.h"

namespace netcube::server {

class Server {
 public:
  // Binds the server. nullptr on a bad config or a socket failure, with the reason in `error` unless it is
  // null. Tick 0 is at `now`.
  static std::unique_ptr<Server> Create(const ServerConfig& config, Micros now, std::string* error);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Services the network (time-echo requests are answered at once), then runs every tick that is due,
  // sending snapshots on the ticks that have one. After Shutdown it only services the network.
  void Update(Micros now);
  // Handles transport events exactly as if Update's network service had just received them, without a
  // socket: the receive-path fuzz target (tests/fuzz) feeds connections and packets this way. Whatever
  // the server sends in reply to a peer its transport does not know is discarded.
  void HandleEvents(Micros now, std::span<const transport::Event> events);
  // When the next tick is due; Update should also run about every millisecond to service the network.
  Micros next_wakeup() const;
  // Politely disconnects every peer and flushes. Keep calling Update until peer_count() is 0 (or a short
  // deadline passes) so the goodbyes can be acknowledged.
  void Shutdown(Micros now);

  std::uint16_t port() const;  // the port actually bound

  // Live settings (the GUI lab). A rate out of [1, protocol::kMaxRate] (a snapshot rate above
  // max_snapshot_rate) is refused (returns false). A new
  // tick rate keeps the tick count and takes effect from the last tick's time.
  bool SetTickRate(int tick_rate);
  bool SetSnapshotRate(int snapshot_rate);
  void SetCollisions(bool collisions);
  void SetLink(const transport::LinkSettings& link);
  void SetLagCompensation(bool on);
  bool SetMaxRewindMs(int max_rewind_ms);  // false (unchanged) outside [0, protocol::kMaxTagDelayMs]
  void SetSnapshotEncoding(SnapshotEncoding encoding);
  void SetInputBuffer(bool on);
  void SetInterest(bool on);
  const ServerConfig& config() const;  // with the live settings

  // Read-only views.
  std::span<const sim::PlayerCube> world() const;  // every player's cube, increasing id
  std::uint32_t tick() const;                      // ticks run so far
  std::vector<ClientInfo> clients() const;         // accepted clients, increasing id
  // The same into `out`, reusing its room: a caller polling every frame allocates nothing once it has grown.
  void clients(std::vector<ClientInfo>& out) const;
  std::size_t peer_count() const;  // ENet peers: pending, accepted or closing
  // The relevant set of player `id`'s client into `out` (reusing its room); false when no such player.
  bool interest_of(sim::PlayerId id, InterestInfo& out) const;
  // The last kRecentTags judged tags, oldest first.
  std::vector<TagRecord> recent_tags() const;
  ServerStats stats() const;
  // Starts stats()'s tick and network durations afresh, forgetting those before: a measurement window
  // that opens once the players are in leaves out the ticks their joins cost.
  void RestartDurations();

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace netcube::server
