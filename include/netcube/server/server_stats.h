#pragma once
// What a server tells its owner: each client's view (ClientInfo), the judged tags (TagRecord) and the
// counters each room keeps, composed into ServerStats.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "netcube/protocol/messages.h"
#include "netcube/sim/ray.h"
#include "netcube/sim/time.h"
#include "netcube/sim/world.h"

namespace netcube::server {

// Judged tags the server keeps for its view (the lab's log).
inline constexpr std::size_t kRecentTags = 16;

// What the server knows about one accepted client (a read-only view for tools and tests).
// What became of the inputs a client sent.
struct InputCounters {
  std::uint64_t processed = 0;
  std::uint64_t duplicate = 0;           // already queued or applied (redundant resends)
  std::uint64_t dropped_rate_limit = 0;  // arrived with the queue full
  std::uint64_t lost = 0;                // never arrived: a gap in the sequence
  // Ticks at which the client's cube was moving, so its client sends an input every step, and of those the
  // dry ones: fewer inputs had arrived than the tick applies (the cube stood still).
  std::uint64_t streaming_ticks = 0;
  std::uint64_t dry_ticks = 0;
  InputCounters& operator+=(const InputCounters& other) noexcept;
};

// A client's relevant set as the server keeps it (interest management), for tools: the lab draws it.
struct InterestInfo {
  bool partial = false;  // its latest snapshot was an InterestSnapshot: some cube was not relevant
  struct Member {
    sim::PlayerId id = 0;
    std::uint64_t ticks_since_sent = 0;  // since a snapshot last carried its state
    bool must = false;                   // its own cube, a new member or one within kNearUnits: always sent
    std::uint64_t importance = 0;        // else: nearness (1..16) times ticks_since_sent
  };
  std::vector<Member> members;  // increasing id
};

struct ClientInfo {
  sim::PlayerId id = 0;
  std::string name;
  std::optional<sim::Seq> last_processed_seq;  // the ack; empty until one input has been applied
  std::size_t queued_inputs = 0;
  int input_target = 0;            // inputs the server wants waiting after a tick (its adaptive input buffer)
  int snapshot_rate = 0;           // snapshots a second it gets
  bool own_snapshot_rate = false;  // the rate it asked for (SnapshotRate), not the server's
  InputCounters inputs;
  std::uint64_t bytes_sent = 0;      // message payload bytes, to this client
  std::uint64_t bytes_received = 0;  // message payload bytes, from this client
  std::uint64_t tags_fired = 0;      // judged (hit or miss)
  std::uint64_t tags_given = 0;      // hits on others
  std::uint64_t tags_taken = 0;      // hits on this client's cube
  std::uint64_t tags_refused = 0;    // over the cooldown, or while one was waiting
};

// How a ray fared against one version of the world.
struct RayVerdict {
  std::optional<sim::PlayerId> hit;  // the first cube crossed within range
  // Otherwise the cube it passed closest to, and how far (sub-units); has_nearest is false in an empty arena.
  bool has_nearest = false;
  sim::PlayerId nearest = 0;
  double clearance = 0.0;
};

// One judged tag, for the server's view: the ray, the rewind, and the verdict both ways.
struct TagRecord {
  std::uint64_t tick = 0;  // the tick it was judged after
  sim::PlayerId shooter = 0;
  std::uint8_t shot = 0;
  protocol::TagOutcome outcome = protocol::TagOutcome::kMiss;
  bool lag_compensation = true;    // the setting it was judged with
  sim::Ray ray;                    // from the shooter's cube
  double render_tick = 0.0;        // the time judged against with compensation (the claim, capped)
  double claimed_rewind_ms = 0.0;  // what the shooter's render time asked for
  double rewind_ms = 0.0;          // what compensation grants (after the cap)
  bool capped = false;
  RayVerdict rewound;  // against the world at render_tick
  RayVerdict present;  // against the world now
  // The cube the tag was about (the hit, else the nearest in the rewound world): then and now, sub-units.
  bool has_subject = false;
  sim::PlayerId subject = 0;
  double subject_then_x = 0.0, subject_then_y = 0.0;
  double subject_now_x = 0.0, subject_now_y = 0.0;
};

// Percentiles of the measured tick durations (all zero when no work_clock is set).
struct TickDurations {
  std::uint64_t samples = 0;
  Micros p50{0};  // from a histogram with ~3% resolution
  Micros p99{0};
  Micros max{0};  // exact
};

// What each room counts, kept by that room as data and composed into ServerStats (no field-by-field copy).
struct TickCounters {
  std::uint64_t ticks = 0;
  std::uint64_t ticks_skipped = 0;  // dropped because the server fell more than kMaxTickLag behind
};

struct SnapshotCounters {
  std::uint64_t snapshots_sent = 0;        // snapshot messages, all clients together
  std::uint64_t delta_snapshots_sent = 0;  // of which deltas
  std::uint64_t snapshot_encodes = 0;      // distinct encodes (receivers of one baseline share one)
  // The snapshots sent full because the tick's few shared baselines held none the client told of.
  std::uint64_t deltas_declined = 0;
  std::uint64_t snapshot_bytes_sent = 0;     // snapshot payload bytes, all clients together
  std::uint64_t snapshot_cube_bits = 0;      // of those, the bits that carry cubes (headers and acks aside)
  std::uint64_t delta_age_ticks = 0;         // the deltas' ages summed: over delta_snapshots_sent, the mean
  std::uint64_t largest_snapshot_bytes = 0;  // the largest snapshot payload sent
  // Interest management: the InterestSnapshots sent (of snapshots_sent), their members and the states
  // they carried (the members relevant, and those refreshed; of those, the predicted), all clients
  // together; and the stalest
  // member's state when one was sent, in ticks since the state sent last, of any member and of those
  // within kNearUnits (server_config.h) of the client's cube.
  std::uint64_t interest_snapshots_sent = 0;
  std::uint64_t interest_members = 0;
  std::uint64_t interest_states = 0;
  std::uint64_t interest_predicted = 0;
  std::uint64_t stalest_member_ticks = 0;
  std::uint64_t stalest_near_member_ticks = 0;
};

struct AdmissionCounters {
  std::uint64_t clients_refused = 0;
  std::uint64_t packets_malformed = 0;  // undecodable, wrong direction or channel, or out of turn
  // Handshakes, ConnectRequests and ChallengeResponses that never came, silent clients (with the
  // transport's handshakes reset, in ServerStats).
  std::uint64_t peers_reset = 0;
  std::uint64_t peers_kicked = 0;           // for malformed or flooding traffic
  std::uint64_t time_echoes_throttled = 0;  // requests not answered: over kMaxTimeEchoesPerSecond
  std::uint64_t challenges_sent = 0;        // to ConnectRequests of this version with a name
  std::uint64_t challenges_confirmed = 0;   // answered with the right nonce: the address is proved
};

struct TagCounters {
  std::uint64_t tags_judged = 0;
  std::uint64_t tags_hit = 0;
  std::uint64_t tags_refused = 0;
  std::uint64_t tags_capped = 0;              // the shooter's claimed render time was beyond the cap
  std::uint64_t tags_decided_by_rewind = 0;   // judged with compensation, where the present world disagrees
  std::uint64_t bystander_hits_withheld = 0;  // other players' hits not told to a client beyond its budget
  double rewind_ms_sum = 0.0;                 // compensation's rewind over judged tags (mean = sum / judged)
  double rewind_ms_max = 0.0;
};

struct ServerStats : TickCounters, SnapshotCounters, AdmissionCounters, TagCounters {
  // The simulation step, tag judging and the snapshot's encoding (not handing it to each client).
  TickDurations tick_durations;
  std::size_t clients = 0;  // players
  std::size_t clients_peak = 0;
  std::size_t spectators = 0;
  InputCounters inputs;                  // of every client, present and departed
  std::uint64_t payload_bytes_sent = 0;  // from the transport's counters
  std::uint64_t payload_bytes_received = 0;
  std::uint64_t wire_bytes_sent = 0;  // ENet's totals, headers and acks included
  std::uint64_t wire_bytes_received = 0;
  std::uint64_t datagrams_filtered = 0;  // impossible ENet datagrams dropped before ENet saw them
  std::uint64_t receive_errors = 0;      // datagrams too large for ENet to read
  // Time spent on the network between two ticks (from work_clock, like tick_durations): servicing the
  // host, and handing each client its snapshot.
  TickDurations network_durations;
  // Unproven connections (no Challenge echoed yet) reset to make room for a connection attempt that found
  // the peer table full.
  std::uint64_t peers_evicted = 0;
};

}  // namespace netcube::server
