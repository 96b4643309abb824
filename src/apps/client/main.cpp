// netcube-client: the graphical client. Parses flags (command_line.h) and runs either a client connected to
// a server (--connect, or the connect panel) or the all-in-one lab (--lab, lab_options.h) through runner.h;
// netcube::gui draws.
#include <iostream>
#include <optional>
#include <string>

#include "client_flags.h"
#include "command_line.h"
#include "lab_options.h"
#include "open_journal.h"
#include "runner.h"

namespace {

namespace client = netcube::client;
namespace apps = netcube::apps;

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

// A client of the server --connect names (or of the one chosen in the connect panel).
int RunConnectedClient(const apps::ClientCommandLine& flags, std::optional<client::InputScript> script) {
  apps::ClientRunOptions options;
  options.run = flags.run;
  options.screen.client.name = flags.name;
  options.screen.client.snapshot_budget = flags.snapshot_budget;
  options.screen.client.spectate = flags.spectate;
  if (flags.follow) options.screen.client.follow = static_cast<netcube::sim::PlayerId>(*flags.follow);
  options.screen.client.settings = flags.client_flags.ApplySettings(options.screen.client.settings);
  options.screen.client.link = flags.client_flags.ApplyLink({});
  options.screen.client.seed = flags.seed;
  options.screen.browser = flags.find.browser();
  options.script = std::move(script);
  if (!flags.connect.empty()) {
    std::string error;
    if (!apps::SplitHostPort(flags.connect, options.screen.host, options.screen.port, &error)) {
      std::cerr << "netcube-client: " << error << '\n';
      return 2;
    }
    options.screen.connect_at_start = true;
  }
  return apps::RunClient(std::move(options));
}

}  // namespace

int main(int argc, char** argv) {
  apps::ClientCommandLine flags;
  if (const std::optional<int> exit_code = apps::ParseClientCommandLine(argc, argv, flags)) return *exit_code;
  if (flags.find.requested()) return flags.find.Run("netcube-client");
  if (!flags.open_journal.empty()) return apps::OpenJournal(flags.run, flags.open_journal);

  bool scripts_ok = true;
  std::optional<client::InputScript> script1 = ParseScript("--script", flags.script, &scripts_ok);
  std::optional<client::InputScript> script2 = ParseScript("--script2", flags.script2, &scripts_ok);
  if (!scripts_ok) return 2;
  if (!flags.lab) return RunConnectedClient(flags, std::move(script1));

  std::string title;
  for (int i = 0; i < argc; ++i) title += (i > 0 ? " " : "") + std::string(argv[i]);
  std::optional<apps::LabRunOptions> options =
      apps::LabOptionsFrom(flags, {std::move(script1), std::move(script2)}, std::move(title));
  if (!options) return 2;
  return apps::RunLab(std::move(*options));
}
