// netcube-bot: headless players. Parses flags, runs netcube::client::BotRun on the steady clock until
// every player has played its script and settled, then prints a summary and writes the JSON report.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

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

// "on"/"off" flags that, when given, override the preset's toggle.
void ApplyToggle(const std::string& value, bool& toggle) {
  if (!value.empty()) toggle = value == "on";
}

bool SplitHostPort(const std::string& text, std::string& host, std::uint16_t& port, std::string* error) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    *error = "--connect wants HOST:PORT, got '" + text + "'";
    return false;
  }
  host = text.substr(0, colon);
  const std::string port_text = text.substr(colon + 1);
  try {
    std::size_t used = 0;
    const int value = std::stoi(port_text, &used);
    if (used != port_text.size() || value < 1 || value > 65535) throw std::out_of_range("port");
    port = static_cast<std::uint16_t>(value);
  } catch (const std::exception&) {
    *error = "--connect: '" + port_text + "' is not a port in [1, 65535]";
    return false;
  }
  return true;
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
  std::string preset = "full";
  std::string prediction;
  std::string reconciliation;
  std::string interpolation;
  std::string smoothing;
  int redundancy = client::Settings{}.redundancy;
  std::string script = "random";
  std::string report_path;

  CLI::App app{"netcube-bot: headless netcube players that play a script and report what they measured"};
  app.failure_message(CLI::FailureMessage::help);  // a bad flag prints the usage
  app.add_option("--connect", connect, "Server address, HOST:PORT")->required();
  app.add_option("--count", config.count, "Players in this process, each with its own socket and seed")
      ->check(CLI::Range(1, static_cast<int>(netcube::protocol::kMaxPlayers)))
      ->capture_default_str();
  app.add_option("--duration", config.duration_s,
                 "Seconds of scripted play (default: a timeline's length, else 10)")
      ->check(CLI::PositiveNumber);
  app.add_option("--preset", preset, "Technique preset: naive, predicted or full")
      ->check(CLI::IsMember({"naive", "predicted", "full"}))
      ->capture_default_str();
  const auto on_off = CLI::IsMember({"on", "off"});
  app.add_option("--prediction", prediction, "Override the preset: on or off")->check(on_off);
  app.add_option("--reconciliation", reconciliation, "Override the preset: on or off")->check(on_off);
  app.add_option("--interpolation", interpolation, "Override the preset: on or off")->check(on_off);
  app.add_option("--smoothing", smoothing, "Override the preset: on or off")->check(on_off);
  app.add_option("--redundancy", redundancy, "Inputs per input packet")
      ->check(CLI::Range(1, static_cast<int>(netcube::protocol::kMaxInputsPerPacket)))
      ->capture_default_str();
  app.add_option("--latency-ms", config.link.latency_ms, "Client-side conditioner: added latency, each direction")
      ->check(CLI::Range(0.0, 10'000.0));
  app.add_option("--jitter-ms", config.link.jitter_ms, "Client-side conditioner: latency varies by up to +-this")
      ->check(CLI::Range(0.0, 10'000.0));
  app.add_option("--loss", config.link.loss, "Client-side conditioner: packet loss probability [0, 1]")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--duplicate", config.link.duplicate, "Client-side conditioner: duplication probability [0, 1]")
      ->check(CLI::Range(0.0, 1.0));
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
  app.add_option("--report", report_path, "Write the JSON report to this file");
  CLI11_PARSE(app, argc, argv);

  std::string error;
  if (!SplitHostPort(connect, config.host, config.port, &error)) {
    std::cerr << "netcube-bot: " << error << "\n";
    return 2;
  }
  const auto parsed_script = client::InputScript::Parse(script, &error);
  if (!parsed_script) {
    std::cerr << "netcube-bot: bad --script: " << error << "\n";
    return 2;
  }
  config.script = *parsed_script;
  config.settings = client::PresetSettings(*client::ParsePreset(preset));
  ApplyToggle(prediction, config.settings.prediction);
  ApplyToggle(reconciliation, config.settings.reconciliation);
  ApplyToggle(interpolation, config.settings.interpolation);
  ApplyToggle(smoothing, config.settings.smoothing);
  config.settings.redundancy = redundancy;

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
  if (!report_path.empty()) {
    std::ofstream file(report_path);
    file << report.ToJson();
    file.close();
    if (file.fail()) {
      std::cerr << "netcube-bot: cannot write " << report_path << "\n";
      return 1;
    }
  }
  return 0;
}
