// netcube-bot: headless players. Parses flags, runs netcube::client::BotRun on the steady clock until
// every player has played its script and settled, then prints a summary and writes the JSON report.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <vector>
#include <iostream>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "bot_report_json.h"
#include "client_flags.h"
#include "compare_csv.h"
#include "files.h"
#include "find.h"
#include "session.h"
#include "version.h"
#include "netcube/client/bot.h"
#include "netcube/client/frame_sample.h"

namespace {

using netcube::Micros;
using Clock = std::chrono::steady_clock;
namespace client = netcube::client;

constexpr auto kLoopSleep = std::chrono::milliseconds(1);
constexpr Micros kGoodbyeTime{300'000};

Micros Now() {
  static const Clock::time_point start = Clock::now();
  return std::chrono::duration_cast<Micros>(Clock::now() - start);
}

void PrintSummary(const client::BotReport& report) {
  for (const client::BotPlayerReport& p : report.players) {
    const client::Metrics& m = p.metrics;
    std::printf("%-10s id %3d | inputs sent %llu acked %llu | reconciliations %llu corrections %llu "
                "(max %.3f) | rtt %.1f ms | up %llu B down %llu B | underruns %llu | %s%s\n",
                p.name.c_str(), p.player_id, static_cast<unsigned long long>(m.inputs_sent),
                static_cast<unsigned long long>(m.inputs_acked), static_cast<unsigned long long>(m.reconciliations),
                static_cast<unsigned long long>(m.corrections), m.max_correction, m.rtt_ms_mean,
                static_cast<unsigned long long>(m.bytes_up), static_cast<unsigned long long>(m.bytes_down),
                static_cast<unsigned long long>(m.interp_underruns), p.settled ? "settled" : "NOT settled",
                p.final_match ? ", final state matches the server" : ", final state DIFFERS from the server");
  }
}

// What a run records frame by frame (frames counted from the script's start): the first player's buttons
// for --record, one CSV row per player for --csv.
class BotRecorder {
 public:
  BotRecorder(const std::string& csv_path, const client::BotRun& run)
      : samplers_(run.clients().size()), samples_(run.clients().size()) {
    for (const client::BotPlayerReport& player : run.Report().players) names_.push_back(player.name);
    if (csv_path.empty()) return;
    csv_.open(csv_path, std::ios::binary | std::ios::trunc);
    csv_ << netcube::apps::CompareCsvHeader();
  }
  bool csv_ok() const { return !csv_.is_open() || csv_.good(); }

  void Update(Micros now, const client::BotRun& run, netcube::apps::Session& session) {
    const std::optional<Micros> start = run.play_start();
    if (!start) return;
    const std::int64_t frame = netcube::apps::SessionFrameAt(now - *start);
    if (frame <= last_frame_) return;
    if (last_frame_ < 0) {
      session.tick_rate = run.clients()[0]->welcome().tick_rate;
      session.snapshot_rate = run.clients()[0]->welcome().snapshot_rate;
    }
    last_frame_ = frame;
    session.frames = frame + 1;
    session.RecordInput(frame, run.held(0));
    if (!csv_.is_open()) return;
    for (std::size_t i = 0; i < run.clients().size(); ++i) {
      const client::Client& player = *run.clients()[i];
      const std::vector<netcube::sim::PlayerCube> heard = client::NewestReceived(player);
      const client::FrameSample sample = samplers_[i].Sample(frame, now - *start, run.held(i), player, heard);
      csv_ << netcube::apps::CompareCsvRow(names_[i], client::TechniquesOf(player.settings()), sample);
      samples_[i].push_back(sample);
    }
  }

  // Closes the CSV and prints each player's figures (client::Summarize, as the lab does).
  bool Close() {
    if (!csv_.is_open()) return true;
    csv_.close();
    for (std::size_t i = 0; i < names_.size(); ++i) {
      std::cout << netcube::apps::SummaryText(names_[i], client::Summarize(samples_[i]));
    }
    return !csv_.fail();
  }

 private:
  std::vector<std::string> names_;
  std::vector<client::FrameSampler> samplers_;
  std::vector<std::vector<client::FrameSample>> samples_;  // per player, for the figures
  std::ofstream csv_;
  std::int64_t last_frame_ = -1;
};

}  // namespace

int main(int argc, char** argv) {
  client::BotConfig config;
  std::string connect;
  netcube::apps::ClientFlags client_flags;
  std::string script = "random";
  std::string report_path;

  CLI::App app{"netcube-bot: headless netcube players that play a script and report what they measured"};
  app.failure_message(CLI::FailureMessage::help);  // a bad flag prints the usage
  netcube::apps::AddVersionFlag(app, "netcube-bot");
  netcube::apps::FindFlags find;
  CLI::Option* connect_option =
      app.add_option("--connect", connect, "Server address, HOST:PORT (required unless --find)");
  find.Register(app)->excludes(connect_option);
  app.add_option("--source", config.source_address,
                 "Local IPv4 address to send from (a loopback address such as 127.0.0.2 on one machine)")
      ->capture_default_str();
  app.add_option("--count", config.count, "Players in this process, each with its own socket and seed")
      ->check(CLI::Range(1, static_cast<int>(netcube::protocol::kMaxPlayers)))
      ->capture_default_str();
  app.add_option("--duration", config.duration_s,
                 "Seconds of scripted play (default: a timeline's length, else 10)")
      ->check(CLI::PositiveNumber);
  client_flags.Register(app, " (default full)", "");
  app.add_option("--seed", config.seed, "Random seed; player i uses seed + i")->capture_default_str();
  app.add_option("--input-rate", config.input_rate, "Input samples per simulation step (2 = a speed hack)")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  app.add_option("--script", script, "random, circle, idle, or a timeline of KEYS:MS segments (R:100,-:50,R:100)")
      ->capture_default_str();
  app.add_option("--name", config.name_prefix, "Player name prefix")->capture_default_str();
  app.add_option("--settle-timeout", config.settle_timeout_s, "Longest wait for the cubes to settle, seconds")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--tag-interval-ms", config.tag_interval_ms,
                 "Tag the nearest remote cube as drawn this often, ms (0 = never; at least the 250 ms cooldown)")
      ->check(CLI::Range(0, 60'000))
      ->capture_default_str();
  app.add_option("--report", report_path, "Write the JSON report to this file");
  std::string record;
  std::string replay;
  std::string csv;
  CLI::Option* replay_option = app.add_option(
      "--replay", replay,
      "Play a session written by --record (here or by netcube-client --lab): one player per entry with its "
      "techniques, all with the session's keys, link and one conditioner seed");
  app.add_option("--record", record,
                 "Write the session (techniques, link, seed, the server's rates, the first player's keys frame by "
                 "frame) to this file; with --replay, the keys as replayed");
  app.add_option("--csv", csv, "Write one row per frame (1/60 s of play) and player to this CSV file (the lab's "
                               "columns; the server's are the newest state received)");
  replay_option->excludes("--script")->excludes("--count")->excludes("--seed")->excludes("--duration");
  CLI11_PARSE(app, argc, argv);
  if (find.requested()) return find.Run("netcube-bot");
  if (connect.empty()) return app.exit(CLI::RequiredError("--connect"));

  std::string error;
  if (!netcube::apps::SplitHostPort(connect, config.host, config.port, &error)) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 2;
  }
  const auto parsed_script = client::InputScript::Parse(script, &error);
  if (!parsed_script) {
    std::cerr << "netcube-bot: bad --script: " << error << "\n";
    return 2;
  }
  config.script = *parsed_script;
  config.settings = client_flags.ApplySettings(client::PresetSettings(client::Preset::kFull));
  config.link = client_flags.ApplyLink({});
  netcube::apps::Session session;
  if (!replay.empty()) {
    std::string text;
    std::optional<netcube::apps::Session> read;
    if (netcube::apps::ReadFile(replay, &text, &error)) read = netcube::apps::ParseSession(text, &error);
    if (!read) {
      std::cerr << "netcube-bot: --replay " << replay << ": " << error << "\n";
      return 2;
    }
    if (client_flags.ChoosesTechniques()) {
      std::cerr << "netcube-bot: --replay takes the session's techniques: drop --preset and the toggles\n";
      return 2;
    }
    session = std::move(*read);
    for (const client::TechniqueSet& entry : session.entries) config.compared.push_back(entry.settings);
    config.link = client_flags.ApplyLink(session.link);
    config.seed = session.seed;
    config.script = session.Script();
    config.tag_interval_ms = session.tag_interval_ms;
  } else {
    session.entries.push_back({client::TechniquesOf(config.settings), config.settings});
    session.link = config.link;
    session.seed = config.seed;
    session.tag_interval_ms = config.tag_interval_ms;
  }
  session.inputs.clear();

  std::unique_ptr<client::BotRun> run = client::BotRun::Start(config, Now(), &error);
  if (!run) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 1;
  }
  BotRecorder recorder(csv, *run);
  if (!recorder.csv_ok()) {
    std::cerr << "netcube-bot: cannot write " << csv << "\n";
    return 1;
  }
  for (bool running = true; running;) {
    const Micros now = Now();
    running = run->Update(now);
    recorder.Update(now, *run, session);
    std::this_thread::sleep_for(kLoopSleep);
  }

  const client::BotReport report = run->Report();
  const bool all_settled = run->all_settled();
  run->Disconnect(Now());
  for (const Micros end = Now() + kGoodbyeTime; Now() < end;) {
    run->Update(Now());
    std::this_thread::sleep_for(kLoopSleep);
  }

  if (run->failure()) {
    std::cerr << "netcube-bot: " << *run->failure() << "\n";
    return 1;
  }
  PrintSummary(report);
  if (!all_settled) {
    std::cerr << "netcube-bot: warning: not every cube settled within " << config.settle_timeout_s << " s\n";
  }
  if (!recorder.Close()) {
    std::cerr << "netcube-bot: cannot write " << csv << "\n";
    return 1;
  }
  if (!record.empty() && !netcube::apps::WriteFile(record, netcube::apps::SessionToJson(session), &error)) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 1;
  }
  if (!report_path.empty() &&
      !netcube::apps::WriteFile(report_path, netcube::apps::BotReportJson(report), &error)) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 1;
  }
  return 0;
}
