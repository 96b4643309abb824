// netcube-server: the authoritative server as a process. Parses flags (server_flags.h), creates
// netcube::server::Server and the LAN discovery responder, and serves on the steady clock (serve.h) until
// --duration passes or SIGINT/SIGTERM arrives, then says goodbye to every client and writes the stats file.
#include <iostream>
#include <memory>
#include <string>

#include "host.h"
#include "netcube/discovery/responder.h"
#include "netcube/server/server.h"
#include "serve.h"
#include "server_flags.h"

int main(int argc, char** argv) {
  netcube::apps::ServerFlags flags;
  if (const std::optional<int> exit_code = netcube::apps::ParseServerFlags(argc, argv, flags))
    return *exit_code;
  flags.config.work_clock = netcube::apps::SteadyNow;
  flags.config.nonce_source = netcube::apps::OsNonce;

  std::string error;
  auto server = netcube::server::Server::Create(flags.config, netcube::apps::SteadyNow(), &error);
  if (server == nullptr) {
    std::cerr << "netcube-server: " << error << '\n';
    return 1;
  }
  std::unique_ptr<netcube::discovery::Responder> responder;
  if (flags.discovery) {
    // The game runs without discovery: a failure here is a warning, not a reason to stop.
    responder = netcube::discovery::Responder::Open(flags.discovery_config, &error);
    if (responder == nullptr) {
      std::cerr << "netcube-server: LAN discovery off: " << error << '\n';
    } else if (!responder->multicast_error().empty()) {
      std::cerr << "netcube-server: LAN discovery answers broadcasts only: " << responder->multicast_error()
                << '\n';
    }
  }
  return netcube::apps::Serve(*server, responder.get(), flags) ? 0 : 1;
}
