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
#include "netcube/sim/world.h"
#include "netcube/transport/host.h"
#include "netcube/transport/link_conditioner.h"
#include "netcube/sim/time.h"

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
// A connected peer that has not sent its ConnectRequest within this time is disconnected.
inline constexpr Micros kPendingTimeout{3'000'000};
// Connection slots beyond max_clients, so that a full server can still say "server full".
inline constexpr std::size_t kSpareConnectionSlots = 8;

struct ServerConfig {
  std::string bind_address = "0.0.0.0";
  std::uint16_t port = 7777;  // 0 = an ephemeral port (read it back with Server::port())
  int tick_rate = 60;         // simulation ticks per second, [1, protocol::kMaxRate]
  int snapshot_rate = 20;     // snapshots per second, [1, protocol::kMaxRate]; capped by tick_rate
  std::size_t max_clients = 32;  // [1, protocol::kMaxPlayers]
  bool collisions = true;        // players push each other apart
  transport::LinkSettings link;  // the server side's link conditioner, both directions
  std::uint64_t seed = 1;        // the link conditioner's random generator
  std::uint32_t peer_timeout_ms = 5000;  // a silent client is dropped (PlayerLeft{kTimedOut}) after this
  // Measures tick durations only (empty = not measured). Any monotonic clock.
  std::function<Micros()> work_clock;
};

// What the server knows about one accepted client (a read-only view for tools and tests).
// What became of the inputs a client sent.
struct InputCounters {
  std::uint64_t processed = 0;
  std::uint64_t duplicate = 0;           // already queued or applied (redundant resends)
  std::uint64_t dropped_rate_limit = 0;  // arrived with the queue full
  std::uint64_t lost = 0;                // never arrived: a gap in the sequence
  InputCounters& operator+=(const InputCounters& other) noexcept;
};

struct ClientInfo {
  sim::PlayerId id = 0;
  std::string name;
  std::optional<sim::Seq> last_processed_seq;  // the ack; empty until one input has been applied
  std::size_t queued_inputs = 0;
  InputCounters inputs;
  std::uint64_t bytes_sent = 0;                 // message payload bytes, to this client
  std::uint64_t bytes_received = 0;             // message payload bytes, from this client
};

// Percentiles of the measured tick durations (all zero when no work_clock is set).
struct TickDurations {
  std::uint64_t samples = 0;
  Micros p50{0};  // from a histogram with ~3% resolution
  Micros p99{0};
  Micros max{0};  // exact
};

struct ServerStats {
  std::uint64_t ticks = 0;
  std::uint64_t ticks_skipped = 0;  // dropped because the server fell more than kMaxTickLag behind
  std::uint64_t snapshots_sent = 0;  // snapshot messages, all clients together
  TickDurations tick_durations;
  std::size_t clients = 0;
  std::size_t clients_peak = 0;
  std::uint64_t clients_refused = 0;
  InputCounters inputs;  // of every client, present and departed
  std::uint64_t packets_malformed = 0;  // undecodable, wrong direction or channel, or out of turn
  std::uint64_t payload_bytes_sent = 0;  // from the transport's counters
  std::uint64_t payload_bytes_received = 0;
  std::uint64_t wire_bytes_sent = 0;  // ENet's totals, headers and acks included
  std::uint64_t wire_bytes_received = 0;
  std::uint64_t datagrams_filtered = 0;  // impossible ENet datagrams dropped before ENet saw them
  std::uint64_t receive_errors = 0;      // datagrams too large for ENet to read
};

class Server {
 public:
  // Binds the server. nullptr and `error` set on a bad config or a socket failure. Tick 0 is at `now`.
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

  // Live settings (the GUI lab). A rate out of [1, protocol::kMaxRate] is refused (returns false). A new
  // tick rate keeps the tick count and takes effect from the last tick's time.
  bool SetTickRate(int tick_rate);
  bool SetSnapshotRate(int snapshot_rate);
  void SetCollisions(bool collisions);
  void SetLink(const transport::LinkSettings& link);
  const ServerConfig& config() const;  // with the live settings

  // Read-only views.
  std::span<const sim::PlayerCube> world() const;  // every player's cube, increasing id
  std::uint32_t tick() const;                       // ticks run so far
  std::vector<ClientInfo> clients() const;          // accepted clients, increasing id
  std::size_t peer_count() const;                   // ENet peers: pending, accepted or closing
  ServerStats stats() const;

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace netcube::server
