#pragma once
// netcube-server's command line: every flag, its help and checks, and the server configuration it makes.
#include <optional>
#include <string>

#include "netcube/discovery/responder.h"
#include "netcube/server/server.h"

namespace netcube::apps {

struct ServerFlags {
  server::ServerConfig config;  // with the technique flags applied once parsed
  double duration_s = 0.0;      // 0: until a signal
  std::string stats_path;
  double stats_interval_s = 0.0;
  bool discovery = true;
  discovery::ResponderConfig discovery_config;
  std::string server_name;
};

// Parses the command line into `flags`. Returns the exit code when the process is done (--help,
// --version, a bad flag, said on the console), nothing when the server is to run.
std::optional<int> ParseServerFlags(int argc, char** argv, ServerFlags& flags);

}  // namespace netcube::apps
