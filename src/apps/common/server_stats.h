#pragma once
// A server's statistics file (netcube-server --stats-json, netcube-client --lab --stats-json): every counter
// of ServerStats and, under "settings", what the server ran with, so a run can be checked after the fact.
#include <string>

#include "netcube/server/server.h"

namespace netcube::apps {

// The statistics and settings of `server` as JSON: indented by `indent` spaces, or on one line when -1.
std::string ServerStatsJson(const server::Server& server, int indent);
// Writes ServerStatsJson through a temporary file and a rename, so a reader never sees half a file. False
// with `error` set when it cannot be written.
bool WriteServerStats(const std::string& path, const server::Server& server, std::string* error);

}  // namespace netcube::apps
