#include "scale.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <thread>
#include <utility>
#include <vector>

#include "bot_process.h"
#include "clock.h"
#include "netcube/protocol/messages.h"
#include "netcube/server/server.h"

namespace netcube::bench {
namespace {

constexpr Micros kMaxSleep{1000};
constexpr Micros kJoinTimeout{30'000'000};
constexpr Micros kWarmup{1'000'000};      // after the last join, before the window opens
constexpr double kPlayMarginS = 1.5;      // the bots play on this long after the window closes
constexpr double kSettleTimeoutS = 20.0;  // the bots' own bound on settling after their script
constexpr Micros kExitGrace{15'000'000};  // beyond play and settling, before the bots are killed
constexpr Micros kGoodbyeDeadline{500'000};

Micros Seconds(double s) { return Micros(static_cast<std::int64_t>(s * 1e6)); }
double ToSeconds(Micros t) { return static_cast<double>(t.count()) / 1e6; }

void SleepUntil(Micros wakeup) {
  const Micros now = WallNow();
  const Micros until = std::min(wakeup, now + kMaxSleep);
  if (until > now) std::this_thread::sleep_for(until - now);
}

// What the window's figures are computed from: the server's totals at its start and at its end.
struct Totals {
  Micros at{0};
  server::ServerStats stats;
  std::uint64_t bytes_sent = 0;  // payload to the players, summed
  std::uint64_t bytes_received = 0;
};

Totals TakeTotals(const server::Server& server, Micros now) {
  Totals t;
  t.at = now;
  t.stats = server.stats();
  for (const server::ClientInfo& c : server.clients()) {
    t.bytes_sent += c.bytes_sent;
    t.bytes_received += c.bytes_received;
  }
  return t;
}

void Shutdown(server::Server& server) {
  server.Shutdown(WallNow());
  for (const Micros end = WallNow() + kGoodbyeDeadline; server.peer_count() > 0 && WallNow() < end;) {
    server.Update(WallNow());
    SleepUntil(WallNow() + kMaxSleep);
  }
}

}  // namespace

std::optional<ScaleResult> RunScale(const ScaleSettings& settings, std::string* error) {
  server::ServerConfig config;
  config.bind_address = "127.0.0.1";
  config.port = 0;
  config.tick_rate = settings.tick_rate;
  config.snapshot_rate = settings.snapshot_rate;
  config.max_clients = static_cast<std::size_t>(settings.clients);
  config.max_per_address = config.max_clients + server::kSpareConnectionSlots;  // every bot on 127.0.0.1
  config.collisions = settings.collisions;
  config.lag_compensation = settings.lag_compensation;
  config.snapshot_encoding =
      settings.delta_snapshots ? server::SnapshotEncoding::kDelta : server::SnapshotEncoding::kFull;
  config.work_clock =
      settings.cpu_tick_clock ? std::function<Micros()>(ThreadCpuNow) : std::function<Micros()>(WallNow);
  std::unique_ptr<server::Server> server = server::Server::Create(config, WallNow(), error);
  if (!server) return std::nullopt;

  const double play_s = ToSeconds(kWarmup) + settings.window_s + kPlayMarginS;
  const std::string work_prefix =
      (std::filesystem::temp_directory_path() / ("netcube-bench-" + std::to_string(getpid()) + "-scale"))
          .string();
  // The players who play at random, and those who stand still, each in their own netcube-bot process
  // (one per link of a mixed run), at the snapshot rate the scenario sets (a bot asking for its own would
  // change what is measured).
  const int idle = static_cast<int>(std::lround(settings.idle_fraction * settings.clients));
  const std::vector<transport::LinkProfile> links =
      settings.mixed_links.empty()
          ? std::vector<transport::LinkProfile>{{settings.link_name, "", settings.link}}
          : settings.mixed_links;
  std::vector<BotProcess> bots;
  for (const auto& [players, script] :
       {std::pair{settings.clients - idle, "random"}, std::pair{idle, "idle"}}) {
    for (std::size_t l = 0; l < links.size(); ++l) {
      // An even share of the group, the first links taking one more while the remainder lasts.
      const int count = players / static_cast<int>(links.size()) +
                        (static_cast<int>(l) < players % static_cast<int>(links.size()) ? 1 : 0);
      if (count == 0) continue;
      const transport::LinkSettings& link = links[l].settings;
      const std::string name =
          links.size() == 1 ? std::string(script) : std::string(script) + "-" + links[l].name;
      std::optional<BotProcess> group = BotProcess::Spawn(settings.bot_path,
                                                          {"--connect",
                                                           "127.0.0.1:" + std::to_string(server->port()),
                                                           "--count",
                                                           std::to_string(count),
                                                           "--duration",
                                                           std::to_string(play_s),
                                                           "--redundancy",
                                                           std::to_string(settings.redundancy),
                                                           "--adaptive-snapshot-rate",
                                                           "off",
                                                           "--script",
                                                           script,
                                                           "--seed",
                                                           std::to_string(settings.seed + l),
                                                           "--name",
                                                           name.substr(0, 10),
                                                           "--settle-timeout",
                                                           std::to_string(kSettleTimeoutS),
                                                           "--tag-interval-ms",
                                                           std::to_string(settings.tag_interval_ms),
                                                           "--latency-ms",
                                                           std::to_string(link.latency_ms),
                                                           "--jitter-ms",
                                                           std::to_string(link.jitter_ms),
                                                           "--loss",
                                                           std::to_string(link.loss),
                                                           "--duplicate",
                                                           std::to_string(link.duplicate)},
                                                          work_prefix + "-" + name, error);
      if (!group) return std::nullopt;
      bots.push_back(std::move(*group));
    }
  }
  const auto any_exited = [&bots] {
    return std::any_of(bots.begin(), bots.end(), [](BotProcess& b) { return b.Exited(); });
  };
  const auto all_exited = [&bots] {
    return std::all_of(bots.begin(), bots.end(), [](BotProcess& b) { return b.Exited(); });
  };

  const auto fail = [&](const std::string& why) {
    *error = why;
    for (BotProcess& b : bots) {
      b.Kill();
      *error += "\n" + b.LogTail(5);
    }
    Shutdown(*server);
    return std::nullopt;
  };

  // Everyone joins, a warm-up, the window.
  const Micros join_deadline = WallNow() + kJoinTimeout;
  while (server->clients().size() < static_cast<std::size_t>(settings.clients)) {
    server->Update(WallNow());
    if (any_exited()) return fail("netcube-bot exited before every player joined");
    if (WallNow() > join_deadline) return fail("the players did not all join within 30 s");
    SleepUntil(server->next_wakeup());
  }
  for (const Micros end = WallNow() + kWarmup; WallNow() < end;) {
    server->Update(WallNow());
    SleepUntil(server->next_wakeup());
  }
  const Totals start = TakeTotals(*server, WallNow());
  for (const Micros end = start.at + Seconds(settings.window_s); WallNow() < end;) {
    server->Update(WallNow());
    SleepUntil(server->next_wakeup());
  }
  const Totals end = TakeTotals(*server, WallNow());
  if (end.stats.clients != static_cast<std::size_t>(settings.clients)) {
    return fail("players left during the measurement window");
  }

  // The bots finish their script, settle and report. Their figures are secondary: if they fail now, the
  // window's server figures still stand and the failure is reported with them.
  std::string bots_problem;
  std::vector<nlohmann::json> reports;
  const Micros exit_deadline = WallNow() + Seconds(kPlayMarginS + kSettleTimeoutS) + kExitGrace;
  while (!all_exited() && WallNow() < exit_deadline) {
    server->Update(WallNow());
    SleepUntil(server->next_wakeup());
  }
  for (BotProcess& b : bots) {
    if (!b.Exited()) {
      b.Kill();
      bots_problem = "netcube-bot did not finish in time";
    } else if (!b.Succeeded()) {
      bots_problem = "netcube-bot failed after the window: " + b.LogTail(1);
    } else if (std::optional<nlohmann::json> report = b.ReadReport(&bots_problem)) {
      reports.push_back(std::move(*report));
    }
  }
  while (!bots_problem.empty() && bots_problem.back() == '\n') bots_problem.pop_back();
  const server::ServerStats final_stats = server->stats();  // inputs of the whole run, settling included
  Shutdown(*server);

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
  const double client_seconds = ToSeconds(end.at - start.at) * settings.clients;
  const auto per_client_second = [client_seconds](std::uint64_t after, std::uint64_t before) {
    return static_cast<double>(after - before) / client_seconds;
  };
  r.snapshots_per_s = per_client_second(end.stats.snapshots_sent, start.stats.snapshots_sent);
  const auto snapshots = static_cast<double>(end.stats.snapshots_sent - start.stats.snapshots_sent);
  if (snapshots > 0) {
    r.snapshot_bytes =
        static_cast<double>(end.stats.snapshot_bytes_sent - start.stats.snapshot_bytes_sent) / snapshots;
    const auto deltas =
        static_cast<double>(end.stats.delta_snapshots_sent - start.stats.delta_snapshots_sent);
    r.delta_share = deltas / snapshots;
    if (deltas > 0)
      r.delta_age_ticks =
          static_cast<double>(end.stats.delta_age_ticks - start.stats.delta_age_ticks) / deltas;
    r.deltas_declined_share =
        static_cast<double>(end.stats.deltas_declined - start.stats.deltas_declined) / snapshots;
    r.cube_bits = static_cast<double>(end.stats.snapshot_cube_bits - start.stats.snapshot_cube_bits) /
                  snapshots / settings.clients;
  }
  r.bytes_per_cube = r.snapshot_bytes / settings.clients;
  if (end.stats.ticks > start.stats.ticks) {
    r.prediction_moves_per_tick =
        static_cast<double>(end.stats.delta_prediction_moves - start.stats.delta_prediction_moves) /
        static_cast<double>(end.stats.ticks - start.stats.ticks);
  }
  r.snapshot_bytes_per_s = per_client_second(end.stats.snapshot_bytes_sent, start.stats.snapshot_bytes_sent);
  r.down_bytes_per_s = per_client_second(end.bytes_sent, start.bytes_sent);
  r.up_bytes_per_s = per_client_second(end.bytes_received, start.bytes_received);
  r.wire_down_bytes_per_s = per_client_second(end.stats.wire_bytes_sent, start.stats.wire_bytes_sent);
  r.wire_up_bytes_per_s = per_client_second(end.stats.wire_bytes_received, start.stats.wire_bytes_received);
  r.inputs_lost = final_stats.inputs.lost;
  r.inputs_dropped_rate_limit = final_stats.inputs.dropped_rate_limit;
  r.bots_problem = bots_problem;
  if (bots_problem.empty()) {
    r.all_final_match = true;
    for (const nlohmann::json& report : reports) {
      const nlohmann::json& totals = report.at("totals");
      r.corrections += totals.value("corrections", std::uint64_t{0});
      r.rtt_ms_mean += totals.value("rtt_ms_mean", 0.0) / static_cast<double>(reports.size());
      r.all_final_match = r.all_final_match && totals.value("all_final_match", false);
    }
  }
  return r;
}

void to_json(nlohmann::json& j, const ScaleResult& r) {
  const ScaleSettings& s = r.settings;
  j = {{"settings",
        {{"clients", s.clients},
         {"tick_rate", s.tick_rate},
         {"snapshot_rate", s.snapshot_rate},
         {"redundancy", s.redundancy},
         {"collisions", s.collisions},
         {"window_s", s.window_s},
         {"tick_clock", s.cpu_tick_clock ? "thread_cpu" : "wall"},
         {"tag_interval_ms", s.tag_interval_ms},
         {"lag_compensation", s.lag_compensation},
         {"snapshot_encoding", s.delta_snapshots ? "delta" : "full"},
         {"idle_fraction", s.idle_fraction},
         {"link", s.link_name},
         {"seed", s.seed}}},
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
       {"delta_share", r.delta_share},
       {"delta_age_ticks", r.delta_age_ticks},
       {"prediction_moves_per_tick", r.prediction_moves_per_tick},
       {"deltas_declined_share", r.deltas_declined_share},
       {"cube_bits_per_snapshot", r.cube_bits},
       {"bytes_per_cube_per_snapshot", r.bytes_per_cube},
       {"corrections", r.corrections},
       {"rtt_ms_mean", r.rtt_ms_mean},
       {"inputs_lost", r.inputs_lost},
       {"inputs_dropped_rate_limit", r.inputs_dropped_rate_limit},
       {"all_final_match", r.all_final_match},
       {"bots_problem", r.bots_problem}};
}

}  // namespace netcube::bench
