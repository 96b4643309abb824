#pragma once
// The server's one encoder of snapshots: the log a delta is made from (every cube's Moves, and the cubes
// that came and went, fed each tick), the baselines the clients due a snapshot say they hold, the few
// baselines it keeps given to them (each one's replay, extended tick by tick), and each kept baseline's
// delta made once (or the full world): the encodings the snapshots room hands to each receiver with its
// own ack.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "netcube/protocol/recent_ticks.h"
#include "netcube/protocol/replay.h"
#include "netcube/protocol/snapshot_writer.h"
#include "netcube/server/server_config.h"
#include "netcube/server/server_stats.h"
#include "players.h"
#include "tuning.h"
#include "world_history.h"

namespace netcube::server {

class SnapshotEncoder {
 public:
  // The encoder counts its encodes and the deltas it declined in `counters`.
  explicit SnapshotEncoder(SnapshotCounters& counters);

  // The world after `tick` (its players' generations as `history` recorded them, the cubes that came
  // before its step, the steps that moved them): each cube's Moves logged, so a delta names them since its
  // baseline.
  void Record(std::uint64_t tick, std::span<const sim::PlayerCube> world, const WorldHistory& history,
              std::span<const sim::PlayerCube> arrivals, std::span<const sim::PlayerStep> steps,
              bool collisions);
  // Gives each client due the shared snapshot (its relevant set the whole world) a kept baseline it holds
  // (its newest, or one shared with others when encodes are dear), keeping one more when some hold none fresh
  // enough, and encodes each kept baseline's delta of the world after `tick` (in `arena`) once.
  void Prepare(std::uint64_t tick, const Players& players, const WorldHistory& history,
               SnapshotEncoding encoding, const sim::Arena& arena);

  static constexpr std::uint64_t kNoBaseline = std::numeric_limits<std::uint64_t>::max();
  // A client due the snapshot, and its encoding.
  struct Receiver {
    std::uint64_t baseline = 0;  // kNoBaseline: a full snapshot
    std::size_t client = 0;
    std::size_t group = 0;       // its encoding in writers_
    std::uint64_t seen = 0;      // the newest baseline it holds; kNoBaseline: none
    std::uint32_t unserved = 0;  // its feed's, before this snapshot
    bool fresh = false;          // its baseline is fresh enough (Prepare's last say)
    // Its feed's: the ticks it told of. A copy, beside the rest: the baselines are chosen going over the
    // receivers in the order of their `seen`, not of the clients.
    protocol::RecentTicks told;
    friend bool operator<(const Receiver& a, const Receiver& b) noexcept { return a.baseline < b.baseline; }
  };
  // The receivers of the last Prepare, each with its encoding.
  std::span<const Receiver> receivers() const noexcept { return receivers_; }
  protocol::SnapshotWriter& writer(const Receiver& r) noexcept { return writers_[r.group]; }
  bool is_delta(const Receiver& r) const noexcept { return group_is_delta_[r.group]; }

 private:
  // A baseline given to clients: a delta against it replays the ticks since (its replay, extended by each
  // tick's steps when it is given). Once they cannot be replayed (more cubes came than a replay says, keys
  // changed too often within a tick, a path beyond its limits) its clients get full snapshots.
  struct Kept {
    bool live = false;
    std::uint64_t baseline = 0;
    std::uint64_t last_used = 0;  // the last tick a client was given it
    protocol::ReplayBuilder replay;
    protocol::DeltaSnapshot replay_delta;
  };
  // A kept baseline no client was given for this many ticks is let go: one unused costs its extension for
  // nothing, and a client that comes back later (at 10 snapshots a second, every 6 ticks at 60) is kept a
  // new one, no dearer than one encode against its baseline.
  static constexpr std::uint64_t kIdleTicks = 3;
  // The cubes a tick's delta encodes may go over before clients share them at the cost of a few bytes:
  // every client its newest baseline in a small game, two encodes of a 128-cube world.
  static constexpr std::size_t kCheapEncodeCubes = 256;
  // The cube-ticks a start may replay before it must serve enough clients (one 8 ticks old in a 128-cube
  // world), in a world of at least kBigWorldCubes: in a smaller one every start is cheap, whatever its age
  // (a 25-cube game on a one-second round trip starts baselines 64 ticks old).
  static constexpr std::size_t kCheapStartCubeTicks = 1024;
  static constexpr std::size_t kBigWorldCubes = 64;

  // The newest snapshot `feed`'s client holds that a delta may start from: the one it told of, if held.
  static std::uint64_t SeenBaseline(const SnapshotFeed& feed, std::uint64_t tick, const WorldHistory& history,
                                    SnapshotEncoding encoding);
  // A client's kept baseline is fresh enough when it is no more than half its own lag older than the
  // newest snapshot it told of (`seen`): a baseline's age then stays within 1.5 times the lag.
  static std::uint64_t Slack(std::uint64_t tick, std::uint64_t seen) noexcept {
    return std::max<std::uint64_t>(tick - seen, 2) / 2;
  }
  static std::uint64_t LastFreshAge(std::uint64_t tick, std::uint64_t seen) noexcept {
    return std::min<std::uint64_t>(tick - seen + Slack(tick, seen), protocol::kHeldBaselines);
  }
  static bool Fresh(std::uint64_t tick, const Receiver& r) noexcept {
    return r.baseline != kNoBaseline && r.seen - r.baseline <= Slack(tick, r.seen);
  }
  // The client told of `baseline` recently enough to hold it still.
  static bool Told(const protocol::RecentTicks& told, std::uint64_t tick, std::uint64_t baseline) noexcept;
  // The newest kept baseline the client holds no newer than `seen`, or none.
  std::optional<std::size_t> NewestHeld(const protocol::RecentTicks& told, std::uint64_t tick,
                                        std::uint64_t seen) const noexcept;
  // Gives each receiver (due a snapshot) a kept baseline it holds, as few as keep them fresh, and counts in
  // wanting_ the ticks that those without a fresh one would take.
  void GiveKept(std::uint64_t tick, std::size_t cubes);
  // The baseline to start keeping this tick, or kNoBaseline.
  std::uint64_t WantedStart(std::uint64_t tick, std::size_t cubes);
  static bool CheapStart(std::size_t age, std::size_t cubes) noexcept {
    return cubes < kBigWorldCubes || age * cubes <= kCheapStartCubeTicks;
  }
  // Whether a start `age` ticks old in a world of `cubes` is worth its replay: cheap, or serving enough of
  // the clients wanting one.
  bool Affordable(std::size_t age, std::size_t cubes) const noexcept;
  // Lets go of the kept baselines unused or too old at `tick`.
  void LetGoOfKept(std::uint64_t tick);
  // Keeps the baseline `seen` in a free slot or the one least recently used before this tick; its index,
  // or none when every slot serves this tick.
  std::optional<std::size_t> Keep(std::uint64_t tick, std::uint64_t seen, const WorldHistory& history);
  // Encodes `writer` for receivers of `kept` (none: the full snapshot); true for a delta.
  bool PrepareOne(std::uint64_t tick, const Players& players, const sim::Arena& arena,
                  std::optional<std::size_t> kept, protocol::SnapshotWriter& writer);

  SnapshotCounters& counters_;
  protocol::MoveLog move_log_;  // every cube's Moves at each recent tick, so a delta may replay them
  std::vector<Kept> kept_;      // kMaxDeltaEncodes, made once
  // Per age (1..kHeldBaselines): how many clients due a snapshot, holding no fresh enough kept baseline,
  // told of the tick that old and would find it fresh enough; and the longest any of them has gone
  // without one (in shared snapshots, at most kHeldBaselines), so that the longest waiting are served next.
  std::array<std::size_t, protocol::kHeldBaselines + 1> wanting_{};
  std::array<std::uint32_t, protocol::kHeldBaselines + 1> waited_{};
  std::vector<std::uint64_t> given_;  // the kept baselines given this tick, at most kept_.size()
  // Per age: how long a kept baseline of that age would serve the clients due a snapshot (the ticks it
  // would stay fresh enough for each that holds it, summed).
  std::array<std::uint64_t, protocol::kHeldBaselines + 1> service_{};
  // A snapshot's encodings, one per kept baseline given this tick (on a LAN nearly all share one) and the
  // full one: made inside the tick, handed to each client after it.
  std::vector<Receiver> receivers_;
  std::vector<protocol::SnapshotWriter> writers_;  // capacity kMaxPlayers, grown to the most groups seen
  std::array<bool, protocol::kMaxPlayers> group_is_delta_{};
};

}  // namespace netcube::server
