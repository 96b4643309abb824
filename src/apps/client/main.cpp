// netcube-client: the graphical client. Parses flags and runs either a client connected to a server
// (--connect, or the connect panel) or the all-in-one lab (--lab) through runner.h; netcube::gui draws.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <iterator>
#include <limits>
#include <optional>
#include <string>

#include "client_flags.h"
#include "files.h"
#include "find.h"
#include "flag_checks.h"
#include "link_profiles.h"
#include "open_journal.h"
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
  // The lab server's defaults are netcube-server's (ServerConfig's).
  std::string snapshot_encoding =
      netcube::server::ToString(netcube::server::ServerConfig{}.snapshot_encoding);
  int switch_encoding_frame = 0;
  std::string transport = netcube::transport::ToString(netcube::gui::LabConfig{}.network);
  apps::RunOptions run;

  CLI::App app{
      "netcube-client: the graphical netcube client, or with --lab a server and two players in one window"};
  netcube::apps::AddVersionFlag(app, "netcube-client");
  netcube::apps::ShortUsageErrors(app, "netcube-client");
  CLI::Option* lab_flag =
      app.add_flag("--lab", lab, "The all-in-one lab: an in-process server and two players (--transport)");
  CLI::Option* connect_option =
      app.add_option("--connect", connect, "Connect at once to a server, HOST:PORT");
  CLI::Option* name_option = app.add_option("--name", name, "Player name")
                                 ->check(netcube::apps::PlayerName())
                                 ->capture_default_str();
  lab_flag->excludes(connect_option)->excludes(name_option);
  netcube::apps::FindFlags find;
  find.Register(app)->excludes(lab_flag)->excludes(connect_option);
  client_flags.Register(app,
                        " (default full; in the lab it applies to both players, whose defaults are full and "
                        "naive)",
                        " (lab default 125 for both players)");
  app.add_option("--seed", seed, "Random seed (conditioner, random script); lab player i uses seed + i")
      ->check(netcube::apps::Unsigned())
      ->capture_default_str();
  app.add_option(
      "--script", script,
      "Drive the keys (the lab's player 1) with a script: random, circle, idle, or KEYS:MS segments "
      "such as R:500,-:200,UL:300; it starts once connected");
  app.add_option("--script2", script2, "Drive the lab's player 2 with a script")->needs(lab_flag);
  app.add_option(
         "--tag-interval-ms", tag_interval_ms,
         "The lab's players tag the nearest cube as they draw it this often, ms (0 = by hand: Space, E, "
         "a click)")
      ->check(CLI::Range(0, 60'000))
      ->needs(lab_flag);
  app.add_option("--transport", transport,
                 "The lab's network between its server and players: memory (an in-process hub: no socket, "
                 "the same run on every machine) or udp (ENet over loopback)")
      ->check(CLI::IsMember({"memory", "udp"}))
      ->capture_default_str()
      ->needs(lab_flag);
  CLI::Option* frames_option = app.add_option("--frames", run.frames, "Render this many frames, then exit")
                                   ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  CLI::Option* encoding_option =
      app.add_option(
             "--snapshot-encoding", snapshot_encoding,
             "The lab server's snapshots at the start: delta or full (the server panel switches them)")
          ->check(CLI::IsMember({"full", "delta"}))
          ->capture_default_str()
          ->needs(lab_flag);
  app.add_option("--switch-encoding-frame", switch_encoding_frame,
                 "Switch the lab server's snapshot encoding (to the other one) at this frame, as the server "
                 "panel's toggle does")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()))
      ->needs(frames_option);
  std::string panel_tab = gui::kPanelTabNames[0];
  app.add_option("--panel-tab", panel_tab,
                 "The tab the lab's player panels open on (a screenshot's): techniques, readouts, plots or "
                 "overlays")
      ->check(CLI::IsMember(
          std::vector<std::string>(std::begin(gui::kPanelTabNames), std::end(gui::kPanelTabNames))))
      ->needs(lab_flag);
  app.add_option("--screenshot", run.screenshot,
                 "Write the last frame as a PNG (needs --frames; without a display it renders offscreen; the "
                 "lab then runs on a virtual clock, frame i at i/60 s)")
      ->needs(frames_option);
  std::string compare;
  std::string replay;
  std::string record;
  std::string csv;
  std::string plot;
  std::string stats_json;
  CLI::Option* compare_option =
      app.add_option("--compare", compare,
                     "Compare 2 to 4 technique sets side by side, e.g. naive,predicted,full or p,p+r+i: one "
                     "player each, the same keys (or --script) and the same network (one seed) for all, on a "
                     "server where their cubes never collide")
          ->needs(lab_flag);
  CLI::Option* replay_option =
      app.add_option(
             "--replay", replay,
             "Replay a session written by --record (its network, seed and keys; --compare replaces its "
             "technique sets), on the virtual clock, for the recorded number of frames unless --frames")
          ->needs(lab_flag);
  app.add_option("--record", record, "Write the comparison's session (settings, seed, keys) to this file")
      ->needs(compare_option)
      ->excludes(replay_option);
  std::string digests;
  app.add_option("--digests", digests,
                 "Write each frame's digest (the server's world and every cube each player draws, hashed) to "
                 "this file, one line per frame: the web lab's must be the same for the same seed and keys")
      ->needs(lab_flag);
  app.add_option("--csv", csv, "Write one row per frame and player to this CSV file (columns in the README)")
      ->needs(lab_flag);
  app.add_option(
         "--plot", plot,
         "At the end, plot over time, for each technique the compared players differ in, what it buys "
         "beside what it costs, to this PNG (docs/COMPARE.md)")
      ->needs(lab_flag);
  app.add_option(
         "--stats-json", stats_json,
         "At the end, write the lab server's statistics and settings to this JSON file, as netcube-server "
         "--stats-json does")
      ->needs(lab_flag);
  std::string explain;
  std::string link_script;
  bool journal = false;
  app.add_flag(
         "--journal", journal,
         "Journal the run and show each explained glitch on a timeline under the server's panel (on with "
         "--explain or --link-script)")
      ->needs(lab_flag);
  app.add_option(
         "--explain", explain,
         "Journal the run and write each glitch a player could see, with its causes, as JSON lines to "
         "this file (- for stdout; docs/LAB.md, \"Explanations\")")
      ->needs(lab_flag);
  app.add_option(
         "--link-script", link_script,
         "Change the players' links at given times, e.g. \"2s blackout 400ms client 1; 5s loss 30% for "
         "1s\" (or @FILE; syntax in docs/LAB.md)")
      ->needs(lab_flag);
  std::vector<std::int64_t> seek;
  app.add_option(
         "--seek", seek,
         "After the last of --frames, pause and scrub to each of these frames in turn (as the timeline's "
         "slider does; journals the run); the screenshot shows the last, e.g. --seek 700,400")
      ->delimiter(',')
      ->check(CLI::Range(0, std::numeric_limits<int>::max()))
      ->needs(frames_option)
      ->needs(lab_flag);
  std::optional<std::int64_t> fork_at;
  std::string fork_with;
  std::optional<int> fork_delay_ms;
  std::string fork_profile;
  CLI::Option* fork_option =
      app.add_option(
             "--fork-at", fork_at,
             "Fork the comparison (--compare, --replay) at this frame: each entry (the first two) runs "
             "beside a copy with the same hands and network luck that changes at this frame as "
             "--fork-with, --fork-delay-ms and --fork-profile say")
          ->check(CLI::Range(0, std::numeric_limits<int>::max()))
          ->needs(lab_flag);
  app.add_option("--fork-with", fork_with,
                 "The fork's technique set, as --compare names one (e.g. naive, p+r+i)")
      ->needs(fork_option);
  app.add_option("--fork-delay-ms", fork_delay_ms, "The fork's fixed view delay, ms (adaptive delay off)")
      ->check(CLI::Range(0, client::kMaxInterpDelayMs))
      ->needs(fork_option);
  app.add_option("--fork-profile", fork_profile, "The fork's link, a profile of link_profiles.json")
      ->needs(fork_option);
  std::string fork_snapshot_rate;
  app.add_option(
         "--fork-snapshot-rate", fork_snapshot_rate,
         "The snapshot rate the fork asks for: adaptive (the tick rate while the link costs view delay) "
         "or server (the server's rate)")
      ->check(CLI::IsMember({"adaptive", "server"}))
      ->needs(fork_option);
  compare_option->excludes("--script2");
  encoding_option->excludes(compare_option)->excludes(replay_option);
  replay_option->excludes("--script")->excludes("--script2")->excludes("--seed");
  std::string journal_out;
  app.add_option("--journal-out", journal_out,
                 "Journal the run and save the journal to this file at the end, to open anywhere with "
                 "--open-journal")
      ->needs(lab_flag);
  std::string open_journal;
  app.add_option(
         "--open-journal", open_journal,
         "Open a journal saved by netcube-bot or netcube-bench --journal-out, read-only: its timeline's "
         "lanes and explanations")
      ->excludes(lab_flag)
      ->excludes(connect_option);
  app.add_option("--width", run.app.width, "Window width")
      ->check(CLI::Range(320, 8192))
      ->capture_default_str();
  app.add_option("--height", run.app.height, "Window height")
      ->check(CLI::Range(240, 8192))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (find.requested()) return find.Run("netcube-client");
  if (!open_journal.empty()) return apps::OpenJournal(run, open_journal);

  bool scripts_ok = true;
  std::optional<client::InputScript> script1 = ParseScript("--script", script, &scripts_ok);
  std::optional<client::InputScript> script2_parsed = ParseScript("--script2", script2, &scripts_ok);
  if (!scripts_ok) return 2;

  if (lab) {
    apps::LabRunOptions options;
    if (fork_at) {
      if (compare.empty() && replay.empty()) {
        std::cerr << "netcube-client: --fork-at needs a comparison: --compare or --replay\n";
        return 2;
      }
      if (!record.empty()) {
        std::cerr << "netcube-client: --fork-at runs twice the entries: it cannot --record their session\n";
        return 2;
      }
      apps::LabFork fork;
      fork.frame = *fork_at;
      std::string error;
      if (!fork_with.empty()) {
        fork.with = client::ParseTechniqueSet(fork_with, &error);
        if (!fork.with) {
          std::cerr << "netcube-client: bad --fork-with: " << error << '\n';
          return 2;
        }
      }
      fork.delay_ms = fork_delay_ms;
      if (!fork_snapshot_rate.empty()) fork.adaptive_snapshot_rate = fork_snapshot_rate == "adaptive";
      if (!fork_profile.empty()) {
        const std::vector<netcube::transport::LinkProfile> profiles =
            apps::LoadLinkProfiles(apps::LinkProfilesPath(), &error);
        fork.link = netcube::transport::FindLinkProfile(profiles, fork_profile);
        if (!fork.link) {
          std::cerr << "netcube-client: bad --fork-profile: no profile '" << fork_profile << "'"
                    << (error.empty() ? "" : " (" + error + ")") << '\n';
          return 2;
        }
      }
      if (!fork.with && !fork.delay_ms && !fork.link && !fork.adaptive_snapshot_rate) {
        std::cerr << "netcube-client: --fork-at needs --fork-with, --fork-delay-ms, --fork-profile or "
                     "--fork-snapshot-rate\n";
        return 2;
      }
      options.fork = std::move(fork);
    }
    options.seek = seek;
    if (!link_script.empty()) {
      std::string error;
      std::string text = link_script;
      if (text.starts_with('@') && !apps::ReadFile(text.substr(1), &text, &error)) {
        std::cerr << "netcube-client: --link-script: " << error << '\n';
        return 2;
      }
      std::optional<std::vector<netcube::timeline::LinkChange>> changes =
          netcube::timeline::ParseLinkScript(text, &error);
      if (!changes) {
        std::cerr << "netcube-client: bad --link-script: " << error << '\n';
        return 2;
      }
      options.link_script = std::move(*changes);
      options.session.link_script = text;  // a comparison's --record keeps it
    }
    options.explain = explain;
    options.journal = journal;
    options.journal_out = journal_out;
    for (int i = 0; i < argc; ++i) options.title += (i > 0 ? " " : "") + std::string(argv[i]);
    options.run = run;
    options.record = record;
    options.csv = csv;
    options.digests = digests;
    options.plot = plot;
    options.stats_json = stats_json;
    options.scripts = {std::move(script1), std::move(script2_parsed)};
    options.switch_encoding_frame = switch_encoding_frame;
    const auto tab_index =
        std::find(std::begin(gui::kPanelTabNames), std::end(gui::kPanelTabNames), panel_tab) -
        std::begin(gui::kPanelTabNames);
    const auto tab = static_cast<gui::PanelTab>(tab_index);
    if (compare.empty() && replay.empty()) {
      for (std::size_t i = 0; i < options.lab.players.size(); ++i) {
        client::ClientConfig& player = options.lab.players[i].client;
        player.settings = client_flags.ApplySettings(player.settings);
        player.link = client_flags.ApplyLink(player.link);
        player.seed = seed + i;
      }
      options.lab.tag_interval_ms = tag_interval_ms;
      options.lab.server.snapshot_encoding = snapshot_encoding == "full"
                                                 ? netcube::server::SnapshotEncoding::kFull
                                                 : netcube::server::SnapshotEncoding::kDelta;
      options.plot_title = "netcube lab";
      options.lab.network = *netcube::transport::ParseNetworkKind(transport);
      options.lab.panel_tab = tab;
      return apps::RunLab(std::move(options));
    }
    std::string error;
    apps::Session& session = options.session;
    session.seed = seed;
    session.tag_interval_ms = tag_interval_ms;
    session.link.latency_ms = gui::kLabDefaultLatencyMs;
    if (!replay.empty()) {
      std::string text;
      std::optional<apps::Session> read;
      if (apps::ReadFile(replay, &text, &error)) read = apps::ParseSession(text, &error);
      if (!read) {
        std::cerr << "netcube-client: --replay " << replay << ": " << error << '\n';
        return 2;
      }
      // The session's link script, unless --link-script gives another.
      if (options.link_script.empty() && !read->link_script.empty()) {
        options.link_script = *netcube::timeline::ParseLinkScript(read->link_script, &error);
      } else {
        read->link_script = options.session.link_script;
      }
      session = std::move(*read);
      options.replay = true;
      options.replay_path = replay;
    }
    if (!compare.empty()) {
      std::optional<std::vector<client::TechniqueSet>> entries = client::ParseTechniqueSets(compare, &error);
      if (!entries || !session.ReplaceEntries(std::move(*entries), &error)) {
        std::cerr << "netcube-client: bad --compare: " << error << '\n';
        return 2;
      }
    }
    if (client_flags.ChoosesTechniques()) {
      std::cerr
          << "netcube-client: --compare and --replay choose the techniques: drop --preset and the toggles\n";
      return 2;
    }
    for (client::TechniqueSet& entry : session.entries)
      entry.settings = client_flags.ApplySettings(entry.settings);
    session.link = client_flags.ApplyLink(session.link);
    apps::SetUpComparison(options);
    options.lab.network = *netcube::transport::ParseNetworkKind(transport);
    options.lab.panel_tab = tab;
    return apps::RunLab(std::move(options));
  }

  apps::ClientRunOptions options;
  options.run = run;
  options.screen.client.name = name;
  options.screen.client.settings = client_flags.ApplySettings(options.screen.client.settings);
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
