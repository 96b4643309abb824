#pragma once
// The server's room for snapshots: which clients a tick's snapshot is due to (the server's rate, or the
// one each asked for), the snapshots each was sent and told of, and each one's packet (the encoder's
// encoding for its baseline, with its own ack) handed to the Outbox.
#include <cstdint>
#include <span>
#include <vector>

#include "interest.h"
#include "netcube/server/server_config.h"
#include "netcube/server/server_stats.h"
#include "outbox.h"
#include "players.h"
#include "snapshot_encoder.h"
#include "world_history.h"

namespace netcube::server {

class Snapshots {
 public:
  // The snapshots a second `client` gets: what it asked for, or the usual (a spectator's own cap on both).
  static int RateOf(const Client& client, const ServerConfig& config, int tick_rate) noexcept;
  // The client says it holds the snapshot of the tick whose low 16 bits are `seen_tick`.
  static void OnSeen(SnapshotFeed& feed, std::uint64_t tick, std::uint16_t seen_tick) noexcept;
  // Keeps every credit short of one snapshot at the new tick rate.
  void OnTickRate(int tick_rate, std::vector<Client>& clients) noexcept;

  // The world after `tick` (SnapshotEncoder::Record, Interest::Record).
  void Record(std::uint64_t tick, const Players& players, const WorldHistory& history,
              std::span<const sim::PlayerCube> arrivals, std::span<const sim::PlayerStep> steps,
              const ServerConfig& config) {
    encoder_.Record(tick, players.world(), history, arrivals, steps, config.collisions);
    interest_.Record(tick, players, config);
  }
  // Advances the snapshot credits; false if no client gets a snapshot this tick. Staggered when clients may
  // get snapshots encoded for each alone (Interest::MayEncodeEach): each client keeps its own credit,
  // started at a phase of its own, so that those encodes are spread over the ticks of a snapshot interval
  // instead of all falling on one, except a spectator following a player, which takes some of that
  // player's; else those at the server's rate share its credit, and its snapshot, encoded once for them all,
  // and a spectator below that rate takes some of those.
  bool MarkDue(Players& players, const ServerConfig& config, int tick_rate) noexcept;
  // Chooses each due client's relevant set (Interest::Select), and encodes the snapshot of the
  // world after `tick` for those that see all of it (SnapshotEncoder::Prepare).
  void Prepare(std::uint64_t tick, Players& players, const WorldHistory& history,
               const ServerConfig& config) {
    interest_.Select(tick, players.clients(), players, config);
    encoder_.Prepare(tick, players, history, config.snapshot_encoding, config.arena);
  }
  // The snapshots Prepare encoded, each with its receiver's ack, and every other due client's
  // InterestSnapshot.
  void Send(Micros now, std::uint64_t tick, Players& players, const ServerConfig& config, Outbox& outbox);

  const SnapshotCounters& counters() const noexcept { return counters_; }

 private:
  void SendPacket(Micros now, Client& client, std::span<const std::uint8_t> packet, Outbox& outbox);

  int credit_ = 0;                // += the server's snapshot rate per tick; a snapshot each time it reaches
                                  // the tick rate
  std::uint64_t next_phase_ = 0;  // the next client's phase, staggered
  bool named_by_set_ = false;     // at the last Send (Players::NamedBySet)
  SnapshotCounters counters_;
  SnapshotEncoder encoder_{counters_};
  Interest interest_{counters_};
};

}  // namespace netcube::server
