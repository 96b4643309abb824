#include "server_stats.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "files.h"

namespace netcube::apps {
namespace {

nlohmann::json SettingsJson(const server::ServerConfig& config) {
  return {
      {"tick_rate", config.tick_rate},
      {"snapshot_rate", config.snapshot_rate},
      {"max_snapshot_rate", config.max_snapshot_rate},
      {"snapshot_encoding", server::ToString(config.snapshot_encoding)},
      {"input_buffer", config.input_buffer},
      {"collisions", config.collisions},
      {"arena",
       std::to_string(config.arena.width_units()) + "x" + std::to_string(config.arena.height_units())},
      {"lag_compensation", config.lag_compensation},
      {"max_rewind_ms", config.max_rewind_ms},
      {"interest", config.interest},
      {"interest_radius", config.interest_radius_units},
      {"snapshot_budget", config.snapshot_budget},
      {"max_clients", config.max_clients},
      {"max_spectators", config.max_spectators},
      {"spectator_snapshot_rate", config.spectator_snapshot_rate},
      {"peer_timeout_ms", config.peer_timeout_ms},
  };
}

nlohmann::json StatsJson(const server::ServerStats& stats) {
  return {
      {"ticks", stats.ticks},
      {"ticks_skipped", stats.ticks_skipped},
      {"snapshots_sent", stats.snapshots_sent},
      {"delta_snapshots_sent", stats.delta_snapshots_sent},
      {"snapshot_encodes", stats.snapshot_encodes},
      {"snapshot_bytes_sent", stats.snapshot_bytes_sent},
      {"snapshot_cube_bits", stats.snapshot_cube_bits},
      {"delta_age_ticks", stats.delta_age_ticks},
      {"deltas_declined", stats.deltas_declined},
      {"largest_snapshot_bytes", stats.largest_snapshot_bytes},
      {"interest_snapshots_sent", stats.interest_snapshots_sent},
      {"interest_members", stats.interest_members},
      {"interest_states", stats.interest_states},
      {"interest_predicted", stats.interest_predicted},
      {"stalest_member_ticks", stats.stalest_member_ticks},
      {"stalest_near_member_ticks", stats.stalest_near_member_ticks},
      {"tick_us_p50", stats.tick_durations.p50.count()},
      {"tick_us_p99", stats.tick_durations.p99.count()},
      {"tick_us_max", stats.tick_durations.max.count()},
      {"clients_peak", stats.clients_peak},
      {"spectators", stats.spectators},
      {"clients_refused", stats.clients_refused},
      {"inputs_processed", stats.inputs.processed},
      {"inputs_duplicate", stats.inputs.duplicate},
      {"inputs_dropped_rate_limit", stats.inputs.dropped_rate_limit},
      {"inputs_lost", stats.inputs.lost},
      {"input_streaming_ticks", stats.inputs.streaming_ticks},
      {"input_dry_ticks", stats.inputs.dry_ticks},
      {"packets_malformed", stats.packets_malformed},
      {"tags_judged", stats.tags_judged},
      {"tags_hit", stats.tags_hit},
      {"tags_refused", stats.tags_refused},
      {"tags_capped", stats.tags_capped},
      {"bystander_hits_withheld", stats.bystander_hits_withheld},
      {"rewind_ms_max", stats.rewind_ms_max},
      {"bytes_sent", stats.wire_bytes_sent},
      {"bytes_received", stats.wire_bytes_received},
      {"payload_bytes_sent", stats.payload_bytes_sent},
      {"payload_bytes_received", stats.payload_bytes_received},
      {"network_us_p50", stats.network_durations.p50.count()},
      {"network_us_p99", stats.network_durations.p99.count()},
      {"network_us_max", stats.network_durations.max.count()},
      {"datagrams_filtered", stats.datagrams_filtered},
      {"receive_errors", stats.receive_errors},
      {"peers_reset", stats.peers_reset},
      {"peers_kicked", stats.peers_kicked},
      {"peers_evicted", stats.peers_evicted},
      {"time_echoes_throttled", stats.time_echoes_throttled},
      {"challenges_sent", stats.challenges_sent},
      {"challenges_confirmed", stats.challenges_confirmed},
  };
}

}  // namespace

std::string ServerStatsJson(const server::Server& server, int indent) {
  nlohmann::json json = StatsJson(server.stats());
  json["settings"] = SettingsJson(server.config());
  return json.dump(indent);
}

bool WriteServerStats(const std::string& path, const server::Server& server, std::string* error) {
  const std::string temporary = path + ".tmp";
  if (!WriteFile(temporary, ServerStatsJson(server, 2) + "\n", error)) return false;
  std::error_code rename_error;
  std::filesystem::rename(temporary, path, rename_error);
  if (rename_error) *error = "cannot write " + path + ": " + rename_error.message();
  return !rename_error;
}

}  // namespace netcube::apps
