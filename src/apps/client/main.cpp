// netcube-client: the graphical client. Parses flags and runs either a client connected to a server
// (--connect, or the connect panel) or the all-in-one lab (--lab): netcube::gui does everything else.
#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "netcube/gui/runner.h"

namespace {

namespace client = netcube::client;
namespace gui = netcube::gui;

// The technique flags shared with netcube-bot: a preset, then on/off overrides of single toggles.
struct TechniqueFlags {
  std::string preset;  // empty: each mode's default
  std::string prediction;
  std::string reconciliation;
  std::string interpolation;
  std::string smoothing;
  std::optional<int> redundancy;

  client::Settings Apply(client::Settings settings) const {
    if (!preset.empty()) settings = client::PresetSettings(*client::ParsePreset(preset));
    const auto apply = [](const std::string& value, bool& toggle) {
      if (!value.empty()) toggle = value == "on";
    };
    apply(prediction, settings.prediction);
    apply(reconciliation, settings.reconciliation);
    apply(interpolation, settings.interpolation);
    apply(smoothing, settings.smoothing);
    if (redundancy) settings.redundancy = *redundancy;
    return settings;
  }
};

// Link flags given on the command line replace the corresponding default values.
struct LinkFlags {
  std::optional<double> latency_ms;
  std::optional<double> jitter_ms;
  std::optional<double> loss;
  std::optional<double> duplicate;

  netcube::transport::LinkSettings Apply(netcube::transport::LinkSettings link) const {
    if (latency_ms) link.latency_ms = *latency_ms;
    if (jitter_ms) link.jitter_ms = *jitter_ms;
    if (loss) link.loss = *loss;
    if (duplicate) link.duplicate = *duplicate;
    return link;
  }
};

bool SplitHostPort(const std::string& text, std::string& host, std::uint16_t& port, std::string* error) {
  const std::size_t colon = text.rfind(':');
  int value = 0;
  std::size_t used = 0;
  try {
    if (colon != std::string::npos && colon > 0) value = std::stoi(text.substr(colon + 1), &used);
  } catch (const std::exception&) {
    value = 0;
  }
  if (colon == std::string::npos || colon == 0 || used == 0 || used != text.size() - colon - 1 || value < 1 ||
      value > 65535) {
    *error = "--connect wants HOST:PORT with a port in [1, 65535], got '" + text + "'";
    return false;
  }
  host = text.substr(0, colon);
  port = static_cast<std::uint16_t>(value);
  return true;
}

std::optional<client::InputScript> ParseScript(const std::string& flag, const std::string& text, bool* ok) {
  if (text.empty()) return std::nullopt;
  std::string error;
  std::optional<client::InputScript> script = client::InputScript::Parse(text, &error);
  if (!script) {
    std::cerr << "netcube-client: bad " << flag << ": " << error << '\n';
    *ok = false;
  }
  return script;
}

}  // namespace

int main(int argc, char** argv) {
  bool lab = false;
  std::string connect;
  std::string name = "player";
  TechniqueFlags techniques;
  LinkFlags link;
  std::uint64_t seed = 1;
  std::string script;
  std::string script2;
  gui::RunOptions run;

  CLI::App app{
      "netcube-client: the graphical netcube client, or with --lab a server and two players in one window"};
  app.failure_message(CLI::FailureMessage::help);  // a bad flag prints the usage
  CLI::Option* lab_flag =
      app.add_flag("--lab", lab, "The all-in-one lab: an in-process server and two players over loopback");
  CLI::Option* connect_option =
      app.add_option("--connect", connect, "Connect at once to a server, HOST:PORT");
  CLI::Option* name_option = app.add_option("--name", name, "Player name")->capture_default_str();
  lab_flag->excludes(connect_option)->excludes(name_option);
  app.add_option(
         "--preset", techniques.preset,
         "Technique preset: naive, predicted or full (default full; in the lab it applies to both players, "
         "whose defaults are full and naive)")
      ->check(CLI::IsMember({"naive", "predicted", "full"}));
  const auto on_off = CLI::IsMember({"on", "off"});
  app.add_option("--prediction", techniques.prediction, "Override the preset: on or off")->check(on_off);
  app.add_option("--reconciliation", techniques.reconciliation, "Override the preset: on or off")
      ->check(on_off);
  app.add_option("--interpolation", techniques.interpolation, "Override the preset: on or off")
      ->check(on_off);
  app.add_option("--smoothing", techniques.smoothing, "Override the preset: on or off")->check(on_off);
  app.add_option("--redundancy", techniques.redundancy, "Inputs per input packet")
      ->check(CLI::Range(1, static_cast<int>(netcube::protocol::kMaxInputsPerPacket)));
  app.add_option("--latency-ms", link.latency_ms,
                 "Client-side conditioner: added latency, each direction (lab default 125 for both players)")
      ->check(CLI::Range(0.0, 10'000.0));
  app.add_option("--jitter-ms", link.jitter_ms, "Client-side conditioner: latency varies by up to +-this")
      ->check(CLI::Range(0.0, 10'000.0));
  app.add_option("--loss", link.loss, "Client-side conditioner: packet loss probability [0, 1]")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--duplicate", link.duplicate, "Client-side conditioner: duplication probability [0, 1]")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--seed", seed, "Random seed (conditioner, random script); lab player i uses seed + i")
      ->capture_default_str();
  app.add_option(
      "--script", script,
      "Drive the keys (the lab's player 1) with a script: random, circle, idle, or KEYS:MS segments "
      "such as R:500,-:200,UL:300; it starts once connected");
  app.add_option("--script2", script2, "Drive the lab's player 2 with a script")->needs(lab_flag);
  CLI::Option* frames_option = app.add_option("--frames", run.frames, "Render this many frames, then exit")
                                   ->check(CLI::PositiveNumber);
  app.add_option("--screenshot", run.screenshot,
                 "Write the last frame as a PNG (needs --frames; without a display it renders offscreen; the "
                 "lab then runs on a virtual clock, frame i at i/60 s)")
      ->needs(frames_option);
  app.add_option("--width", run.app.width, "Window width")
      ->check(CLI::Range(320, 8192))
      ->capture_default_str();
  app.add_option("--height", run.app.height, "Window height")
      ->check(CLI::Range(240, 8192))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  bool scripts_ok = true;
  std::optional<client::InputScript> script1 = ParseScript("--script", script, &scripts_ok);
  std::optional<client::InputScript> script2_parsed = ParseScript("--script2", script2, &scripts_ok);
  if (!scripts_ok) return 2;

  if (lab) {
    gui::LabRunOptions options;
    options.run = run;
    for (std::size_t i = 0; i < gui::kLabPlayers; ++i) {
      client::ClientConfig& player = options.lab.players[i];
      player.settings = techniques.Apply(player.settings);
      player.link = link.Apply(player.link);
      player.seed = seed + i;
    }
    options.scripts = {std::move(script1), std::move(script2_parsed)};
    return gui::RunLab(std::move(options));
  }

  gui::ClientRunOptions options;
  options.run = run;
  options.screen.client.name = name;
  options.screen.client.settings = techniques.Apply(client::PresetSettings(client::Preset::kFull));
  options.screen.client.link = link.Apply({});
  options.screen.client.seed = seed;
  options.script = std::move(script1);
  if (!connect.empty()) {
    std::string error;
    if (!SplitHostPort(connect, options.screen.host, options.screen.port, &error)) {
      std::cerr << "netcube-client: " << error << '\n';
      return 2;
    }
    options.screen.connect_at_start = true;
  }
  return gui::RunClient(std::move(options));
}
