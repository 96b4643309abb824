#include "scale.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bot_process.h"
#include "bot_report_json.h"
#include "clock.h"
#include "netcube/client/bot.h"
#include "netcube/protocol/messages.h"
#include "netcube/server/server.h"
#include "netcube/transport/network.h"

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

// The players of a run: those who play at random and those who stand still, each split evenly over the
// links (one group per link of a mixed run), the first links taking one more while the remainder lasts.
struct BotGroup {
  int count = 0;
  std::string script;
  transport::LinkSettings link;
  std::string name;
  std::uint64_t seed = 0;
};

std::vector<BotGroup> BotGroups(const ScaleSettings& settings) {
  const int idle = static_cast<int>(std::lround(settings.idle_fraction * settings.clients));
  const std::vector<transport::LinkProfile> links =
      settings.mixed_links.empty()
          ? std::vector<transport::LinkProfile>{{settings.link_name, "", settings.link}}
          : settings.mixed_links;
  std::vector<BotGroup> groups;
  for (const auto& [players, script] :
       {std::pair{settings.clients - idle, "random"}, std::pair{idle, "idle"}}) {
    for (std::size_t l = 0; l < links.size(); ++l) {
      const int count = players / static_cast<int>(links.size()) +
                        (static_cast<int>(l) < players % static_cast<int>(links.size()) ? 1 : 0);
      if (count == 0) continue;
      std::string name = links.size() == 1 ? std::string(script) : std::string(script) + "-" + links[l].name;
      groups.push_back({count, script, links[l].settings, name.substr(0, 10), settings.seed + l});
    }
  }
  return groups;
}

// The players' clock, and where their CPU time goes: real time, the players in netcube-bot processes over
// UDP; or virtual time, the players in this process over the in-memory network, everyone stepped 1 ms at a
// time, so that no player is ever late for want of a core (as if each had its own machine).
class Players {
 public:
  virtual ~Players() = default;
  virtual Micros Now() const = 0;
  // Updates the server (and, on virtual time, every player) to the next moment worth waking for.
  virtual void Step(server::Server& server) = 0;
  virtual bool AnyExited() = 0;
  virtual bool AllExited() = 0;
  // Ends what still runs; the reports of those that succeeded, and what went wrong with the others.
  virtual std::vector<nlohmann::json> Finish(std::string* problem) = 0;
  virtual std::string LogTails() = 0;
};

class BotProcesses final : public Players {
 public:
  static std::unique_ptr<BotProcesses> Spawn(const ScaleSettings& settings, std::uint16_t port, double play_s,
                                             std::string* error) {
    auto players = std::make_unique<BotProcesses>();
    const std::string work_prefix =
        (std::filesystem::temp_directory_path() / ("netcube-bench-" + std::to_string(getpid()) + "-scale"))
            .string();
    // At the snapshot rate the scenario sets (a bot asking for its own would change what is measured).
    for (const BotGroup& group : BotGroups(settings)) {
      std::optional<BotProcess> process = BotProcess::Spawn(settings.bot_path,
                                                            {"--connect",
                                                             "127.0.0.1:" + std::to_string(port),
                                                             "--count",
                                                             std::to_string(group.count),
                                                             "--duration",
                                                             std::to_string(play_s),
                                                             "--redundancy",
                                                             std::to_string(settings.redundancy),
                                                             "--adaptive-snapshot-rate",
                                                             "off",
                                                             "--script",
                                                             group.script,
                                                             "--seed",
                                                             std::to_string(group.seed),
                                                             "--name",
                                                             group.name,
                                                             "--settle-timeout",
                                                             std::to_string(kSettleTimeoutS),
                                                             "--tag-interval-ms",
                                                             std::to_string(settings.tag_interval_ms),
                                                             "--latency-ms",
                                                             std::to_string(group.link.latency_ms),
                                                             "--jitter-ms",
                                                             std::to_string(group.link.jitter_ms),
                                                             "--loss",
                                                             std::to_string(group.link.loss),
                                                             "--duplicate",
                                                             std::to_string(group.link.duplicate)},
                                                            work_prefix + "-" + group.name, error);
      if (!process) return nullptr;
      players->bots_.push_back(std::move(*process));
    }
    return players;
  }

  Micros Now() const override { return WallNow(); }
  void Step(server::Server& server) override {
    server.Update(WallNow());
    SleepUntil(server.next_wakeup());
  }
  bool AnyExited() override {
    return std::any_of(bots_.begin(), bots_.end(), [](BotProcess& b) { return b.Exited(); });
  }
  bool AllExited() override {
    return std::all_of(bots_.begin(), bots_.end(), [](BotProcess& b) { return b.Exited(); });
  }
  std::vector<nlohmann::json> Finish(std::string* problem) override {
    std::vector<nlohmann::json> reports;
    for (BotProcess& b : bots_) {
      if (!b.Exited()) {
        b.Kill();
        *problem = "netcube-bot did not finish in time";
      } else if (!b.Succeeded()) {
        *problem = "netcube-bot failed after the window: " + b.LogTail(1);
      } else if (std::optional<nlohmann::json> report = b.ReadReport(problem)) {
        reports.push_back(std::move(*report));
      }
    }
    return reports;
  }
  std::string LogTails() override {
    std::string tails;
    for (BotProcess& b : bots_) {
      b.Kill();
      tails += "\n" + b.LogTail(5);
    }
    return tails;
  }

 private:
  std::vector<BotProcess> bots_;
};

class VirtualPlayers final : public Players {
 public:
  static std::unique_ptr<VirtualPlayers> Start(const ScaleSettings& settings,
                                               std::shared_ptr<transport::Network> network,
                                               std::uint16_t port, double play_s, std::string* error) {
    auto players = std::make_unique<VirtualPlayers>();
    for (const BotGroup& group : BotGroups(settings)) {
      client::BotConfig config;
      config.network = network;
      config.port = port;
      config.count = group.count;
      config.duration_s = play_s;
      // As netcube-bot runs them: every technique on, 60 views a second, at the scenario's snapshot rate.
      config.settings = client::PresetSettings(client::Preset::kFull);
      config.settings.redundancy = settings.redundancy;
      config.settings.adaptive_snapshot_rate = false;
      config.view_interval = Micros(1'000'000 / 60);
      config.link = group.link;
      config.seed = group.seed;
      const std::optional<client::InputScript> script = client::InputScript::Parse(group.script, error);
      if (!script) return nullptr;
      config.script = *script;
      config.name_prefix = group.name;
      config.settle_timeout_s = kSettleTimeoutS;
      config.tag_interval_ms = settings.tag_interval_ms;
      std::unique_ptr<client::BotRun> run = client::BotRun::Start(config, players->now_, error);
      if (!run) return nullptr;
      players->runs_.push_back(std::move(run));
      players->running_.push_back(true);
    }
    return players;
  }

  Micros Now() const override { return now_; }
  void Step(server::Server& server) override {
    now_ += kVirtualStep;
    server.Update(now_);
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      if (running_[i]) running_[i] = runs_[i]->Update(now_);
    }
  }
  // A run is over once its players settled after their script, or one failed (a refusal, a lost link).
  bool AnyExited() override {
    return std::any_of(runs_.begin(), runs_.end(),
                       [](const auto& run) { return run->failure().has_value(); });
  }
  bool AllExited() override {
    return std::none_of(running_.begin(), running_.end(), [](bool r) { return r; });
  }
  std::vector<nlohmann::json> Finish(std::string* problem) override {
    std::vector<nlohmann::json> reports;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      if (running_[i]) {
        *problem = "the players did not finish in time";
      } else if (runs_[i]->failure()) {
        *problem = "the players failed after the window: " + *runs_[i]->failure();
      } else {
        reports.push_back(nlohmann::json::parse(apps::BotReportJson(runs_[i]->Report())));
      }
    }
    return reports;
  }
  std::string LogTails() override {
    std::string tails;
    for (const auto& run : runs_) {
      if (run->failure()) tails += "\n" + *run->failure();
    }
    return tails;
  }

 private:
  static constexpr Micros kVirtualStep{1000};  // as netcube-bot's loop, without its sleeps
  Micros now_{0};
  std::vector<std::unique_ptr<client::BotRun>> runs_;
  std::vector<bool> running_;
};

// One server and its players, in a run of one or several side by side.
struct ServerRun {
  ScaleSettings settings;
  std::unique_ptr<server::Server> server;
  std::unique_ptr<Players> players;
  Totals start;
  Totals end;
  std::string bots_problem;
  std::vector<nlohmann::json> reports;
  server::ServerStats final_stats;
};

std::optional<ServerRun> StartRun(const ScaleSettings& settings, std::string* error) {
  const std::shared_ptr<transport::Network> network = transport::MakeNetwork(
      settings.virtual_time ? transport::NetworkKind::kMemory : transport::NetworkKind::kUdp);
  server::ServerConfig config;
  config.network = network;
  config.bind_address = "127.0.0.1";
  config.port = 0;
  config.tick_rate = settings.tick_rate;
  config.snapshot_rate = settings.snapshot_rate;
  config.max_clients = static_cast<std::size_t>(settings.clients);
  config.max_per_address = config.max_clients + server::kSpareConnectionSlots;  // every bot on 127.0.0.1
  config.collisions = settings.collisions;
  config.arena = settings.arena;
  config.lag_compensation = settings.lag_compensation;
  config.snapshot_encoding =
      settings.delta_snapshots ? server::SnapshotEncoding::kDelta : server::SnapshotEncoding::kFull;
  // On virtual time only the server's own CPU time measures its work: the players run on this thread too.
  if (settings.virtual_time && !settings.cpu_tick_clock) {
    *error = "virtual time needs the server thread's CPU clock";
    return std::nullopt;
  }
  config.work_clock =
      settings.cpu_tick_clock ? std::function<Micros()>(ThreadCpuNow) : std::function<Micros()>(WallNow);
  const Micros start_time = settings.virtual_time ? Micros{0} : WallNow();
  ServerRun run;
  run.settings = settings;
  run.server = server::Server::Create(config, start_time, error);
  if (!run.server) return std::nullopt;
  const double play_s = ToSeconds(kWarmup) + settings.window_s + kPlayMarginS;
  if (settings.virtual_time) {
    run.players = VirtualPlayers::Start(settings, network, run.server->port(), play_s, error);
  } else {
    run.players = BotProcesses::Spawn(settings, run.server->port(), play_s, error);
  }
  if (!run.players) return std::nullopt;
  return run;
}

// The window's snapshots: their size, the deltas' share and age, the bits a cube took, the encoder's work.
void SetSnapshotFigures(const server::ServerStats& start, const server::ServerStats& end, int clients,
                        ScaleResult& r) {
  const auto snapshots = static_cast<double>(end.snapshots_sent - start.snapshots_sent);
  if (snapshots > 0) {
    r.snapshot_bytes = static_cast<double>(end.snapshot_bytes_sent - start.snapshot_bytes_sent) / snapshots;
    const auto deltas = static_cast<double>(end.delta_snapshots_sent - start.delta_snapshots_sent);
    r.delta_share = deltas / snapshots;
    if (deltas > 0)
      r.delta_age_ticks = static_cast<double>(end.delta_age_ticks - start.delta_age_ticks) / deltas;
    r.deltas_declined_share = static_cast<double>(end.deltas_declined - start.deltas_declined) / snapshots;
    r.cube_bits =
        static_cast<double>(end.snapshot_cube_bits - start.snapshot_cube_bits) / snapshots / clients;
  }
  r.bytes_per_cube = r.snapshot_bytes / clients;
  if (end.ticks > start.ticks) {
    r.encodes_per_tick = static_cast<double>(end.snapshot_encodes - start.snapshot_encodes) /
                         static_cast<double>(end.ticks - start.ticks);
  }
}

ScaleResult ResultOf(const ServerRun& run) {
  const ScaleSettings& settings = run.settings;
  const Totals& start = run.start;
  const Totals& end = run.end;
  const server::ServerStats& final_stats = run.final_stats;  // inputs of the whole run, settling included
  const std::vector<nlohmann::json>& reports = run.reports;
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
  SetSnapshotFigures(start.stats, end.stats, settings.clients, r);
  r.snapshot_bytes_per_s = per_client_second(end.stats.snapshot_bytes_sent, start.stats.snapshot_bytes_sent);
  r.down_bytes_per_s = per_client_second(end.bytes_sent, start.bytes_sent);
  r.up_bytes_per_s = per_client_second(end.bytes_received, start.bytes_received);
  r.wire_down_bytes_per_s = per_client_second(end.stats.wire_bytes_sent, start.stats.wire_bytes_sent);
  r.wire_up_bytes_per_s = per_client_second(end.stats.wire_bytes_received, start.stats.wire_bytes_received);
  r.dry_ticks = end.stats.inputs.dry_ticks - start.stats.inputs.dry_ticks;
  r.inputs_lost = final_stats.inputs.lost;
  r.inputs_dropped_rate_limit = final_stats.inputs.dropped_rate_limit;
  r.bots_problem = run.bots_problem;
  if (run.bots_problem.empty()) {
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

// Runs side by side: every server and its players step in turn, 1 ms of virtual time each, so that their
// ticks meet the same machine (its caches, its interruptions) at the same moments. Each goes first at as many
// ticks (one tick period after another): the one stepped first pays for what the others' players left in
// the caches.
class SideBySide {
 public:
  explicit SideBySide(std::vector<ServerRun>& runs)
      : runs_(runs), tick_period_us_(1'000'000 / std::max(1, runs.front().settings.tick_rate)) {}

  Micros Now() const { return runs_.front().players->Now(); }
  void Step() {
    const auto first = static_cast<std::size_t>(Now().count() / tick_period_us_) % runs_.size();
    for (std::size_t k = 0; k < runs_.size(); ++k) {
      ServerRun& run = runs_[(first + k) % runs_.size()];
      run.players->Step(*run.server);
    }
  }
  bool AllJoined() const {
    return std::all_of(runs_.begin(), runs_.end(), [](const ServerRun& run) {
      return run.server->clients().size() >= static_cast<std::size_t>(run.settings.clients);
    });
  }
  bool AnyExited() {
    return std::any_of(runs_.begin(), runs_.end(), [](ServerRun& run) { return run.players->AnyExited(); });
  }
  bool AllExited() {
    return std::all_of(runs_.begin(), runs_.end(), [](ServerRun& run) { return run.players->AllExited(); });
  }
  // `why` with the players' log tails; the real-time servers shut down.
  std::string Failure(const std::string& why) {
    std::string error = why;
    for (ServerRun& run : runs_) {
      error += run.players->LogTails();
      if (!run.settings.virtual_time) Shutdown(*run.server);
    }
    return error;
  }

 private:
  std::vector<ServerRun>& runs_;
  std::int64_t tick_period_us_;
};

}  // namespace

std::vector<ScaleResult> RunScale(std::span<const ScaleSettings> settings, std::string* error) {
  if (settings.size() > 1 &&
      std::any_of(settings.begin(), settings.end(), [](const ScaleSettings& s) { return !s.virtual_time; })) {
    *error = "only runs on virtual time can run side by side";
    return {};
  }
  std::vector<ServerRun> runs;
  for (const ScaleSettings& s : settings) {
    std::optional<ServerRun> run = StartRun(s, error);
    if (!run) return {};
    runs.push_back(std::move(*run));
  }
  SideBySide side(runs);
  const auto fail = [&](const std::string& why) {
    *error = side.Failure(why);
    return std::vector<ScaleResult>{};
  };
  // Everyone joins, a warm-up, the window.
  const Micros join_deadline = side.Now() + kJoinTimeout;
  while (!side.AllJoined()) {
    side.Step();
    if (side.AnyExited()) return fail("the players stopped before every one joined");
    if (side.Now() > join_deadline) return fail("the players did not all join within 30 s");
  }
  for (const Micros end = side.Now() + kWarmup; side.Now() < end;) side.Step();
  for (ServerRun& run : runs) run.start = TakeTotals(*run.server, run.players->Now());
  const double window_s = runs.front().settings.window_s;
  for (const Micros end = side.Now() + Seconds(window_s); side.Now() < end;) side.Step();
  for (ServerRun& run : runs) {
    run.end = TakeTotals(*run.server, run.players->Now());
    if (run.end.stats.clients != static_cast<std::size_t>(run.settings.clients)) {
      return fail("players left during the measurement window");
    }
  }

  // The bots finish their script, settle and report. Their figures are secondary: if they fail now, the
  // window's server figures still stand and the failure is reported with them.
  const Micros exit_deadline = side.Now() + Seconds(kPlayMarginS + kSettleTimeoutS) + kExitGrace;
  while (!side.AllExited() && side.Now() < exit_deadline) side.Step();
  std::vector<ScaleResult> results;
  for (ServerRun& run : runs) {
    run.reports = run.players->Finish(&run.bots_problem);
    while (!run.bots_problem.empty() && run.bots_problem.back() == '\n') run.bots_problem.pop_back();
    run.final_stats = run.server->stats();
    if (!run.settings.virtual_time) Shutdown(*run.server);
    results.push_back(ResultOf(run));
  }
  return results;
}

void to_json(nlohmann::json& j, const ScaleResult& r) {
  const ScaleSettings& s = r.settings;
  j = {{"settings",
        {{"clients", s.clients},
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
       {"encodes_per_tick", r.encodes_per_tick},
       {"deltas_declined_share", r.deltas_declined_share},
       {"cube_bits_per_snapshot", r.cube_bits},
       {"bytes_per_cube_per_snapshot", r.bytes_per_cube},
       {"corrections", r.corrections},
       {"rtt_ms_mean", r.rtt_ms_mean},
       {"inputs_lost", r.inputs_lost},
       {"inputs_dropped_rate_limit", r.inputs_dropped_rate_limit},
       {"dry_ticks", r.dry_ticks},
       {"all_final_match", r.all_final_match},
       {"bots_problem", r.bots_problem}};
}

}  // namespace netcube::bench
