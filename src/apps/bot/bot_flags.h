#pragma once
// netcube-bot's command line: every flag, its help and checks.
#include <optional>
#include <string>

#include "client_flags.h"
#include "find.h"
#include "netcube/client/bot.h"

namespace netcube::apps {

struct BotFlags {
  client::BotConfig config;  // the flags that set it directly; the rest is the run's setup (bot_setup.h)
  std::string connect;
  ClientFlags client_flags;
  FindFlags find;
  std::string script = "random";
  std::string report_path;
  int view_rate_hz = 60;
  int join_interval_ms = 0;  // 0: every player asks to join at once (bot_play.cpp)
  std::string record;
  std::string replay;
  std::string csv;
  std::string explain;
  std::string journal_out;
  std::string link_script;
};

// Parses the command line into `flags`. Returns the exit code when the process is done (--help,
// --version, a bad flag, said on the console), nothing when the bots are to run (or --find).
std::optional<int> ParseBotFlags(int argc, char** argv, BotFlags& flags);

}  // namespace netcube::apps
