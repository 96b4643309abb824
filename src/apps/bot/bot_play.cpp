#include "bot_play.h"

#include <cstdio>
#include <iostream>
#include <span>

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

// Updates the run until every player has played and settled, journaling and recording each update.
void PlayToTheEnd(client::BotRun& run, BotClock& clock, server::Server* server, RunJournal* journal,
                  BotRecorder& recorder, Session& session) {
  const client::BotRun* const run_view = &run;
  const std::span<const client::BotRun* const> runs(&run_view, 1);
  for (bool running = true; running;) {
    const Micros now = clock.Now();
    if (journal != nullptr) journal->BeginUpdate(now, runs, server);
    running = run.Update(now);
    if (journal != nullptr) journal->AfterUpdate(now, runs, server);
    recorder.Update(now, run, session);
    clock.Advance();
  }
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
  std::unique_ptr<client::BotRun> run = client::BotRun::Start(flags.config, clock.Now(), &error);
  if (!run) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 1;
  }
  BotRecorder recorder(flags.csv, *run);
  if (!recorder.csv_ok()) {
    std::cerr << "netcube-bot: cannot write " << flags.csv << "\n";
    return 1;
  }
  PlayToTheEnd(*run, clock, server, journal, recorder, session);
  const client::BotReport report = run->Report();
  const bool all_settled = run->all_settled();
  run->Disconnect(clock.Now());
  for (const Micros end = clock.Now() + kGoodbyeTime; clock.Now() < end; clock.Advance())
    run->Update(clock.Now());

  if (run->failure()) {
    std::cerr << "netcube-bot: " << *run->failure() << "\n";
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
