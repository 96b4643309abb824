#include "bot_report_json.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace netcube::apps {
namespace {

nlohmann::json PointJson(client::Vec2 v) { return {{"x", v.x}, {"y", v.y}}; }

// One player's figures as the report lists them.
nlohmann::json PlayerJson(const client::BotPlayerReport& p) {
  const client::Metrics& m = p.metrics;
  return {{"name", p.name},
          {"player_id", p.player_id},
          {"connected", p.connected},
          {"status", p.status},
          {"settled", p.settled},
          {"inputs_sent", m.inputs_sent},
          {"inputs_acked", m.inputs_acked},
          {"input_messages_sent", m.input_messages_sent},
          {"reconciliations", m.reconciliations},
          {"corrections", m.corrections},
          {"max_correction", m.max_correction},
          {"mean_correction", m.mean_correction},
          {"rtt_ms_mean", m.rtt_ms_mean},
          {"rtt_jitter_ms", m.rtt_jitter_ms},
          {"snapshot_loss", m.snapshot_loss},
          {"snapshots_received", m.snapshots_received},
          {"snapshot_rate", m.snapshot_rate},
          {"snapshot_rate_asked", m.snapshot_rate_asked},
          {"snapshots_stale", m.snapshots_stale},
          {"snapshots_full", m.snapshots_full},
          {"snapshots_delta", m.snapshots_delta},
          {"snapshots_interest", m.snapshots_interest},
          {"snapshots_no_baseline", m.snapshots_no_baseline},
          {"bytes_up", m.bytes_up},
          {"bytes_down", m.bytes_down},
          {"wire_bytes_up", m.wire_bytes_up},
          {"wire_bytes_down", m.wire_bytes_down},
          {"interp_underruns", m.interp_underruns},
          {"interp_delay_ms", m.interp_delay_ms},
          {"extrapolation_ms", m.extrapolation_ms},
          {"packets_malformed", m.packets_malformed},
          {"tags_fired", m.tags_fired},
          {"tags_hit", m.tags_hit},
          {"tags_missed", m.tags_missed},
          {"tags_refused", m.tags_refused},
          {"tags_taken", m.tags_taken},
          {"rewind_ms_mean", m.rewind_ms_mean},
          {"victim_view_ms",
           {{"mean", m.victim_view_ms_mean}, {"p99", m.victim_view_ms_p99}, {"max", m.victim_view_ms_max}}},
          {"final_predicted", PointJson(p.final_predicted)},
          {"final_server", PointJson(p.final_server)},
          {"final_match", p.final_match}};
}

// Adds a player's counts to the totals, its largest correction and whether it settled and matched.
void AddToTotals(nlohmann::json& totals, const client::BotPlayerReport& p) {
  const client::Metrics& m = p.metrics;
  const auto add = [&totals](const char* key, std::uint64_t v) {
    totals[key] = totals[key].get<std::uint64_t>() + v;
  };
  add("inputs_sent", m.inputs_sent);
  add("inputs_acked", m.inputs_acked);
  add("reconciliations", m.reconciliations);
  add("corrections", m.corrections);
  add("bytes_up", m.bytes_up);
  add("bytes_down", m.bytes_down);
  add("interp_underruns", m.interp_underruns);
  add("packets_malformed", m.packets_malformed);
  add("tags_fired", m.tags_fired);
  add("tags_hit", m.tags_hit);
  add("tags_taken", m.tags_taken);
  totals["max_correction"] = std::max(totals["max_correction"].get<double>(), m.max_correction);
  totals["all_settled"] = totals["all_settled"].get<bool>() && p.settled;
  totals["all_final_match"] = totals["all_final_match"].get<bool>() && p.final_match;
}

}  // namespace

std::string BotReportJson(const client::BotReport& report) {
  nlohmann::json players_json = nlohmann::json::array();
  nlohmann::json totals = {{"players", report.players.size()},
                           {"inputs_sent", 0},
                           {"inputs_acked", 0},
                           {"reconciliations", 0},
                           {"corrections", 0},
                           {"max_correction", 0.0},
                           {"rtt_ms_mean", 0.0},
                           {"bytes_up", 0},
                           {"bytes_down", 0},
                           {"interp_underruns", 0},
                           {"packets_malformed", 0},
                           {"tags_fired", 0},
                           {"tags_hit", 0},
                           {"tags_taken", 0},
                           {"all_settled", true},
                           {"all_final_match", true}};
  double rtt_sum = 0.0;
  for (const client::BotPlayerReport& p : report.players) {
    players_json.push_back(PlayerJson(p));
    AddToTotals(totals, p);
    rtt_sum += p.metrics.rtt_ms_mean;
  }
  if (!report.players.empty()) {
    totals["rtt_ms_mean"] = rtt_sum / static_cast<double>(report.players.size());
  }
  return nlohmann::json{{"players", players_json}, {"totals", totals}}.dump(2) + "\n";
}

}  // namespace netcube::apps
