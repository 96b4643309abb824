#pragma once
// The scale scenario: a server in this process, N players with random input, measured over a steady
// window once everyone has joined. The players run in netcube-bot child processes over loopback UDP on the
// wall clock, or (virtual_time) in this process over the in-memory network on a virtual clock.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "netcube/server/server_config.h"
#include "netcube/sim/move.h"
#include "netcube/transport/link_conditioner.h"
#include "netcube/transport/link_profile.h"

namespace netcube::bench {

struct ScaleSettings {
  int clients = 1;
  int tick_rate = 60;
  int snapshot_rate = 20;
  int redundancy = 32;  // the client default
  bool collisions = true;
  sim::Arena arena = sim::kStandardArena;
  double window_s = 10.0;
  bool cpu_tick_clock = true;  // time ticks with the server thread's CPU clock (else the wall clock)
  int tag_interval_ms = 0;     // the bots tag the nearest cube as drawn this often (0: no tags)
  bool lag_compensation = true;
  bool delta_snapshots = true;  // the server's snapshot encoding: delta, or every cube in full
  // The server's interest management (server::ServerConfig): on, a player far from some cubes gets an
  // InterestSnapshot of those near it, within the budget.
  bool interest = false;
  int interest_radius_units = server::kDefaultInterestRadiusUnits;
  std::size_t snapshot_budget = server::kDefaultSnapshotBudget;
  double idle_fraction = 0.0;  // this share of the players (rounded) stand still: the rest play at random
  // Spectators beside the players: connections without a cube, spectator i following player i (one more
  // netcube-bot run, or BotRun on virtual time, on the first link).
  int spectators = 0;
  int spectator_snapshot_rate = protocol::kMaxRate;  // the server's cap for them (none by default)
  // Join churn (virtual time): this share of the players joins or leaves each second: a player that joins,
  // plays at random on the first link and leaves, replaced by the next (a leave and a join, 2 / (churn x
  // clients) seconds apart), in kChurnSeats of the `clients` seats (the one joining, the one before it
  // leaving), so that the world holds no more cubes than without churn. The players' figures are of
  // those who stay.
  double churn = 0.0;
  std::string link_name = "lan";  // the bots' link conditioner (both directions), from a network profile
  transport::LinkSettings link;
  // When not empty (link_name "mixed"): the players are spread evenly over one netcube-bot process per
  // profile, so that round trips, jitter and loss, and so acknowledgements and baselines, differ as they
  // do on a real server. `link` is then unused.
  std::vector<transport::LinkProfile> mixed_links;
  std::string bot_path;
  std::uint64_t seed = 1;
  // The players in this process over the in-memory network, everyone stepped 1 ms at a time on a virtual
  // clock: no player is ever late for want of a core, as if each had its own machine, and the server's
  // ticks are timed by its thread's CPU time (cpu_tick_clock must be set).
  bool virtual_time = false;
};

inline constexpr int kChurnSeats = 2;

// The players who play the whole run: the churning ones' seats aside.
inline int StayingPlayers(const ScaleSettings& s) { return s.clients - (s.churn > 0 ? kChurnSeats : 0); }

struct ScaleResult {
  ScaleSettings settings;
  // Server tick durations, µs, over the server's life up to the end of the window.
  double tick_p50_us = 0.0;
  double tick_p99_us = 0.0;
  double tick_max_us = 0.0;
  // The network's time per tick (servicing the host, handing out snapshots), µs.
  double network_p50_us = 0.0;
  double network_p99_us = 0.0;
  std::uint64_t ticks = 0;
  std::uint64_t ticks_skipped = 0;
  std::uint64_t tags_judged = 0;  // in the window
  // Per client, per second of the window.
  double snapshots_per_s = 0.0;
  double snapshot_bytes_per_s = 0.0;   // snapshot payload
  double down_bytes_per_s = 0.0;       // every message payload the server sent the client
  double up_bytes_per_s = 0.0;         // inputs and time-echo requests
  double wire_down_bytes_per_s = 0.0;  // ENet's UDP payload: headers, acks and pings included
  double wire_up_bytes_per_s = 0.0;
  // The mean snapshot the server sent in the window (payload bytes, ack included), and its cost per cube.
  double snapshot_bytes = 0.0;
  double bytes_per_cube = 0.0;
  double delta_share = 0.0;  // of the snapshots sent, the share that were deltas
  // Of the snapshots the players who stayed received in the window (virtual time), the share of deltas
  // among the full and delta ones; nullopt on real time, or when none came.
  std::optional<double> players_delta_share;
  std::uint64_t churn_joins = 0;  // in the window, the churning players' joins and leaves
  std::uint64_t churn_leaves = 0;
  double delta_age_ticks = 0.0;        // the mean age of the deltas' baselines
  double encodes_per_tick = 0.0;       // distinct snapshot encodes (one per baseline served) per tick
  double deltas_declined_share = 0.0;  // of the snapshots sent, those full for want of a shared baseline
  double cube_bits = 0.0;  // the mean shared snapshot's bits spent on cubes (headers and ack aside), per cube
  // The largest snapshot payload sent over the server's life up to the end of the window.
  std::uint64_t largest_snapshot_bytes = 0;
  // Interest management: of the window's snapshots, the share that were InterestSnapshots, and their mean
  // members and states carried (0 when none), and of those states the share predicted; the longest a member
  // went without its state (ticks since it was sent last, at a snapshot that left it out) over the server's
  // life up to the end of the window, of any member and of those within server::kNearUnits of the player's
  // cube, ms.
  double interest_share = 0.0;
  double members_per_snapshot = 0.0;
  double states_per_snapshot = 0.0;
  double predicted_share = 0.0;
  double stalest_member_ms = 0.0;
  double stalest_near_member_ms = 0.0;
  // From the bots' report (empty when it failed: bots_problem says why) and the server's input counters.
  std::uint64_t corrections = 0;
  double rtt_ms_mean = 0.0;
  std::uint64_t inputs_lost = 0;
  std::uint64_t inputs_dropped_rate_limit = 0;
  std::uint64_t dry_ticks =
      0;  // in the window: a moving cube's tick without its input (server::InputCounters)
  bool all_final_match = false;  // with collisions on, a push can make the last prediction check differ
  std::string bots_problem;
};

// One result per run, in order; none, with `error` set, when the window could not be measured (the players
// did not all join, or left). Several runs (virtual time only) run side by side: each server with its own
// players and in-memory network, all stepped in turn, so that what they are compared on (tick times above
// all) meets the same machine at the same moments.
std::vector<ScaleResult> RunScale(std::span<const ScaleSettings> settings, std::string* error);

void to_json(nlohmann::json& j, const ScaleResult& r);

}  // namespace netcube::bench
