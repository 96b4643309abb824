#include "scale.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "clock.h"
#include "netcube/server/server.h"
#include "netcube/transport/network.h"
#include "scale_figures.h"
#include "scale_players.h"

namespace netcube::bench {
namespace {

constexpr Micros kJoinTimeout{30'000'000};  // beyond the joins' slack (JoinSlack)
constexpr Micros kWarmup{1'000'000};        // after the last join, before the window opens
constexpr double kPlayMarginS = 1.5;        // the bots play on at least this long after the window closes
constexpr Micros kExitGrace{15'000'000};    // beyond play and settling, before the bots are killed
constexpr Micros kGoodbyeDeadline{500'000};

Micros Seconds(double s) { return Micros(static_cast<std::int64_t>(s * 1e6)); }

std::string SecondsText(Micros t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", ToSeconds(t));
  return text;
}

// How much longer than their ramp the players' joins may take (JoinRamp): the bots play on by this much
// more, so that those who joined first still play when the window closes. On the ramp, every batch's
// play ends together; twice its time leaves room for batches held back (eight still joining) or started
// late by a bot process short of a core.
Micros JoinSlack(const ScaleSettings& settings) { return 2 * JoinRamp(settings); }

void Shutdown(server::Server& server) {
  server.Shutdown(WallNow());
  for (const Micros end = WallNow() + kGoodbyeDeadline; server.peer_count() > 0 && WallNow() < end;) {
    server.Update(WallNow());
    SleepUntil(WallNow() + kMaxSleep);
  }
}

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
  config.max_spectators = static_cast<std::size_t>(settings.spectators);
  config.spectator_snapshot_rate = settings.spectator_snapshot_rate;
  // Every bot and spectator may come from one address: on virtual time they do (on real time each bot
  // process has a loopback address of its own).
  config.max_per_address = config.max_clients + config.max_spectators + server::kSpareConnectionSlots;
  config.collisions = settings.collisions;
  config.arena = settings.arena;
  config.lag_compensation = settings.lag_compensation;
  config.snapshot_encoding =
      settings.delta_snapshots ? server::SnapshotEncoding::kDelta : server::SnapshotEncoding::kFull;
  config.interest = settings.interest;
  config.interest_radius_units = settings.interest_radius_units;
  config.snapshot_budget = settings.snapshot_budget;
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
  const double play_s =
      ToSeconds(kWarmup) + settings.window_s + kPlayMarginS + ToSeconds(JoinSlack(settings));
  run.players = StartPlayers(settings, network, run.server->port(), play_s, error);
  if (!run.players) return std::nullopt;
  return run;
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
      const server::ServerStats stats = run.server->stats();
      return stats.clients >= static_cast<std::size_t>(StayingPlayers(run.settings)) &&
             stats.spectators >= static_cast<std::size_t>(run.settings.spectators);
    });
  }
  bool AnyJoined() const {
    return std::any_of(runs_.begin(), runs_.end(),
                       [](const ServerRun& run) { return run.server->stats().clients_peak > 0; });
  }
  // Runs side by side are on virtual time, where everyone joins at once: only a run alone has a slack.
  Micros JoinSlack() const { return bench::JoinSlack(runs_.front().settings); }
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

// Steps until every player has joined; why not, if they did not. Every bot plays for at least its play
// time after the first join (its batch's play starts no earlier), which covers the warm-up, the window
// and kPlayMarginS when the joins took no longer than their slack.
std::string JoinEveryone(SideBySide& side) {
  const Micros slack = side.JoinSlack();
  const Micros limit = kJoinTimeout + slack;
  const Micros join_deadline = side.Now() + limit;
  std::optional<Micros> first_join;
  while (!side.AllJoined()) {
    side.Step();
    if (!first_join && side.AnyJoined()) first_join = side.Now();
    if (side.AnyExited()) return "the players stopped before every one joined";
    if (side.Now() > join_deadline) return "the players did not all join within " + SecondsText(limit);
  }
  if (const Micros took = side.Now() - first_join.value_or(side.Now());
      took > slack + Seconds(kPlayMarginS)) {
    return "the joins took " + SecondsText(took) + ", beyond the bots' slack of " + SecondsText(slack) +
           ": the first bots would stop playing before the window closed";
  }
  return "";
}

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
  if (const std::string why = JoinEveryone(side); !why.empty()) return fail(why);
  for (const Micros end = side.Now() + kWarmup; side.Now() < end;) side.Step();
  for (ServerRun& run : runs) {
    run.server->RestartDurations();  // the window's ticks, not the joins'
    run.start = TakeTotals(*run.server, run.players->Now(), run.players->Counts());
  }
  const double window_s = runs.front().settings.window_s;
  for (const Micros end = side.Now() + Seconds(window_s); side.Now() < end;) side.Step();
  for (ServerRun& run : runs) {
    run.end = TakeTotals(*run.server, run.players->Now(), run.players->Counts());
    if (run.players->AnyExited() ||
        run.end.stats.clients < static_cast<std::size_t>(StayingPlayers(run.settings)) ||
        run.end.stats.spectators != static_cast<std::size_t>(run.settings.spectators)) {
      return fail("players or spectators left during the measurement window");
    }
  }

  // The bots finish their script, settle and report. Their figures are secondary: if they fail now, the
  // window's server figures still stand and the failure is reported with them.
  const Micros exit_deadline =
      side.Now() + Seconds(kPlayMarginS + kSettleTimeoutS) + side.JoinSlack() + kExitGrace;
  while (!side.AllExited() && side.Now() < exit_deadline) side.Step();
  std::vector<ScaleResult> results;
  for (ServerRun& run : runs) {
    run.reports = run.players->Finish(&run.bots_problem);
    while (!run.bots_problem.empty() && run.bots_problem.back() == '\n') run.bots_problem.pop_back();
    run.final_stats = run.server->stats();
    if (!run.settings.virtual_time) Shutdown(*run.server);
    results.push_back(
        ResultOf(run.settings, run.start, run.end, run.final_stats, run.reports, run.bots_problem));
  }
  return results;
}

}  // namespace netcube::bench
