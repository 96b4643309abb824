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
#include "netcube/sim/ray.h"
#include "netcube/sim/time.h"
#include "netcube/sim/world.h"
#include "netcube/transport/link_conditioner.h"
#include "netcube/transport/network.h"

namespace netcube::server {

// Rate limit (per client), counted in simulation steps (1/60 s each: one input is one step of motion)
// so it holds at any tick rate: real time grants one input per step; unused credit is kept up to this
// many steps, so a client whose packets arrived late can catch up, but no client runs ahead of time.
inline constexpr int kMaxInputBacklogSteps = 8;
// While catching up, at most this many inputs per step of real time are applied (catching up is gradual).
inline constexpr int kMaxCatchUpRate = 3;
// Inputs waiting to be applied, per client, at 60 ticks per second (a slower tick adds room for the extra
// inputs it consumes); inputs arriving beyond it are dropped for good.
inline constexpr std::size_t kMaxQueuedInputs = 16;
// A server this far behind its tick schedule stops catching up and skips the missed ticks.
inline constexpr Micros kMaxTickLag{250'000};
// An ENet handshake from outside still unacknowledged after this is reset: a connection attempt that is
// never completed (a forged source, say) holds a slot this long at most. ENet resends its answer after
// 0.5 s, and a client whose handshake was reset starts a new one with its own resent request.
inline constexpr Micros kHandshakeTimeout{1'000'000};
// A connected peer that has not sent its ConnectRequest within this time, or not echoed its Challenge
// within this time of it being sent, is reset: a connection that proves nothing holds nothing for long.
// Not 1 s: on the `harsh` link profile (1000 ms round trip +/-100 ms, applied above ENet) an honest
// client's answer comes up to 1.2 s after the server's last word (or the connection).
inline constexpr Micros kPendingTimeout{2'000'000};
// Connection slots beyond max_clients, so that a full server can still say "server full".
inline constexpr std::size_t kSpareConnectionSlots = 8;
// ENet slots beyond those, for connections still in their first seconds: a flood of connection attempts
// from many addresses fills these before it can keep a real client out.
inline constexpr std::size_t kHandshakeSlots = 512;
// ENet connections from one IP address at once: room for a LAN of players behind one NAT.
inline constexpr std::size_t kDefaultMaxPerAddress = 8;
// An input this far or further beyond the next one expected is malformed, not a gap of lost inputs: a
// client keeps at most 1024 unacknowledged inputs (docs/PROTOCOL.md), so it cannot have skipped more.
inline constexpr int kMaxInputJump = 1024;
// Budgets per peer. Packets of any kind: an honest client sends about 70 a second (480 at the bot's
// fastest --input-rate). TimeEcho replies: a client asks 10 times a second. Offences (a malformed
// packet, a throttled TimeEcho): a few are forgiven, one more a second; past that the peer is kicked.
inline constexpr int kMaxPacketsPerSecond = 600;
inline constexpr int kMaxTimeEchoesPerSecond = 20;
inline constexpr int kTimeEchoBurst = 10;
inline constexpr int kMaxOffenceBurst = 16;

// Lag compensation. The rewind is capped at max_rewind_ms, and for each tag at what the server can
// believe of the shooter: the time since it sent the newest snapshot the shooter says it had, plus the
// interpolation delay the shooter says it used, plus this slack for the clock estimate's error.
inline constexpr int kDefaultMaxRewindMs = 500;
inline constexpr Micros kRewindSlack{50'000};
// A tag waits for the input it was fired after (so the ray starts where the shooter saw its own cube) at
// most this long, then is judged from where the cube is.
inline constexpr Micros kMaxTagWait{250'000};
// Tags beyond one per sim::kTagCooldownMs are refused; this much bunching (a tag delayed by a resend,
// then the next on time) is let through.
inline constexpr Micros kTagBurstTolerance{sim::kTagCooldownMs * 1000};
// Judged tags the server keeps for its view (the lab's log).
inline constexpr std::size_t kRecentTags = 16;

// The most baselines whose predictions the server keeps from tick to tick (protocol::BaselinePrediction),
// and so the most distinct deltas a tick encodes. Each client gets a delta against the newest kept one it
// told the server it holds (or the full snapshot); one more is kept a tick when some hold none fresh. A
// tick's encoding work is then these baselines' Moves (one or two a cube each), one new baseline's
// prediction, and this many deltas and one full snapshot made without a Move, however the
// acknowledgements spread over real links and whatever a client claims to hold.
inline constexpr std::size_t kMaxDeltaEncodes = 8;

// How snapshots are encoded: every cube in full, or against the newest snapshot each client holds.
enum class SnapshotEncoding : std::uint8_t { kFull, kDelta };
const char* ToString(SnapshotEncoding encoding) noexcept;

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
  bool collisions = true;        // players push each other apart
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
  // The sim::Moves the deltas' predictions ran (the encoding's work), and the snapshots sent full because
  // the tick's few shared baselines held none the client told of.
  std::uint64_t delta_prediction_moves = 0;
  std::uint64_t deltas_declined = 0;
  std::uint64_t snapshot_bytes_sent = 0;  // snapshot payload bytes, all clients together
  std::uint64_t snapshot_cube_bits = 0;   // of those, the bits that carry cubes (headers and acks aside)
  std::uint64_t delta_age_ticks = 0;      // the deltas' ages summed: over delta_snapshots_sent, the mean
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
  std::uint64_t tags_capped = 0;             // the shooter's claimed render time was beyond the cap
  std::uint64_t tags_decided_by_rewind = 0;  // judged with compensation, where the present world disagrees
  double rewind_ms_sum = 0.0;                // compensation's rewind over judged tags (mean = sum / judged)
  double rewind_ms_max = 0.0;
};

struct ServerStats : TickCounters, SnapshotCounters, AdmissionCounters, TagCounters {
  // The simulation step, tag judging and the snapshot's encoding (not handing it to each client).
  TickDurations tick_durations;
  std::size_t clients = 0;
  std::size_t clients_peak = 0;
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
  const ServerConfig& config() const;  // with the live settings

  // Read-only views.
  std::span<const sim::PlayerCube> world() const;  // every player's cube, increasing id
  std::uint32_t tick() const;                      // ticks run so far
  std::vector<ClientInfo> clients() const;         // accepted clients, increasing id
  // The same into `out`, reusing its room: a caller polling every frame allocates nothing once it has grown.
  void clients(std::vector<ClientInfo>& out) const;
  std::size_t peer_count() const;  // ENet peers: pending, accepted or closing
  // The last kRecentTags judged tags, oldest first.
  std::vector<TagRecord> recent_tags() const;
  ServerStats stats() const;

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace netcube::server
