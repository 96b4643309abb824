#include "scale_players.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <thread>
#include <utility>

#include "bot_process.h"
#include "bot_report_json.h"
#include "clock.h"
#include "netcube/client/bot.h"

namespace netcube::bench {

void SleepUntil(Micros wakeup) {
  const Micros now = WallNow();
  const Micros until = std::min(wakeup, now + kMaxSleep);
  if (until > now) std::this_thread::sleep_for(until - now);
}

namespace {

// The players of a run: those who play at random and those who stand still, each split evenly over the
// links (one group per link of a mixed run), the first links taking one more while the remainder lasts; and
// the spectators, on the first link, spectator i following player i.
struct BotGroup {
  int count = 0;
  std::string script;
  transport::LinkSettings link;
  std::string name;
  std::uint64_t seed = 0;
  bool spectate = false;
};

std::vector<BotGroup> BotGroups(const ScaleSettings& settings) {
  const int staying = StayingPlayers(settings);
  const int idle = static_cast<int>(std::lround(settings.idle_fraction * staying));
  const std::vector<transport::LinkProfile> links =
      settings.mixed_links.empty()
          ? std::vector<transport::LinkProfile>{{settings.link_name, "", settings.link}}
          : settings.mixed_links;
  std::vector<BotGroup> groups;
  for (const auto& [players, script] : {std::pair{staying - idle, "random"}, std::pair{idle, "idle"}}) {
    for (std::size_t l = 0; l < links.size(); ++l) {
      const int count = players / static_cast<int>(links.size()) +
                        (static_cast<int>(l) < players % static_cast<int>(links.size()) ? 1 : 0);
      if (count == 0) continue;
      std::string name = links.size() == 1 ? std::string(script) : std::string(script) + "-" + links[l].name;
      groups.push_back({count, script, links[l].settings, name.substr(0, 10), settings.seed + l});
    }
  }
  if (settings.spectators > 0) {
    groups.push_back(
        {settings.spectators, "idle", links.front().settings, "watcher", settings.seed + 100, true});
  }
  return groups;
}

// Ten players a batch (netcube-bot --join-interval-ms).
constexpr int kJoinBatch = 10;

class BotProcesses final : public Players {
 public:
  static std::unique_ptr<BotProcesses> Spawn(const ScaleSettings& settings, std::uint16_t port, double play_s,
                                             std::string* error) {
    auto players = std::make_unique<BotProcesses>();
    const std::string work_prefix =
        (std::filesystem::temp_directory_path() / ("netcube-bench-" + std::to_string(getpid()) + "-scale"))
            .string();
    // At the snapshot rate the scenario sets (a bot asking for its own would change what is measured).
    // Each process from a loopback address of its own (127.0.0.2, 127.0.0.3, ...), as players come from
    // many machines: the server counts connections and their requests by address.
    int address = 2;
    for (const BotGroup& group : BotGroups(settings)) {
      std::vector<std::string> args = {"--connect",
                                       "127.0.0.1:" + std::to_string(port),
                                       "--source",
                                       "127.0.0." + std::to_string(address++),
                                       "--join-interval-ms",
                                       std::to_string(kJoinInterval.count() / 1000),
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
                                       std::to_string(group.link.duplicate)};
      if (group.spectate) args.insert(args.end(), {"--spectate", "0"});
      std::optional<BotProcess> process =
          BotProcess::Spawn(settings.bot_path, args, work_prefix + "-" + group.name, error);
      if (!process) return nullptr;
      players->bots_.push_back(std::move(*process));
      players->spectating_.push_back(group.spectate);
    }
    return players;
  }

  Micros Now() const override { return WallNow(); }
  void Step(server::Server& server) override {
    server.Update(WallNow());
    SleepUntil(server.next_wakeup());
  }
  std::optional<PlayerCounts> Counts() const override { return std::nullopt; }
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
        // The players' figures: the spectators' report says only that they stayed.
        if (!spectating_[static_cast<std::size_t>(&b - bots_.data())]) reports.push_back(std::move(*report));
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
  std::vector<bool> spectating_;  // by bot process
};

// A group's players as BotRun runs them: as netcube-bot does, every technique on, 60 views a second, at
// the scenario's snapshot rate.
std::optional<client::BotConfig> BotConfigOf(const BotGroup& group, const ScaleSettings& settings,
                                             std::shared_ptr<transport::Network> network, std::uint16_t port,
                                             double play_s, std::string* error) {
  client::BotConfig config;
  config.network = std::move(network);
  config.port = port;
  config.count = group.count;
  config.duration_s = play_s;
  config.settings = client::PresetSettings(client::Preset::kFull);
  config.settings.redundancy = settings.redundancy;
  config.settings.adaptive_snapshot_rate = false;
  config.view_interval = Micros(1'000'000 / 60);
  config.link = group.link;
  config.seed = group.seed;
  const std::optional<client::InputScript> script = client::InputScript::Parse(group.script, error);
  if (!script) return std::nullopt;
  config.script = *script;
  config.name_prefix = group.name;
  config.settle_timeout_s = kSettleTimeoutS;
  config.tag_interval_ms = settings.tag_interval_ms;
  config.spectate = group.spectate;
  if (group.spectate) config.follow = 0;
  return config;
}

class VirtualPlayers final : public Players {
 public:
  static std::unique_ptr<VirtualPlayers> Start(const ScaleSettings& settings,
                                               std::shared_ptr<transport::Network> network,
                                               std::uint16_t port, double play_s, std::string* error) {
    auto players = std::make_unique<VirtualPlayers>();
    const std::vector<BotGroup> groups = BotGroups(settings);
    for (const BotGroup& group : groups) {
      const std::optional<client::BotConfig> config =
          BotConfigOf(group, settings, network, port, play_s, error);
      if (!config) return nullptr;
      std::unique_ptr<client::BotRun> run = client::BotRun::Start(*config, players->now_, error);
      if (!run) return nullptr;
      players->runs_.push_back(std::move(run));
      players->running_.push_back(true);
      players->spectating_.push_back(group.spectate);
    }
    if (settings.churn > 0) {
      // One player at a time, on the first link, each with a seed of its own (Churn adds its count).
      BotGroup churner{1, "random", groups.front().link, "churn", settings.seed + 200, false};
      players->churn_config_ = BotConfigOf(churner, settings, network, port, play_s, error);
      if (!players->churn_config_) return nullptr;
      players->churn_interval_ = Micros(static_cast<std::int64_t>(2e6 / (settings.churn * settings.clients)));
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
    if (churn_config_) Churn();
  }
  std::optional<PlayerCounts> Counts() const override {
    PlayerCounts counts = churned_;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      if (spectating_[i]) continue;
      for (const auto& client : runs_[i]->clients()) {
        const client::Metrics metrics = client->metrics();
        counts.snapshots_full += metrics.snapshots_full;
        counts.snapshots_delta += metrics.snapshots_delta;
      }
    }
    return counts;
  }
  // A run is over once its players settled after their script, or one failed (a refusal, a lost link).
  bool AnyExited() override {
    return churn_failure_.has_value() || std::any_of(runs_.begin(), runs_.end(), [](const auto& run) {
             return run->failure().has_value();
           });
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
      } else if (!spectating_[i]) {  // the spectators' report says only that they stayed
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
    if (churn_failure_) tails += "\n" + *churn_failure_;
    return tails;
  }

 private:
  // While every other player plays (all connected, none done): every churn interval the churning player
  // leaves (politely, its goodbye let out) and the next joins.
  void Churn() {
    for (auto& [run, until] : leaving_) run->Update(now_);
    std::erase_if(leaving_, [this](const auto& leaving) { return leaving.second <= now_; });
    if (churning_) churning_->Update(now_);
    if (churning_ && churning_->failure()) churn_failure_ = "a churning player: " + *churning_->failure();
    const bool playing = std::all_of(runs_.begin(), runs_.end(),
                                     [](const auto& run) { return run->play_start().has_value(); }) &&
                         std::all_of(running_.begin(), running_.end(), [](bool r) { return r; });
    if (!playing || now_ < next_churn_ || churn_failure_) return;
    next_churn_ = now_ + churn_interval_;
    if (churning_) {
      churning_->Disconnect(now_);
      leaving_.emplace_back(std::move(churning_), now_ + kGoodbyeTime);
      ++churned_.churn_leaves;
    }
    client::BotConfig config = *churn_config_;
    config.seed += churned_.churn_joins;
    std::string error;
    churning_ = client::BotRun::Start(config, now_, &error);
    if (!churning_) churn_failure_ = "a churning player could not start: " + error;
    ++churned_.churn_joins;
  }

  static constexpr Micros kVirtualStep{1000};  // as netcube-bot's loop, without its sleeps
  static constexpr Micros kGoodbyeTime{200'000};
  Micros now_{0};
  std::vector<bool> spectating_;  // by run
  std::vector<std::unique_ptr<client::BotRun>> runs_;
  std::vector<bool> running_;
  // Join churn: the player's configuration, the time between a leave and the next, the one playing,
  // those saying goodbye (until when), what went wrong, and the count of joins and leaves.
  std::optional<client::BotConfig> churn_config_;
  Micros churn_interval_{0};
  Micros next_churn_{0};
  std::unique_ptr<client::BotRun> churning_;
  std::vector<std::pair<std::unique_ptr<client::BotRun>, Micros>> leaving_;
  std::optional<std::string> churn_failure_;
  PlayerCounts churned_;
};

}  // namespace

Micros JoinRamp(const ScaleSettings& settings) {
  if (settings.virtual_time) return Micros{0};
  int largest = 0;
  for (const BotGroup& group : BotGroups(settings)) largest = std::max(largest, group.count);
  return kJoinInterval * ((largest + kJoinBatch - 1) / kJoinBatch - 1);
}

std::unique_ptr<Players> StartPlayers(const ScaleSettings& settings,
                                      std::shared_ptr<transport::Network> network, std::uint16_t port,
                                      double play_s, std::string* error) {
  if (settings.virtual_time) return VirtualPlayers::Start(settings, std::move(network), port, play_s, error);
  return BotProcesses::Spawn(settings, port, play_s, error);
}

}  // namespace netcube::bench
