#pragma once
// netcube-client's command line: every flag, its help and checks, and the flags they need or exclude.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client_flags.h"
#include "find.h"
#include "runner.h"

namespace netcube::apps {

struct ClientCommandLine {
  bool lab = false;
  std::string connect;
  std::string name = "player";
  std::size_t snapshot_budget = 0;  // asked of the server (client::ClientConfig::snapshot_budget); 0: its own
  bool spectate = false;            // --spectate: watch without a cube (client::ClientConfig::spectate)
  std::optional<int> follow;        // --spectate PLAYER: the player the camera follows at the start
  ClientFlags client_flags;
  FindFlags find;
  std::uint64_t seed = 1;
  std::string script;
  std::string script2;
  int tag_interval_ms = 0;
  // The lab server's defaults are netcube-server's (ServerConfig's).
  std::string snapshot_encoding = server::ToString(server::ServerConfig{}.snapshot_encoding);
  int switch_encoding_frame = 0;
  sim::Arena arena = sim::kStandardArena;  // the lab server's (gui::kCrowdArena for a crowd)
  int crowd = 0;                           // wandering players in the lab (0: none)
  std::string transport = transport::ToString(gui::LabConfig{}.network);
  std::string panel_tab = gui::kPanelTabNames[0];
  RunOptions run;
  // A comparison and the files a lab run writes.
  std::string compare;
  std::string replay;
  std::string record;
  std::string digests;
  std::string csv;
  std::string plot;
  std::string stats_json;
  // The journal and the time machine.
  bool journal = false;
  std::string explain;
  std::string link_script;
  std::vector<std::int64_t> seek;
  std::optional<std::int64_t> fork_at;
  std::string fork_with;
  std::optional<int> fork_delay_ms;
  std::string fork_profile;
  std::string fork_snapshot_rate;
  std::string journal_out;
  std::string open_journal;
};

// Parses the command line into `flags`. Returns the exit code when the process is done (--help,
// --version, a bad flag, said on the console), nothing when it is to run.
std::optional<int> ParseClientCommandLine(int argc, char** argv, ClientCommandLine& flags);

}  // namespace netcube::apps
