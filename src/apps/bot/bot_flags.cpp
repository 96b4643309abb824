#include "bot_flags.h"

#include <CLI/CLI.hpp>

#include "flag_checks.h"
#include "netcube/protocol/messages.h"
#include "version.h"

namespace netcube::apps {
namespace {

// Where the players connect from and to, how many, how long, with which techniques and link.
void AddPlayerFlags(CLI::App& app, BotFlags& flags) {
  client::BotConfig& config = flags.config;
  CLI::Option* connect_option =
      app.add_option("--connect", flags.connect, "Server address, HOST:PORT (required unless --find)");
  flags.find.Register(app)->excludes(connect_option);
  app.add_option("--source", config.source_address,
                 "Local IPv4 address to send from (a loopback address such as 127.0.0.2 on one machine)")
      ->capture_default_str();
  app.add_option("--count", config.count, "Players in this process, each with its own socket and seed")
      ->check(CLI::Range(1, static_cast<int>(protocol::kMaxPlayers)))
      ->capture_default_str();
  app.add_option("--duration", config.duration_s,
                 "Seconds of scripted play (default: a timeline's length, else 10)")
      ->check(FiniteRange(0.001, kMaxRunSeconds));
  flags.client_flags.Register(app, " (default full)", "");
  app.add_option("--seed", config.seed, "Random seed; player i uses seed + i")
      ->check(Unsigned())
      ->capture_default_str();
  app.add_option("--input-rate", config.input_rate, "Input samples per simulation step (2 = a speed hack)")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  app.add_option("--snapshot-budget", config.snapshot_budget,
                 "Ask the server to keep each player's snapshots of its nearby cubes within this many bytes "
                 "(default: the server's)")
      ->check(CLI::Range(protocol::kMinSnapshotBudget, protocol::kMaxPacketBytes));
  app.add_option("--spectate", config.follow,
                 "Watch instead of play (no cube, no inputs); with PLAYER, the i-th client follows player "
                 "PLAYER + i (for the server's interest management), else every camera is free")
      ->expected(0, 1)
      ->type_name("[PLAYER]")
      ->check(CLI::Range(0, static_cast<int>(protocol::kMaxPlayers) - 1));
  // A bot draws nothing: it refreshes its views (what a player would see, and measures) as a display
  // would, not at every 1 ms update: with a hundred players in a process that was a third of its work.
  app.add_option("--view-rate", flags.view_rate_hz,
                 "Refreshes of each player's views a second, as a display draws (0: every 1 ms update)")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
}

// What the players do: their script, names, settling and tags.
void AddPlayFlags(CLI::App& app, BotFlags& flags) {
  client::BotConfig& config = flags.config;
  app.add_option("--script", flags.script,
                 "random, circle, idle, or a timeline of KEYS:MS segments (R:100,-:50,R:100)")
      ->capture_default_str();
  app.add_option("--name", config.name_prefix, "Player name prefix")->capture_default_str();
  app.add_option("--settle-timeout", config.settle_timeout_s, "Longest wait for the cubes to settle, seconds")
      ->check(FiniteRange(0.001, 3600.0))
      ->capture_default_str();
  app.add_option(
         "--tag-interval-ms", config.tag_interval_ms,
         "Tag the nearest remote cube as drawn this often, ms (0 = never; at least the 250 ms cooldown)")
      ->check(CLI::Range(0, 60'000))
      ->capture_default_str();
  // A join is told to every player and every player to the joiner: a thousand at once held the server's
  // updates for seconds, and handshakes timed out.
  app.add_option("--join-interval-ms", flags.join_interval_ms,
                 "Join in batches of ten players this many ms apart, at most eight batches joining at once; "
                 "each batch plays --duration and the ramp still to come after it (0 = every player at once)")
      ->check(CLI::Range(0, 60'000))
      ->capture_default_str();
}

// The files a run reads and writes: the report, a session, the CSV, explanations, the journal.
void AddFileFlags(CLI::App& app, BotFlags& flags) {
  app.add_option("--report", flags.report_path, "Write the JSON report to this file");
  CLI::Option* replay_option = app.add_option(
      "--replay", flags.replay,
      "Play a session written by --record (here or by netcube-client --lab): one player per entry with its "
      "techniques and keys, on the session's link and seeds; without --connect against a server in this "
      "process on a virtual clock, the same frames on every run");
  app.add_option(
      "--record", flags.record,
      "Write the session (techniques, link, seed, the server's rates, every player's keys frame by "
      "frame) to this file; with --replay, the keys as replayed and the session's tags by hand");
  app.add_option("--csv", flags.csv,
                 "Write one row per frame (1/60 s of play) and player to this CSV file (the lab's "
                 "columns; the server's are the newest state received)");
  app.add_option("--explain", flags.explain,
                 "Journal the players and write each glitch one could see, with its causes, as JSON lines to "
                 "this file (- for stdout; docs/LAB.md). Against a server elsewhere the journal has no "
                 "server side");
  app.add_option("--journal-out", flags.journal_out,
                 "Journal the players and save the journal to this file, for netcube-client --open-journal");
  app.add_option(
      "--link-script", flags.link_script,
      "Change the players' links (or step their clocks) at given times of the run, e.g. \"5s "
      "blackout 400ms client 1; 8s clock +300ms client 2\" (or @FILE; docs/LAB.md); journals them");
  replay_option->excludes("--script")->excludes("--count")->excludes("--seed")->excludes("--duration");
  // What follows players frame by frame follows one run of them all, not batches that join in turn.
  for (const char* one_run :
       {"--replay", "--record", "--csv", "--explain", "--journal-out", "--link-script"}) {
    app.get_option("--join-interval-ms")->excludes(one_run);
  }
}

}  // namespace

std::optional<int> ParseBotFlags(int argc, char** argv, BotFlags& flags) {
  CLI::App app{"netcube-bot: headless netcube players that play a script and report what they measured"};
  AddVersionFlag(app, "netcube-bot");
  ShortUsageErrors(app, "netcube-bot");
  AddPlayerFlags(app, flags);
  AddPlayFlags(app, flags);
  AddFileFlags(app, flags);
  if (const std::optional<int> exit_code = ParseCommandLine(app, argc, argv)) return exit_code;
  flags.config.spectate = app.count("--spectate") > 0;
  if (flags.find.requested()) return std::nullopt;
  const client::BotConfig& config = flags.config;
  // The longest name, the prefix and the last player's index, must fit as it is: names are never cut.
  if (const std::string problem =
          protocol::NameProblem(config.name_prefix + std::to_string(config.count - 1));
      !problem.empty()) {
    return app.exit(CLI::ValidationError("--name", problem + " (the prefix and a player's index)"));
  }
  if (flags.connect.empty() && flags.replay.empty()) return app.exit(CLI::RequiredError("--connect"));
  return std::nullopt;
}

}  // namespace netcube::apps
