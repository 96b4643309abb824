#include "bot_play.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bot_clock.h"
#include "bot_recorder.h"
#include "bot_report_json.h"
#include "files.h"

namespace netcube::apps {
namespace {

constexpr Micros kGoodbyeTime{300'000};

void PrintSummary(const client::BotReport& report) {
  for (const client::BotPlayerReport& p : report.players) {
    const client::Metrics& m = p.metrics;
    std::printf(
        "%-10s id %3d | inputs sent %llu acked %llu | reconciliations %llu corrections %llu "
        "(max %.3f) | rtt %.1f ms | up %llu B down %llu B | snapshots %d/s%s | underruns %llu | %s%s\n",
        p.name.c_str(), p.player_id, static_cast<unsigned long long>(m.inputs_sent),
        static_cast<unsigned long long>(m.inputs_acked), static_cast<unsigned long long>(m.reconciliations),
        static_cast<unsigned long long>(m.corrections), m.max_correction, m.rtt_ms_mean,
        static_cast<unsigned long long>(m.bytes_up), static_cast<unsigned long long>(m.bytes_down),
        m.snapshot_rate, m.snapshot_rate_asked ? " asked" : "",
        static_cast<unsigned long long>(m.interp_underruns), p.settled ? "settled" : "NOT settled",
        p.final_match ? ", final state matches the server" : ", final state DIFFERS from the server");
  }
}

// The players' runs. Without a join interval, one run of every player, started at once. With one
// (--join-interval-ms), batches of ten, each started once its moment has come and while fewer than
// kMaxJoining batches are still joining, so that a thousand players do not ask the server at once, nor
// pile up when it answers slowly; the link's round trips do not set the pace (a join takes three). Batch
// k is a run of its own whose name prefix is the prefix and k (none for batch 0), so that its players keep
// the names and seeds they have in one run (player 10k + j is named prefix, k, j). A batch plays
// --duration and the ramp still to come after it: when the ramp keeps its pace, every player plays on to
// the same end.
class BotRuns {
 public:
  static constexpr std::size_t kBatch = 10;
  static constexpr std::size_t kMaxJoining = 8;

  // The runs with the first batch started; nothing, with `error` set, when it cannot start (a bad host).
  static std::unique_ptr<BotRuns> Start(const client::BotConfig& config, Micros interval, Micros now,
                                        std::string* error) {
    auto runs = std::unique_ptr<BotRuns>(new BotRuns(config, interval, now));
    if (!runs->StartBatch(now, error)) return nullptr;
    return runs;
  }

  // Starts the batches due and updates those started. False once every batch has played and settled,
  // or one failed (`error` says why).
  bool Update(Micros now, std::string* error) {
    if (runs_.size() < batches_ && IsDue(now) && !StartBatch(now, error)) return false;
    bool running = runs_.size() < batches_;
    for (std::size_t k = 0; k < runs_.size(); ++k) {
      if (running_[k]) running_[k] = runs_[k]->Update(now);
      running = running || running_[k];
      if (runs_[k]->failure()) {
        *error = *runs_[k]->failure();
        return false;
      }
    }
    return running;
  }

  const std::vector<std::unique_ptr<client::BotRun>>& runs() const { return runs_; }
  bool all_settled() const {
    return std::all_of(runs_.begin(), runs_.end(), [](const auto& run) { return run->all_settled(); });
  }
  client::BotReport Report() const {
    client::BotReport report;
    for (const auto& run : runs_) {
      std::vector<client::BotPlayerReport> players = run->Report().players;
      report.players.insert(report.players.end(), players.begin(), players.end());
    }
    return report;
  }
  void Disconnect(Micros now) {
    for (const auto& run : runs_) run->Disconnect(now);
  }
  void UpdateAll(Micros now) {
    for (const auto& run : runs_) run->Update(now);
  }

 private:
  BotRuns(const client::BotConfig& config, Micros interval, Micros now)
      : config_(config), interval_(interval), ramp_start_(now) {
    const auto count = static_cast<std::size_t>(config.count);
    batches_ = interval > Micros{0} ? (count + kBatch - 1) / kBatch : 1;
  }

  bool IsDue(Micros now) const {
    const auto joining = std::count_if(runs_.begin(), runs_.end(),
                                       [](const auto& run) { return !run->play_start().has_value(); });
    return now >= ramp_start_ + interval_ * static_cast<std::int64_t>(runs_.size()) &&
           static_cast<std::size_t>(joining) < kMaxJoining;
  }

  bool StartBatch(Micros now, std::string* error) {
    client::BotConfig batch = config_;
    const std::size_t k = runs_.size();
    if (batches_ > 1) {
      const auto first = static_cast<int>(k * kBatch);
      batch.count = std::min(static_cast<int>(kBatch), config_.count - first);
      batch.seed = config_.seed + static_cast<std::uint64_t>(first);
      if (k > 0) batch.name_prefix += std::to_string(k);
      const double duration_s = config_.duration_s > 0.0 ? config_.duration_s : client::kDefaultBotDurationS;
      const double interval_s = std::chrono::duration<double>(interval_).count();
      batch.duration_s = duration_s + interval_s * static_cast<double>(batches_ - 1 - k);
    }
    std::unique_ptr<client::BotRun> run = client::BotRun::Start(batch, now, error);
    if (!run) return false;
    runs_.push_back(std::move(run));
    running_.push_back(true);
    return true;
  }

  client::BotConfig config_;
  Micros interval_;
  Micros ramp_start_;
  std::size_t batches_ = 1;
  std::vector<std::unique_ptr<client::BotRun>> runs_;
  std::vector<bool> running_;  // by run
};

// Updates the runs until every player has played and settled, journaling and recording each update (the
// journal and the recorder follow one run: the flags leave them out of a ramp).
bool PlayToTheEnd(BotRuns& runs, BotClock& clock, server::Server* server, RunJournal* journal,
                  BotRecorder& recorder, Session& session, std::string* error) {
  const client::BotRun& first = *runs.runs().front();
  const client::BotRun* const first_view = &first;
  const std::span<const client::BotRun* const> journaled(&first_view, 1);
  for (bool running = true; running;) {
    const Micros now = clock.Now();
    if (journal != nullptr) journal->BeginUpdate(now, journaled, server);
    running = runs.Update(now, error);
    if (journal != nullptr) journal->AfterUpdate(now, journaled, server);
    recorder.Update(now, first, session);
    clock.Advance();
  }
  return error->empty();
}

// Writes `text` to `path` (when given) and says so as "wrote PATH (what)".
bool WriteOutput(const std::string& path, const std::string& text, const std::string& what) {
  if (path.empty()) return true;
  std::string error;
  if (!WriteFile(path, text, &error)) {
    std::cerr << "netcube-bot: " << error << "\n";
    return false;
  }
  std::cout << "netcube-bot: wrote " << path << " (" << what << ")\n";
  return true;
}

}  // namespace

int PlayBots(const BotFlags& flags, server::Server* server, RunJournal* journal, Session& session) {
  BotClock clock(server);
  std::string error;
  const std::unique_ptr<BotRuns> started =
      BotRuns::Start(flags.config, Micros(std::int64_t{flags.join_interval_ms} * 1000), clock.Now(), &error);
  if (!started) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 1;
  }
  BotRuns& runs = *started;
  BotRecorder recorder(flags.csv, *runs.runs().front());
  if (!recorder.csv_ok()) {
    std::cerr << "netcube-bot: cannot write " << flags.csv << "\n";
    return 1;
  }
  const bool played = PlayToTheEnd(runs, clock, server, journal, recorder, session, &error);
  const client::BotReport report = runs.Report();
  const bool all_settled = runs.all_settled();
  runs.Disconnect(clock.Now());
  for (const Micros end = clock.Now() + kGoodbyeTime; clock.Now() < end; clock.Advance())
    runs.UpdateAll(clock.Now());

  if (!played) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 1;
  }
  PrintSummary(report);
  if (!all_settled) {
    std::cerr << "netcube-bot: warning: not every cube settled within " << flags.config.settle_timeout_s
              << " s\n";
  }
  if (!recorder.Close()) {
    std::cerr << "netcube-bot: cannot write " << flags.csv << "\n";
    return 1;
  }
  if (!flags.csv.empty()) std::cout << "netcube-bot: wrote " << flags.csv << " (CSV)\n";
  if (journal != nullptr && !journal->Finish()) return 1;
  const std::string session_what = "session, " + std::to_string(session.frames) + " frames";
  if (!WriteOutput(flags.record, SessionToJson(session), session_what)) return 1;
  if (!WriteOutput(flags.report_path, BotReportJson(report), "report")) return 1;
  return 0;
}

}  // namespace netcube::apps
