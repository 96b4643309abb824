// netcube-client: the graphical client. Parses flags and runs either a client connected to a server
// (--connect, or the connect panel) or the all-in-one lab (--lab) through runner.h; netcube::gui draws.
#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "client_flags.h"
#include "find.h"
#include "runner.h"
#include "version.h"

namespace {

namespace client = netcube::client;
namespace apps = netcube::apps;
namespace gui = netcube::gui;

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
  apps::ClientFlags client_flags;
  std::uint64_t seed = 1;
  std::string script;
  std::string script2;
  int tag_interval_ms = 0;
  apps::RunOptions run;

  CLI::App app{
      "netcube-client: the graphical netcube client, or with --lab a server and two players in one window"};
  app.failure_message(CLI::FailureMessage::help);  // a bad flag prints the usage
  netcube::apps::AddVersionFlag(app, "netcube-client");
  CLI::Option* lab_flag =
      app.add_flag("--lab", lab, "The all-in-one lab: an in-process server and two players over loopback");
  CLI::Option* connect_option =
      app.add_option("--connect", connect, "Connect at once to a server, HOST:PORT");
  CLI::Option* name_option = app.add_option("--name", name, "Player name")->capture_default_str();
  lab_flag->excludes(connect_option)->excludes(name_option);
  netcube::apps::FindFlags find;
  find.Register(app)->excludes(lab_flag)->excludes(connect_option);
  client_flags.Register(app,
                        " (default full; in the lab it applies to both players, whose defaults are full and "
                        "naive)",
                        " (lab default 125 for both players)");
  app.add_option("--seed", seed, "Random seed (conditioner, random script); lab player i uses seed + i")
      ->capture_default_str();
  app.add_option(
      "--script", script,
      "Drive the keys (the lab's player 1) with a script: random, circle, idle, or KEYS:MS segments "
      "such as R:500,-:200,UL:300; it starts once connected");
  app.add_option("--script2", script2, "Drive the lab's player 2 with a script")->needs(lab_flag);
  app.add_option("--tag-interval-ms", tag_interval_ms,
                 "The lab's players tag the nearest cube as they draw it this often, ms (0 = by hand: Space, E, "
                 "a click)")
      ->check(CLI::Range(0, 60'000))
      ->needs(lab_flag);
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
  if (find.requested()) return find.Run("netcube-client");

  bool scripts_ok = true;
  std::optional<client::InputScript> script1 = ParseScript("--script", script, &scripts_ok);
  std::optional<client::InputScript> script2_parsed = ParseScript("--script2", script2, &scripts_ok);
  if (!scripts_ok) return 2;

  if (lab) {
    apps::LabRunOptions options;
    options.run = run;
    for (std::size_t i = 0; i < gui::kLabPlayers; ++i) {
      client::ClientConfig& player = options.lab.players[i];
      player.settings = client_flags.ApplySettings(player.settings);
      player.link = client_flags.ApplyLink(player.link);
      player.seed = seed + i;
    }
    options.lab.tag_interval_ms = tag_interval_ms;
    options.scripts = {std::move(script1), std::move(script2_parsed)};
    return apps::RunLab(std::move(options));
  }

  apps::ClientRunOptions options;
  options.run = run;
  options.screen.client.name = name;
  options.screen.client.settings = client_flags.ApplySettings(client::PresetSettings(client::Preset::kFull));
  options.screen.client.link = client_flags.ApplyLink({});
  options.screen.client.seed = seed;
  options.screen.browser = find.browser();
  options.script = std::move(script1);
  if (!connect.empty()) {
    std::string error;
    if (!apps::SplitHostPort(connect, options.screen.host, options.screen.port, &error)) {
      std::cerr << "netcube-client: " << error << '\n';
      return 2;
    }
    options.screen.connect_at_start = true;
  }
  return apps::RunClient(std::move(options));
}
