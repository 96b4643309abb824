#pragma once
// The server's room for snapshots: which clients a tick's snapshot is due to (the server's rate, or the
// one each asked for), the baselines they say they hold, and each distinct baseline's encoding made once
// (a delta against the world history, or the full world), then handed to each receiver with its own ack
// through the Outbox.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "netcube/server/server.h"
#include "outbox.h"
#include "players.h"
#include "world_history.h"

namespace netcube::server {

class Snapshots {
 public:
  Snapshots();

  // The snapshots a second `feed` gets.
  static int RateOf(const SnapshotFeed& feed, const ServerConfig& config, int tick_rate) noexcept;
  // The client says it holds the snapshot of the tick whose low 16 bits are `seen_tick`.
  static void OnSeen(SnapshotFeed& feed, std::uint64_t tick, std::uint16_t seen_tick) noexcept;
  // Keeps every credit short of one snapshot at the new tick rate.
  void OnTickRate(int tick_rate, std::vector<Client>& clients) noexcept;

  // Advances the snapshot credits; false if no client gets a snapshot this tick.
  bool MarkDue(std::vector<Client>& clients, const ServerConfig& config, int tick_rate) noexcept;
  // Groups the clients due a snapshot by baseline and encodes each group's snapshot of the world after
  // `tick` once.
  void Prepare(std::uint64_t tick, const Players& players, const WorldHistory& history,
               const protocol::TurnLog& turns, SnapshotEncoding encoding);
  // The snapshots Prepare encoded, each with its receiver's ack.
  void Send(Micros now, std::uint64_t tick, Players& players, Outbox& outbox);

  const SnapshotCounters& counters() const noexcept { return counters_; }

 private:
  static constexpr std::uint64_t kNoBaseline = std::numeric_limits<std::uint64_t>::max();

  // A client due the snapshot, and its encoding.
  struct Receiver {
    std::uint64_t baseline = 0;  // kNoBaseline: a full snapshot
    std::size_t client = 0;
    std::size_t group = 0;  // its encoding in writers_
    friend bool operator<(const Receiver& a, const Receiver& b) noexcept { return a.baseline < b.baseline; }
  };

  // The baseline tick of a client's next snapshot, kNoBaseline for a full one.
  static std::uint64_t BaselineFor(const SnapshotFeed& feed, std::uint64_t tick, const WorldHistory& history,
                                   SnapshotEncoding encoding);
  // Brings the receivers' distinct baselines down to kMaxDeltaEncodes: in increasing order they are cut
  // into runs of about equal receivers (a baseline with that many alone is a run of its own; those older
  // than protocol::kHeldBaselines make one run), and each receiver of a run gets its oldest baseline when
  // it was sent it and still holds it, else the newest older run's baseline it holds (a client at 20
  // snapshots a second was sent a third of the ticks a 60-a-second one names), else the full snapshot.
  // `receivers_` is sorted by baseline, and stays so.
  void ShareBaselines(std::uint64_t tick, const std::vector<Client>& clients);
  // Prepares `writer` for receivers of `baseline`; true for a delta, false for a full snapshot.
  bool PrepareOne(std::uint64_t tick, std::span<const sim::PlayerCube> world, const WorldHistory& history,
                  const protocol::TurnLog& turns, std::uint64_t baseline, protocol::SnapshotWriter& writer);

  int credit_ = 0;  // += the server's snapshot rate per tick; a snapshot each time it reaches the tick rate
  // A snapshot's encodings, one per distinct baseline among the clients (on a LAN nearly all share one):
  // made inside the tick, handed to each client after it.
  std::vector<Receiver> receivers_;
  std::vector<protocol::SnapshotWriter> writers_;  // capacity kMaxPlayers, grown to the most groups seen
  std::array<bool, protocol::kMaxPlayers> group_is_delta_{};
  protocol::DeltaSnapshot delta_;
  std::array<std::uint32_t, protocol::kMaxPlayers> generations_{};  // of the world's cubes, at a snapshot
  SnapshotCounters counters_;
};

}  // namespace netcube::server
