// netcube-bot: headless players. Parses flags, runs netcube::client::BotRun until every player has played
// its script and settled, then prints a summary and writes the JSON report. Against a server elsewhere it
// runs on the steady clock; a replay without --connect runs the server in this process on a virtual clock,
// so the same session gives the same frames (and CSV bytes) on every run.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bot_report_json.h"
#include "client_flags.h"
#include "compare_csv.h"
#include "files.h"
#include "find.h"
#include "flag_checks.h"
#include "netcube/client/bot.h"
#include "netcube/client/frame_sample.h"
#include "netcube/server/server.h"
#include "run_journal.h"
#include "session.h"
#include "version.h"

namespace {

using netcube::Micros;
using Clock = std::chrono::steady_clock;
namespace client = netcube::client;

constexpr auto kLoopSleep = std::chrono::milliseconds(1);
constexpr Micros kGoodbyeTime{300'000};

// The run's time. The steady clock, with a 1 ms sleep between updates; or, with the server in this
// process, a virtual clock that each Advance moves by 1 ms (a frame is never skipped) after updating the
// server to it, as fast as it goes.
class BotClock {
 public:
  explicit BotClock(netcube::server::Server* server) : server_(server) {}
  Micros Now() const {
    if (server_ != nullptr) return virtual_now_;
    return std::chrono::duration_cast<Micros>(Clock::now() - start_);
  }
  void Advance() {
    if (server_ == nullptr) {
      std::this_thread::sleep_for(kLoopSleep);
      return;
    }
    virtual_now_ += kLoopSleep;
    server_->Update(virtual_now_);
  }

 private:
  netcube::server::Server* server_;
  Clock::time_point start_ = Clock::now();
  Micros virtual_now_{0};
};

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

// What a run records frame by frame (frames counted from the script's start): every player's buttons for
// --record, one CSV row per player for --csv.
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
    for (std::size_t i = 0; i < run.clients().size(); ++i) session.RecordInput(i, frame, run.held(i));
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
  int view_rate_hz = 60;

  CLI::App app{"netcube-bot: headless netcube players that play a script and report what they measured"};
  netcube::apps::AddVersionFlag(app, "netcube-bot");
  netcube::apps::ShortUsageErrors(app, "netcube-bot");
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
      ->check(netcube::apps::FiniteRange(0.001, netcube::apps::kMaxRunSeconds));
  client_flags.Register(app, " (default full)", "");
  app.add_option("--seed", config.seed, "Random seed; player i uses seed + i")
      ->check(netcube::apps::Unsigned())
      ->capture_default_str();
  app.add_option("--input-rate", config.input_rate, "Input samples per simulation step (2 = a speed hack)")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  // A bot draws nothing: it refreshes its views (what a player would see, and measures) as a display
  // would, not at every 1 ms update: with a hundred players in a process that was a third of its work.
  app.add_option("--view-rate", view_rate_hz,
                 "Refreshes of each player's views a second, as a display draws (0: every 1 ms update)")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  app.add_option("--script", script,
                 "random, circle, idle, or a timeline of KEYS:MS segments (R:100,-:50,R:100)")
      ->capture_default_str();
  app.add_option("--name", config.name_prefix, "Player name prefix")->capture_default_str();
  app.add_option("--settle-timeout", config.settle_timeout_s, "Longest wait for the cubes to settle, seconds")
      ->check(netcube::apps::FiniteRange(0.001, 3600.0))
      ->capture_default_str();
  app.add_option(
         "--tag-interval-ms", config.tag_interval_ms,
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
      "techniques and keys, on the session's link and seeds; without --connect against a server in this "
      "process on a virtual clock, the same frames on every run");
  app.add_option(
      "--record", record,
      "Write the session (techniques, link, seed, the server's rates, every player's keys frame by "
      "frame) to this file; with --replay, the keys as replayed and the session's tags by hand");
  app.add_option("--csv", csv,
                 "Write one row per frame (1/60 s of play) and player to this CSV file (the lab's "
                 "columns; the server's are the newest state received)");
  std::string explain;
  std::string journal_out;
  std::string link_script;
  app.add_option("--explain", explain,
                 "Journal the players and write each glitch one could see, with its causes, as JSON lines to "
                 "this file (- for stdout; docs/LAB.md). Against a server elsewhere the journal has no "
                 "server side");
  app.add_option("--journal-out", journal_out,
                 "Journal the players and save the journal to this file, for netcube-client --open-journal");
  app.add_option(
      "--link-script", link_script,
      "Change the players' links (or step their clocks) at given times of the run, e.g. \"5s "
      "blackout 400ms client 1; 8s clock +300ms client 2\" (or @FILE; docs/LAB.md); journals them");
  replay_option->excludes("--script")->excludes("--count")->excludes("--seed")->excludes("--duration");
  CLI11_PARSE(app, argc, argv);
  if (find.requested()) return find.Run("netcube-bot");
  // The longest name, the prefix and the last player's index, must fit as it is: names are never cut.
  if (const std::string problem =
          netcube::protocol::NameProblem(config.name_prefix + std::to_string(config.count - 1));
      !problem.empty()) {
    return app.exit(CLI::ValidationError("--name", problem + " (the prefix and a player's index)"));
  }
  if (connect.empty() && replay.empty()) return app.exit(CLI::RequiredError("--connect"));

  std::string error;
  if (!connect.empty() && !netcube::apps::SplitHostPort(connect, config.host, config.port, &error)) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 2;
  }
  const auto parsed_script = client::InputScript::Parse(script, &error);
  if (!parsed_script) {
    std::cerr << "netcube-bot: bad --script: " << error << "\n";
    return 2;
  }
  config.script = *parsed_script;
  if (view_rate_hz > 0) config.view_interval = Micros(1'000'000 / view_rate_hz);
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
    for (std::size_t i = 0; i < session.entries.size(); ++i) {
      config.players.push_back({session.entries[i].settings, session.Script(i), {}});
    }
    // Frames count from the script's start, as the keys' do; the session keeps them for --record.
    for (const netcube::apps::HandTag& tag : session.hand_tags) {
      config.players[tag.player].hand_tags.push_back(
          {netcube::apps::SessionFrameTime(tag.frame), tag.target});
    }
    config.same_network = session.compared;
    config.link = client_flags.ApplyLink(session.link);
    config.seed = session.seed;
    config.tag_interval_ms = session.tag_interval_ms;
  } else {
    for (int i = 0; i < config.count; ++i) {
      session.entries.push_back({client::TechniquesOf(config.settings), config.settings});
    }
    session.compared = false;  // each player its own network (seed + i), as BotRun draws them
    session.link = config.link;
    session.seed = config.seed;
    session.tag_interval_ms = config.tag_interval_ms;
  }
  session.inputs.assign(1, {});  // the keys as played, recorded below

  // A replay without a server to connect to brings its own, with the session's rates and the server a
  // comparison needs (cubes that spawn alike and never collide), on the virtual clock.
  std::unique_ptr<netcube::server::Server> server;
  if (connect.empty()) {
    netcube::server::ServerConfig server_config;
    server_config.bind_address = config.host = "127.0.0.1";
    server_config.port = 0;
    server_config.tick_rate = session.tick_rate;
    server_config.snapshot_rate = session.snapshot_rate;
    server_config.collisions = !session.compared;
    server_config.shared_spawn = session.compared;
    server = netcube::server::Server::Create(server_config, Micros{0}, &error);
    if (!server) {
      std::cerr << "netcube-bot: cannot start the server: " << error << "\n";
      return 1;
    }
    config.port = server->port();
  }
  BotClock clock(server.get());

  std::vector<netcube::timeline::LinkChange> changes;
  if (!link_script.empty()) {
    std::string text = link_script;
    if (text.starts_with('@') && !netcube::apps::ReadFile(text.substr(1), &text, &error)) {
      std::cerr << "netcube-bot: --link-script: " << error << "\n";
      return 2;
    }
    std::optional<std::vector<netcube::timeline::LinkChange>> parsed =
        netcube::timeline::ParseLinkScript(text, &error);
    if (!parsed) {
      std::cerr << "netcube-bot: bad --link-script: " << error << "\n";
      return 2;
    }
    changes = std::move(*parsed);
  }
  std::optional<netcube::apps::RunJournal> journal;
  if (!explain.empty() || !journal_out.empty() || !changes.empty()) {
    std::vector<std::string> labels;
    const std::size_t players =
        config.players.empty() ? static_cast<std::size_t>(config.count) : config.players.size();
    for (std::size_t i = 0; i < players; ++i) labels.push_back(config.name_prefix + std::to_string(i));
    std::string title = "netcube-bot";
    for (int i = 1; i < argc; ++i) title += std::string(" ") + argv[i];
    journal.emplace(std::move(labels), std::move(title), server != nullptr, explain, journal_out,
                    "netcube-bot", std::move(changes));
    if (!journal->ok()) return 1;
    journal->Attach(config);
  }

  std::unique_ptr<client::BotRun> run = client::BotRun::Start(config, clock.Now(), &error);
  if (!run) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 1;
  }
  const client::BotRun* const run_view = run.get();
  BotRecorder recorder(csv, *run);
  if (!recorder.csv_ok()) {
    std::cerr << "netcube-bot: cannot write " << csv << "\n";
    return 1;
  }
  for (bool running = true; running;) {
    const Micros now = clock.Now();
    if (journal)
      journal->BeginUpdate(now, std::span<const client::BotRun* const>(&run_view, 1), server.get());
    running = run->Update(now);
    if (journal)
      journal->AfterUpdate(now, std::span<const client::BotRun* const>(&run_view, 1), server.get());
    recorder.Update(now, *run, session);
    clock.Advance();
  }

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
    std::cerr << "netcube-bot: warning: not every cube settled within " << config.settle_timeout_s << " s\n";
  }
  if (!recorder.Close()) {
    std::cerr << "netcube-bot: cannot write " << csv << "\n";
    return 1;
  }
  if (!csv.empty()) std::cout << "netcube-bot: wrote " << csv << " (CSV)\n";
  if (journal && !journal->Finish()) return 1;
  if (!record.empty()) {
    if (!netcube::apps::WriteFile(record, netcube::apps::SessionToJson(session), &error)) {
      std::cerr << "netcube-bot: " << error << "\n";
      return 1;
    }
    std::cout << "netcube-bot: wrote " << record << " (session, " << session.frames << " frames)\n";
  }
  if (!report_path.empty()) {
    if (!netcube::apps::WriteFile(report_path, netcube::apps::BotReportJson(report), &error)) {
      std::cerr << "netcube-bot: " << error << "\n";
      return 1;
    }
    std::cout << "netcube-bot: wrote " << report_path << " (report)\n";
  }
  return 0;
}
