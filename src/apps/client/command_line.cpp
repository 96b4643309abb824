#include "command_line.h"

#include <CLI/CLI.hpp>
#include <iterator>
#include <limits>

#include "flag_checks.h"
#include "netcube/protocol/messages.h"
#include "version.h"

namespace netcube::apps {
namespace {

constexpr int kMaxInt = std::numeric_limits<int>::max();

// The options the others need or exclude.
struct Options {
  CLI::Option* lab = nullptr;
  CLI::Option* connect = nullptr;
  CLI::Option* frames = nullptr;
  CLI::Option* encoding = nullptr;
  CLI::Option* arena = nullptr;
  CLI::Option* compare = nullptr;
  CLI::Option* replay = nullptr;
  CLI::Option* crowd = nullptr;
};

// The lab or a server to connect to (or --find), and the players' techniques and link.
void AddModeFlags(CLI::App& app, ClientCommandLine& f, Options& o) {
  o.lab =
      app.add_flag("--lab", f.lab, "The all-in-one lab: an in-process server and two players (--transport)");
  o.connect = app.add_option("--connect", f.connect, "Connect at once to a server, HOST:PORT");
  CLI::Option* name_option =
      app.add_option("--name", f.name, "Player name")->check(PlayerName())->capture_default_str();
  CLI::Option* budget_option =
      app.add_option(
             "--snapshot-budget", f.snapshot_budget,
             "Ask the server to keep this player's snapshots of its nearby cubes within this many bytes "
             "(default: the server's)")
          ->check(CLI::Range(protocol::kMinSnapshotBudget, protocol::kMaxPacketBytes));
  CLI::Option* spectate_option =
      app.add_option("--spectate", f.follow,
                     "Watch without a cube of your own: a free camera (arrow keys), or following PLAYER's "
                     "cube (Tab: the next player, F: free the camera)")
          ->expected(0, 1)
          ->type_name("[PLAYER]")
          ->check(CLI::Range(0, 255));
  o.lab->excludes(o.connect)->excludes(name_option)->excludes(budget_option)->excludes(spectate_option);
  f.find.Register(app)->excludes(o.lab)->excludes(o.connect);
  f.client_flags.Register(
      app,
      " (default full; in the lab it applies to both players, whose defaults are full and "
      "naive)",
      " (lab default 125 for both players)");
}

// What the players do: their seeds, scripts, tags, and the lab's network.
void AddPlayFlags(CLI::App& app, ClientCommandLine& f, const Options& o) {
  app.add_option("--seed", f.seed, "Random seed (conditioner, random script); lab player i uses seed + i")
      ->check(Unsigned())
      ->capture_default_str();
  app.add_option(
      "--script", f.script,
      "Drive the keys (the lab's player 1) with a script: random, circle, idle, or KEYS:MS segments "
      "such as R:500,-:200,UL:300; it starts once connected");
  app.add_option("--script2", f.script2, "Drive the lab's player 2 with a script")->needs(o.lab);
  app.add_option(
         "--tag-interval-ms", f.tag_interval_ms,
         "The lab's players tag the nearest cube as they draw it this often, ms (0 = by hand: Space, E, "
         "a click)")
      ->check(CLI::Range(0, 60'000))
      ->needs(o.lab);
  app.add_option("--transport", f.transport,
                 "The lab's network between its server and players: memory (an in-process hub: no socket, "
                 "the same run on every machine) or udp (ENet over loopback)")
      ->check(CLI::IsMember({"memory", "udp"}))
      ->capture_default_str()
      ->needs(o.lab);
}

// A bounded run: its frames, the lab server's encoding, the panels' tab, the screenshot.
void AddRunFlags(CLI::App& app, ClientCommandLine& f, Options& o) {
  o.frames = app.add_option("--frames", f.run.frames, "Render this many frames, then exit")
                 ->check(CLI::Range(1, kMaxInt));
  o.encoding =
      app.add_option("--snapshot-encoding", f.snapshot_encoding,
                     "The lab server's snapshots at the start: delta or full (the server panel switches "
                     "them)")
          ->check(CLI::IsMember({"full", "delta"}))
          ->capture_default_str()
          ->needs(o.lab);
  o.arena =
      AddArenaFlag(app, f.arena,
                   "The lab server's arena, width x height in units (a cube is 2 units wide); each player "
                   "follows its cube in a larger one")
          ->needs(o.lab);
  const std::string crowd_arena =
      std::to_string(gui::kCrowdArena.width_units()) + "x" + std::to_string(gui::kCrowdArena.height_units());
  o.crowd = app.add_option("--crowd", f.crowd,
                           "The crowd lab: this many more players on the lab's server, each wandering at "
                           "random, in a " +
                               crowd_arena + " arena unless --arena, with an interest radius of " +
                               std::to_string(gui::kCrowdInterestRadiusUnits) +
                               " units; the server's column draws player 1's relevant set")
                ->check(CLI::Range(1, gui::kMaxCrowd))
                ->needs(o.lab);
  app.add_option("--switch-encoding-frame", f.switch_encoding_frame,
                 "Switch the lab server's snapshot encoding (to the other one) at this frame, as the server "
                 "panel's toggle does")
      ->check(CLI::Range(1, kMaxInt))
      ->needs(o.frames);
  app.add_option("--panel-tab", f.panel_tab,
                 "The tab the lab's player panels open on (a screenshot's): techniques, readouts, plots or "
                 "overlays")
      ->check(CLI::IsMember(
          std::vector<std::string>(std::begin(gui::kPanelTabNames), std::end(gui::kPanelTabNames))))
      ->needs(o.lab);
  app.add_option("--screenshot", f.run.screenshot,
                 "Write the last frame as a PNG (needs --frames; without a display it renders offscreen; the "
                 "lab then runs on a virtual clock, frame i at i/60 s)")
      ->needs(o.frames);
}

// A comparison (--compare, --replay, --record) and the files a lab run writes.
void AddComparisonFlags(CLI::App& app, ClientCommandLine& f, Options& o) {
  o.compare =
      app.add_option("--compare", f.compare,
                     "Compare 2 to 4 technique sets side by side, e.g. naive,predicted,full or p,p+r+i: one "
                     "player each, the same keys (or --script) and the same network (one seed) for all, on a "
                     "server where their cubes never collide")
          ->needs(o.lab);
  o.replay =
      app.add_option(
             "--replay", f.replay,
             "Replay a session written by --record (its network, seed and keys; --compare replaces its "
             "technique sets), on the virtual clock, for the recorded number of frames unless --frames")
          ->needs(o.lab)
          ->excludes(o.arena);
  app.add_option("--record", f.record, "Write the comparison's session (settings, seed, keys) to this file")
      ->needs(o.compare)
      ->excludes(o.replay)
      ->excludes(o.arena);  // a session is played in the standard arena
  app.add_option("--digests", f.digests,
                 "Write each frame's digest (the server's world and every cube each player draws, hashed) to "
                 "this file, one line per frame: the web lab's must be the same for the same seed and keys")
      ->needs(o.lab);
  app.add_option("--csv", f.csv,
                 "Write one row per frame and player to this CSV file (columns in the README)")
      ->needs(o.lab);
  app.add_option(
         "--plot", f.plot,
         "At the end, plot over time, for each technique the compared players differ in, what it buys "
         "beside what it costs, to this PNG (docs/COMPARE.md)")
      ->needs(o.lab);
  app.add_option(
         "--stats-json", f.stats_json,
         "At the end, write the lab server's statistics and settings to this JSON file, as netcube-server "
         "--stats-json does")
      ->needs(o.lab);
}

// The journal: explanations, a link script, and scrubbing to frames at the end.
void AddJournalFlags(CLI::App& app, ClientCommandLine& f, const Options& o) {
  app.add_flag(
         "--journal", f.journal,
         "Journal the run and show each explained glitch on a timeline under the server's panel (on with "
         "--explain or --link-script)")
      ->needs(o.lab);
  app.add_option(
         "--explain", f.explain,
         "Journal the run and write each glitch a player could see, with its causes, as JSON lines to "
         "this file (- for stdout; docs/LAB.md, \"Explanations\")")
      ->needs(o.lab);
  app.add_option(
         "--link-script", f.link_script,
         "Change the players' links at given times, e.g. \"2s blackout 400ms client 1; 5s loss 30% for "
         "1s\" (or @FILE; syntax in docs/LAB.md)")
      ->needs(o.lab);
  app.add_option(
         "--seek", f.seek,
         "After the last of --frames, pause and scrub to each of these frames in turn (as the timeline's "
         "slider does; journals the run); the screenshot shows the last, e.g. --seek 700,400")
      ->delimiter(',')
      ->check(CLI::Range(0, kMaxInt))
      ->needs(o.frames)
      ->needs(o.lab);
}

// A fork of the comparison at a frame, and what it changes.
void AddForkFlags(CLI::App& app, ClientCommandLine& f, const Options& o) {
  CLI::Option* fork_option =
      app.add_option(
             "--fork-at", f.fork_at,
             "Fork the comparison (--compare, --replay) at this frame: each entry (the first two) runs "
             "beside a copy with the same hands and network luck that changes at this frame as "
             "--fork-with, --fork-delay-ms and --fork-profile say")
          ->check(CLI::Range(0, kMaxInt))
          ->needs(o.lab);
  app.add_option("--fork-with", f.fork_with,
                 "The fork's technique set, as --compare names one (e.g. naive, p+r+i)")
      ->needs(fork_option);
  app.add_option("--fork-delay-ms", f.fork_delay_ms, "The fork's fixed view delay, ms (adaptive delay off)")
      ->check(CLI::Range(0, client::kMaxInterpDelayMs))
      ->needs(fork_option);
  app.add_option("--fork-profile", f.fork_profile, "The fork's link, a profile of link_profiles.json")
      ->needs(fork_option);
  app.add_option(
         "--fork-snapshot-rate", f.fork_snapshot_rate,
         "The snapshot rate the fork asks for: adaptive (the tick rate while the link costs view delay) "
         "or server (the server's rate)")
      ->check(CLI::IsMember({"adaptive", "server"}))
      ->needs(fork_option);
}

// Saving and opening a journal, and the window's size.
void AddFileAndWindowFlags(CLI::App& app, ClientCommandLine& f, const Options& o) {
  app.add_option("--journal-out", f.journal_out,
                 "Journal the run and save the journal to this file at the end, to open anywhere with "
                 "--open-journal")
      ->needs(o.lab);
  app.add_option(
         "--open-journal", f.open_journal,
         "Open a journal saved by netcube-bot or netcube-bench --journal-out, read-only: its timeline's "
         "lanes and explanations")
      ->excludes(o.lab)
      ->excludes(o.connect);
  app.add_option("--width", f.run.app.width, "Window width")
      ->check(CLI::Range(320, 8192))
      ->capture_default_str();
  app.add_option("--height", f.run.app.height, "Window height")
      ->check(CLI::Range(240, 8192))
      ->capture_default_str();
}

}  // namespace

std::optional<int> ParseClientCommandLine(int argc, char** argv, ClientCommandLine& flags) {
  CLI::App app{
      "netcube-client: the graphical netcube client, or with --lab a server and two players in one window"};
  AddVersionFlag(app, "netcube-client");
  ShortUsageErrors(app, "netcube-client");
  Options o;
  AddModeFlags(app, flags, o);
  AddPlayFlags(app, flags, o);
  AddRunFlags(app, flags, o);
  AddComparisonFlags(app, flags, o);
  AddJournalFlags(app, flags, o);
  AddForkFlags(app, flags, o);
  o.compare->excludes("--script2");
  o.encoding->excludes(o.compare)->excludes(o.replay);
  o.replay->excludes("--script")->excludes("--script2")->excludes("--seed");
  o.crowd->excludes(o.compare)->excludes(o.replay);
  AddFileAndWindowFlags(app, flags, o);
  const std::optional<int> exit_code = ParseCommandLine(app, argc, argv);
  flags.spectate = app.count("--spectate") > 0;
  if (!exit_code && flags.crowd > 0 && o.arena->count() == 0) flags.arena = gui::kCrowdArena;
  return exit_code;
}

}  // namespace netcube::apps
