// netcube-bot: headless players. Parses flags, runs netcube::client::BotRun on the steady clock until
// every player has played its script and settled, then prints a summary and writes the JSON report.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "bot_report_json.h"
#include "client_flags.h"
#include "files.h"
#include "find.h"
#include "version.h"
#include "netcube/client/bot.h"

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

  std::unique_ptr<client::BotRun> run = client::BotRun::Start(config, Now(), &error);
  if (!run) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 1;
  }
  while (run->Update(Now())) std::this_thread::sleep_for(kLoopSleep);

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
  if (!report_path.empty() &&
      !netcube::apps::WriteFile(report_path, netcube::apps::BotReportJson(report), &error)) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 1;
  }
  return 0;
}
