#include "scale_figures.h"

#include "clock.h"

namespace netcube::bench {
namespace {

// The window's snapshots: their size, the deltas' share and age, the bits a cube took, the encoder's work.
void SetSnapshotFigures(const server::ServerStats& start, const server::ServerStats& end, int clients,
                        ScaleResult& r) {
  const auto snapshots = static_cast<double>(end.snapshots_sent - start.snapshots_sent);
  // Only the shared snapshots count their cube bits (an InterestSnapshot names fewer cubes).
  const auto shared =
      snapshots - static_cast<double>(end.interest_snapshots_sent - start.interest_snapshots_sent);
  if (snapshots > 0) {
    r.snapshot_bytes = static_cast<double>(end.snapshot_bytes_sent - start.snapshot_bytes_sent) / snapshots;
    const auto deltas = static_cast<double>(end.delta_snapshots_sent - start.delta_snapshots_sent);
    r.delta_share = deltas / snapshots;
    if (deltas > 0)
      r.delta_age_ticks = static_cast<double>(end.delta_age_ticks - start.delta_age_ticks) / deltas;
    r.deltas_declined_share = static_cast<double>(end.deltas_declined - start.deltas_declined) / snapshots;
  }
  if (shared > 0)
    r.cube_bits = static_cast<double>(end.snapshot_cube_bits - start.snapshot_cube_bits) / shared / clients;
  r.bytes_per_cube = r.snapshot_bytes / clients;
  if (end.ticks > start.ticks) {
    r.encodes_per_tick = static_cast<double>(end.snapshot_encodes - start.snapshot_encodes) /
                         static_cast<double>(end.ticks - start.ticks);
  }
}

// The window's InterestSnapshots: their share of the snapshots, their members and states; and, over the
// server's life to the window's end, the largest snapshot and the stalest members.
void SetInterestFigures(const server::ServerStats& start, const server::ServerStats& end, int tick_rate,
                        ScaleResult& r) {
  r.largest_snapshot_bytes = end.largest_snapshot_bytes;
  const auto snapshots = static_cast<double>(end.snapshots_sent - start.snapshots_sent);
  const auto interest = static_cast<double>(end.interest_snapshots_sent - start.interest_snapshots_sent);
  if (snapshots > 0) r.interest_share = interest / snapshots;
  if (interest > 0) {
    r.members_per_snapshot = static_cast<double>(end.interest_members - start.interest_members) / interest;
    const auto states = static_cast<double>(end.interest_states - start.interest_states);
    r.states_per_snapshot = states / interest;
    if (states > 0)
      r.predicted_share = static_cast<double>(end.interest_predicted - start.interest_predicted) / states;
  }
  const double ms_per_tick = 1000.0 / tick_rate;
  r.stalest_member_ms = static_cast<double>(end.stalest_member_ticks) * ms_per_tick;
  r.stalest_near_member_ms = static_cast<double>(end.stalest_near_member_ticks) * ms_per_tick;
}

// The bots' own figures, summed over their reports; in sync only if every report says so.
void SetBotFigures(std::span<const nlohmann::json> reports, ScaleResult& r) {
  r.all_final_match = true;
  for (const nlohmann::json& report : reports) {
    const nlohmann::json& totals = report.at("totals");
    r.corrections += totals.value("corrections", std::uint64_t{0});
    r.rtt_ms_mean += totals.value("rtt_ms_mean", 0.0) / static_cast<double>(reports.size());
    r.all_final_match = r.all_final_match && totals.value("all_final_match", false);
  }
}

// The window's snapshots as the players who stayed received them, and the churn.
void SetPlayerCountFigures(const PlayerCounts& start, const PlayerCounts& end, ScaleResult& r) {
  const auto deltas = static_cast<double>(end.snapshots_delta - start.snapshots_delta);
  const auto full = static_cast<double>(end.snapshots_full - start.snapshots_full);
  if (deltas + full > 0) r.players_delta_share = deltas / (deltas + full);
  r.churn_joins = end.churn_joins - start.churn_joins;
  r.churn_leaves = end.churn_leaves - start.churn_leaves;
}

// How the run was made.
nlohmann::json SettingsJson(const ScaleSettings& s) {
  return {{"clients", s.clients},
          {"tick_rate", s.tick_rate},
          {"snapshot_rate", s.snapshot_rate},
          {"redundancy", s.redundancy},
          {"collisions", s.collisions},
          {"arena", std::to_string(s.arena.width_units()) + "x" + std::to_string(s.arena.height_units())},
          {"window_s", s.window_s},
          {"tick_clock", s.cpu_tick_clock ? "thread_cpu" : "wall"},
          {"time", s.virtual_time ? "virtual" : "real"},
          {"tag_interval_ms", s.tag_interval_ms},
          {"lag_compensation", s.lag_compensation},
          {"snapshot_encoding", s.delta_snapshots ? "delta" : "full"},
          {"interest", s.interest ? "on" : "off"},
          {"interest_radius_units", s.interest_radius_units},
          {"snapshot_budget", s.snapshot_budget},
          {"idle_fraction", s.idle_fraction},
          {"spectators", s.spectators},
          {"spectator_snapshot_rate", s.spectator_snapshot_rate},
          {"churn", s.churn},
          {"link", s.link_name},
          {"seed", s.seed}};
}

}  // namespace

Totals TakeTotals(const server::Server& server, Micros now, std::optional<PlayerCounts> players) {
  Totals t;
  t.at = now;
  t.players = players;
  t.stats = server.stats();
  for (const server::ClientInfo& c : server.clients()) {
    t.bytes_sent += c.bytes_sent;
    t.bytes_received += c.bytes_received;
  }
  return t;
}

ScaleResult ResultOf(const ScaleSettings& settings, const Totals& start, const Totals& end,
                     const server::ServerStats& final_stats, std::span<const nlohmann::json> reports,
                     const std::string& bots_problem) {
  ScaleResult r;
  r.settings = settings;
  const server::TickDurations& ticks = end.stats.tick_durations;
  r.tick_p50_us = static_cast<double>(ticks.p50.count());
  r.tick_p99_us = static_cast<double>(ticks.p99.count());
  r.tick_max_us = static_cast<double>(ticks.max.count());
  r.network_p50_us = static_cast<double>(end.stats.network_durations.p50.count());
  r.network_p99_us = static_cast<double>(end.stats.network_durations.p99.count());
  r.ticks = end.stats.ticks;
  r.ticks_skipped = end.stats.ticks_skipped;
  r.tags_judged = end.stats.tags_judged - start.stats.tags_judged;
  // The server's counters take in every client, spectators too; the players' own bytes only the players.
  const double client_seconds = ToSeconds(end.at - start.at) * (settings.clients + settings.spectators);
  const auto per_client_second = [client_seconds](std::uint64_t after, std::uint64_t before) {
    return static_cast<double>(after - before) / client_seconds;
  };
  const double player_seconds = ToSeconds(end.at - start.at) * settings.clients;
  const auto per_player_second = [player_seconds](std::uint64_t after, std::uint64_t before) {
    return static_cast<double>(after - before) / player_seconds;
  };
  r.snapshots_per_s = per_client_second(end.stats.snapshots_sent, start.stats.snapshots_sent);
  SetSnapshotFigures(start.stats, end.stats, settings.clients, r);
  SetInterestFigures(start.stats, end.stats, settings.tick_rate, r);
  r.snapshot_bytes_per_s = per_client_second(end.stats.snapshot_bytes_sent, start.stats.snapshot_bytes_sent);
  r.down_bytes_per_s = per_player_second(end.bytes_sent, start.bytes_sent);
  r.up_bytes_per_s = per_player_second(end.bytes_received, start.bytes_received);
  r.wire_down_bytes_per_s = per_client_second(end.stats.wire_bytes_sent, start.stats.wire_bytes_sent);
  r.wire_up_bytes_per_s = per_client_second(end.stats.wire_bytes_received, start.stats.wire_bytes_received);
  r.dry_ticks = end.stats.inputs.dry_ticks - start.stats.inputs.dry_ticks;
  r.inputs_lost = final_stats.inputs.lost;
  r.inputs_dropped_rate_limit = final_stats.inputs.dropped_rate_limit;
  if (start.players && end.players) SetPlayerCountFigures(*start.players, *end.players, r);
  r.bots_problem = bots_problem;
  if (bots_problem.empty()) SetBotFigures(reports, r);
  return r;
}

void to_json(nlohmann::json& j, const ScaleResult& r) {
  j = {{"settings", SettingsJson(r.settings)},
       {"tick_us", {{"p50", r.tick_p50_us}, {"p99", r.tick_p99_us}, {"max", r.tick_max_us}}},
       {"network_us", {{"p50", r.network_p50_us}, {"p99", r.network_p99_us}}},
       {"ticks", r.ticks},
       {"ticks_skipped", r.ticks_skipped},
       {"tags_judged", r.tags_judged},
       {"per_client_per_s",
        {{"snapshots", r.snapshots_per_s},
         {"snapshot_bytes", r.snapshot_bytes_per_s},
         {"payload_down_bytes", r.down_bytes_per_s},
         {"payload_up_bytes", r.up_bytes_per_s},
         {"wire_down_bytes", r.wire_down_bytes_per_s},
         {"wire_up_bytes", r.wire_up_bytes_per_s}}},
       {"snapshot_bytes", r.snapshot_bytes},
       {"largest_snapshot_bytes", r.largest_snapshot_bytes},
       {"delta_share", r.delta_share},
       {"players_delta_share",
        r.players_delta_share ? nlohmann::json(*r.players_delta_share) : nlohmann::json(nullptr)},
       {"churn_joins", r.churn_joins},
       {"churn_leaves", r.churn_leaves},
       {"delta_age_ticks", r.delta_age_ticks},
       {"encodes_per_tick", r.encodes_per_tick},
       {"deltas_declined_share", r.deltas_declined_share},
       {"cube_bits_per_snapshot", r.cube_bits},
       {"bytes_per_cube_per_snapshot", r.bytes_per_cube},
       {"interest_share", r.interest_share},
       {"members_per_snapshot", r.members_per_snapshot},
       {"states_per_snapshot", r.states_per_snapshot},
       {"predicted_share", r.predicted_share},
       {"stalest_member_ms", r.stalest_member_ms},
       {"stalest_near_member_ms", r.stalest_near_member_ms},
       {"corrections", r.corrections},
       {"rtt_ms_mean", r.rtt_ms_mean},
       {"inputs_lost", r.inputs_lost},
       {"inputs_dropped_rate_limit", r.inputs_dropped_rate_limit},
       {"dry_ticks", r.dry_ticks},
       {"all_final_match", r.all_final_match},
       {"bots_problem", r.bots_problem}};
}

}  // namespace netcube::bench
