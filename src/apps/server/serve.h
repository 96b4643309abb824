#pragma once
// netcube-server's loop on the steady clock: the start lines, then the server and its discovery responder
// serviced until
// --duration passes or SIGINT/SIGTERM arrives, a status line every 5 s, the stats file on SIGUSR1 and every
// --stats-interval, then a goodbye to every client.
#include "netcube/discovery/responder.h"
#include "netcube/server/server.h"
#include "server_flags.h"

namespace netcube::apps {

// Says the server is up, runs `server` (and `responder`, when there is one) until it is time to stop, and
// says goodbye. Returns false when the stats file could not be written at the end.
bool Serve(server::Server& server, discovery::Responder* responder, const ServerFlags& flags);

}  // namespace netcube::apps
