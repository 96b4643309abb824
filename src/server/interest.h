#pragma once
// The server's room for interest management: each client's relevant set (its own cube and the cubes near
// it: one comes in within the interest radius and leaves beyond the radius and a margin, so that a cube at
// the edge does not flicker in and out), and the snapshot of that set a client gets when it is not the
// whole world: every member named, the states that fit the client's byte budget carried, by importance
// (nearness times the ticks since the member's state was sent last: a priority accumulator), the cubes
// the client is about to touch and those new to its set first; a state predicted (a few bits) where the
// cube did nothing but Move since one the client told it holds, else whole.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "netcube/protocol/messages.h"
#include "netcube/protocol/recent_ticks.h"
#include "netcube/protocol/snapshot_writer.h"
#include "netcube/server/server_config.h"
#include "netcube/server/server_stats.h"

namespace netcube::server {

struct Client;
class Players;

// What the interest room keeps of each client: its set's members, and of each which player's cube it was
// (ids are reused), the tick its state was last sent (0: not since it came into the set) and the ticks
// of its InterestSnapshots that carried it since it came in (the baselines of a predicted state). Kept side
// by side in id order, not by id: a set is read member after member, a few cache lines, where a table by id
// spread its members over many (at a thousand clients, most of a tick went waiting for them). On the heap,
// not in the client's record: a join or a leave moves every later client, and a thousand sets held inline
// (18 kB a client) made that 9 MB a join.
struct InterestView {
  struct Entry {
    std::uint32_t generation = 0;
    // Bit k: sent - k (an InterestSnapshot's, not a whole world's). 32 ticks, not the 64 a prediction may
    // span: an entry of 16 bytes, not 24, is a third less to write when the set is chosen again.
    std::uint32_t carried = 0;
    std::uint64_t sent = 0;
  };
  // Its latest snapshot (this tick's, when it is due one) is an InterestSnapshot: not every cube is
  // relevant to it, and it knows only of the members. Every tick reads it of every due client.
  bool partial = false;
  std::vector<sim::PlayerId> members;  // increasing id
  std::vector<Entry> entries;          // members[k]'s at k
  bool Has(sim::PlayerId id) const noexcept { return std::binary_search(members.begin(), members.end(), id); }
};

class Interest {
 public:
  explicit Interest(SnapshotCounters& counters) : counters_(counters) {}

  // Each cube's motion after `tick`, when some client may get an InterestSnapshot of its own: since which
  // tick it did nothing but Move under its buttons (what a predicted state needs).
  void Record(std::uint64_t tick, const Players& players, const ServerConfig& config);
  // Whether some client may get an InterestSnapshot of its own, encoded for it alone: some cube may not be
  // relevant to it (interest management on, its radius short of the arena), or the world is past a
  // whole-world snapshot (protocol::kMaxWholeWorldCubes) and every client gets one.
  static bool MayEncodeEach(const ServerConfig& config, std::size_t cubes) noexcept;
  // No interest management, or a radius that spans the arena.
  static bool EveryCubeRelevant(const ServerConfig& config) noexcept;
  // For every client due a snapshot: its relevant set after `tick`, and whether that is the whole world
  // (it shares the snapshot everyone gets) or not (it gets its own, from Encode). Without interest
  // management every cube is relevant. A player sees from its cube; a spectator from its Viewpoint: the
  // cube it follows (while there), a point of the arena, or the arena's centre.
  void Select(std::uint64_t tick, std::span<Client> clients, const Players& players,
              const ServerConfig& config);
  // The InterestSnapshot of `client` (partial) after `tick`, with its ack, within the snapshot budget (the
  // server's, or less when the client asked for less); its
  // members' sent ticks updated. Valid until the next call.
  std::span<const std::uint8_t> Encode(std::uint64_t tick, Client& client, const Players& players,
                                       const ServerConfig& config,
                                       std::optional<protocol::SnapshotWriter::ReceiverAck> ack);
  // `client`'s set as it stands after `tick`, each member weighed as Encode would (for tools).
  static void Describe(std::uint64_t tick, const Client& client, const Players& players,
                       const ServerConfig& config, InterestInfo& out);

 private:
  struct Candidate {
    std::size_t member = 0;       // index in the set
    std::size_t cube = 0;         // index in the world
    std::uint64_t priority = 0;   // kOwn for the own cube, above kOverdue for those that must be sent
    std::uint64_t staleness = 0;  // ticks since its state was sent last
    bool near = false;            // within kNearUnits of the client's cube
    int predicted_age = 0;        // of its state, predicted from the one sent then; 0: sent whole
    bool chosen = false;          // its state is sent
  };
  // Of each cube, by id: its state after the tick it was recorded at, and the tick since which each
  // tick's state was Move of the one before under its buttons, as the wire carries them.
  struct Motion {
    std::uint32_t generation = 0;
    std::uint64_t tick = 0;
    sim::CubeState state;
    std::uint64_t steady_since = 0;
  };
  // The age at which `entry`'s state after `tick` may be predicted: of the newest of its last
  // kInterestHeldStates carried, told of and since the cube's steady run began; 0 if none.
  int PredictableAge(std::uint64_t tick, const InterestView::Entry& entry, sim::PlayerId id,
                     const protocol::RecentTicks& told) const noexcept;
  // Where a client sees from, and the cube always in its set (its own, or the one a spectator follows).
  struct Eye {
    sim::CubeState at;
    std::optional<std::size_t> cube;  // index in the world
  };
  static Eye EyeOf(const Client& client, const Players& players, const ServerConfig& config);
  // The cubes filed by cell (a grid of cells as wide as a set reaches), for SelectFor.
  void FileCubes(std::span<const sim::PlayerCube> world, const ServerConfig& config);
  std::size_t CellAt(const sim::CubeState& s) const noexcept;
  // The set seen from `eye`: the cubes of its cell and the eight around; with `everything`, every cube.
  void SelectFor(std::uint64_t tick, InterestView& view, const Eye& eye, const Players& players,
                 const ServerConfig& config, bool everything);
  // `source`'s set (chosen this tick) as `view`'s, in a world of `cubes`.
  void ShareSet(std::uint64_t tick, InterestView& view, const InterestView& source, std::size_t cubes);
  // `view` from found_: the members found that were in it before, and those that enter.
  void Refill(std::uint64_t tick, InterestView& view, std::size_t cubes);
  // Visits every member of `client`'s set, in id order, weighed after `tick`.
  template <class Visit>
  static void Weigh(std::uint64_t tick, const Client& client, const Players& players,
                    const ServerConfig& config, Visit visit);
  // Marks the members whose states go in `room` bits, by priority; `predictable` of them may be predicted.
  void Choose(std::size_t room, const protocol::InterestBits& bits, std::size_t predictable);
  // The InterestSnapshot of the members weighed, with the states of those chosen.
  std::span<const std::uint8_t> Write(std::uint64_t tick, Client& client, const Players& players,
                                      const sim::Arena& arena,
                                      std::optional<protocol::SnapshotWriter::ReceiverAck> ack);

  SnapshotCounters& counters_;
  std::int64_t cell_ = 1;  // sub-units a side
  std::size_t columns_ = 1;
  std::size_t rows_ = 1;
  std::vector<std::size_t> cell_start_;     // by cell: where its cubes start in filed_ (and the end)
  std::vector<std::size_t> cell_of_;        // by world index
  std::vector<std::size_t> filed_;          // world indices, by cell
  std::vector<std::size_t> cursor_;         // by cell: where its next cube is filed
  std::vector<std::uint32_t> generations_;  // by world index, this tick's
  std::vector<Motion> motions_;             // by id
  // A cube found within reach of a set's centre: its id, its player's generation, and whether it comes in
  // when it was not a member (within the radius, or the cube always in the set).
  struct Found {
    sim::PlayerId id = 0;
    std::uint32_t generation = 0;
    bool enters = false;
  };
  std::vector<Found> found_;
  // By world index, a bit each: the cubes found near a centre, and those of them that enter. The world is
  // in id order, so reading the bits in order gives found_ in id order without a sort.
  std::vector<std::uint64_t> near_bits_;
  std::vector<std::uint64_t> enter_bits_;
  // The members of the set before Refill and their entries: swapped with the set's, so that nothing is
  // copied and, once the buffers have grown, nothing allocated.
  std::vector<sim::PlayerId> previous_;
  std::vector<InterestView::Entry> previous_entries_;
  std::vector<Candidate> candidates_;  // the members, in id order
  std::vector<sim::PlayerId> ids_;     // theirs
  // Each candidate's priority and index in one key (RankOf), ordered without reaching into candidates_.
  std::vector<std::uint64_t> ranked_;
  protocol::InterestSnapshot message_;
  std::array<std::uint8_t, protocol::kMaxPacketBytes> buffer_{};
};

}  // namespace netcube::server
