// netcube-server: the authoritative server as a process. Parses flags, runs netcube::server::Server on the
// steady clock until --duration passes or SIGINT/SIGTERM arrives, then says goodbye to every client and
// writes the stats file.
#include <sys/random.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include "files.h"
#include "flag_checks.h"
#include "netcube/discovery/responder.h"
#include "netcube/protocol/rules.h"
#include "netcube/server/server.h"
#include "netcube/transport/udp_socket.h"
#include "server_stats.h"
#include "version.h"

namespace {

using netcube::Micros;
using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_stop_requested = 0;
volatile std::sig_atomic_t g_stats_requested = 0;
extern "C" void RequestStop(int /*signal*/) { g_stop_requested = 1; }
extern "C" void RequestStats(int /*signal*/) { g_stats_requested = 1; }

constexpr Micros kMaxSleep{1000};             // service the network at least this often
constexpr Micros kStatusInterval{5'000'000};  // one status line this often
constexpr Micros kGoodbyeDeadline{500'000};   // longest wait for disconnects to be acknowledged

// Microseconds since the process's first call, on the monotonic clock.
Micros Now() {
  static const Clock::time_point start = Clock::now();
  return std::chrono::duration_cast<Micros>(Clock::now() - start);
}

// A Challenge nonce from the kernel's CSPRNG, each one drawn afresh so none tells anything of the next.
std::uint64_t OsNonce() {
  std::uint64_t nonce = 0;
  // 8 bytes from getrandom never come short once the pool is initialised; without it there is no secret.
  if (getrandom(&nonce, sizeof nonce, 0) != static_cast<ssize_t>(sizeof nonce)) {
    std::perror("netcube-server: getrandom");
    std::abort();
  }
  return nonce;
}

// Clients, tick time, inputs and bandwidth since the previous line.
void PrintStatus(const netcube::server::ServerStats& stats, const netcube::server::ServerStats& previous,
                 Micros interval) {
  const double seconds = std::chrono::duration<double>(interval).count();
  const auto per_second = [seconds](std::uint64_t now, std::uint64_t before) {
    return static_cast<double>(now - before) / seconds;
  };
  std::printf(
      "clients %zu | tick p50 %lld us p99 %lld us | inputs processed %llu dropped %llu | "
      "in %.0f B/s out %.0f B/s\n",
      stats.clients, static_cast<long long>(stats.tick_durations.p50.count()),
      static_cast<long long>(stats.tick_durations.p99.count()),
      static_cast<unsigned long long>(stats.inputs.processed),
      static_cast<unsigned long long>(stats.inputs.dropped_rate_limit),
      per_second(stats.wire_bytes_received, previous.wire_bytes_received),
      per_second(stats.wire_bytes_sent, previous.wire_bytes_sent));
  std::fflush(stdout);
}

// The machine's host name as a discovery name: printable ASCII only, at most kMaxServerNameLength.
std::string DefaultServerName() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::string name;
  for (const char* c = host; *c != '\0' && name.size() < netcube::protocol::kMaxServerNameLength; ++c) {
    if (netcube::protocol::IsPrintable(*c)) name.push_back(*c);
  }
  return name.empty() ? "netcube" : name;
}

bool IsServerName(const std::string& name) {
  return netcube::protocol::IsPrintableName(name, netcube::protocol::kMaxServerNameLength);
}

// What a discovery reply says about `server` now.
netcube::protocol::DiscoveryReply DescribeServer(const netcube::server::Server& server,
                                                 const std::string& name) {
  const netcube::server::ServerConfig& config = server.config();
  netcube::protocol::DiscoveryReply info;
  // A server bound to one address names it; bound to all, the reply's source address is the one to use.
  // The server has bound bind_address, so it parses.
  info.address = netcube::transport::ParseIpv4(config.bind_address).value_or(0);
  info.port = server.port();
  info.players = static_cast<std::uint16_t>(server.world().size());
  info.max_players = static_cast<std::uint16_t>(config.max_clients);
  info.tick_rate = static_cast<std::uint8_t>(config.tick_rate);
  info.snapshot_rate = static_cast<std::uint8_t>(
      netcube::protocol::EffectiveSnapshotRate(config.snapshot_rate, config.tick_rate));
  info.max_snapshot_rate = static_cast<std::uint8_t>(
      netcube::protocol::EffectiveSnapshotRate(config.max_snapshot_rate, config.tick_rate));
  info.name = name;
  return info;
}

// Writes the stats file, or says why not.
bool WriteStats(const std::string& path, const netcube::server::Server& server) {
  std::string error;
  if (netcube::apps::WriteServerStats(path, server, &error)) return true;
  std::cerr << "netcube-server: " << error << '\n';
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  netcube::server::ServerConfig config;
  // The flags' defaults are ServerConfig's, the same the lab's server starts with.
  const auto on_off = [](bool on) { return std::string(on ? "on" : "off"); };
  std::string collisions = on_off(config.collisions);
  std::string lag_compensation = on_off(config.lag_compensation);
  std::string snapshot_encoding = netcube::server::ToString(config.snapshot_encoding);
  std::string input_buffer = on_off(config.input_buffer);
  double duration_s = 0.0;
  std::string stats_path;
  double stats_interval_s = 0.0;
  std::string discovery = "on";
  netcube::discovery::ResponderConfig discovery_config;
  std::string server_name = DefaultServerName();

  CLI::App app{"netcube-server: the authoritative netcube game server"};
  netcube::apps::AddVersionFlag(app, "netcube-server");
  netcube::apps::ShortUsageErrors(app, "netcube-server");
  app.add_option("--bind", config.bind_address, "Address to listen on")->capture_default_str();
  app.add_option("--port", config.port, "UDP port (0 = any free port)")
      ->check(netcube::apps::Port())
      ->capture_default_str();
  app.add_option("--tick-rate", config.tick_rate, "Simulation ticks per second")
      ->check(CLI::Range(1, netcube::protocol::kMaxRate))
      ->capture_default_str();
  CLI::Option* snapshot_rate_option =
      app.add_option(
             "--snapshot-rate", config.snapshot_rate,
             "Snapshots sent per second (at most the tick rate; the default follows a lower tick rate)")
          ->check(CLI::Range(1, netcube::protocol::kMaxRate))
          ->capture_default_str();
  app.add_option("--max-snapshot-rate", config.max_snapshot_rate,
                 "The most snapshots a second any client may ask for (at least --snapshot-rate; capped by "
                 "the tick rate)")
      ->check(CLI::Range(1, netcube::protocol::kMaxRate))
      ->capture_default_str();
  app.add_option("--max-clients", config.max_clients, "Players at most")
      ->check(CLI::Range(std::size_t{1}, netcube::protocol::kMaxPlayers))
      ->capture_default_str();
  app.add_option("--max-per-address", config.max_per_address,
                 "Connections from one IP address at once (players behind one NAT share an address)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{4095}))
      ->capture_default_str();
  app.add_option("--collisions", collisions, "Players push each other apart: on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--lag-compensation", lag_compensation,
                 "Judge tags against the world as the shooter saw it (off: as it is now): on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option(
         "--snapshot-encoding", snapshot_encoding,
         "Snapshots as deltas against the newest one each client holds, or every cube in full: delta or full")
      ->check(CLI::IsMember({"full", "delta"}))
      ->capture_default_str();
  app.add_option(
         "--input-buffer", input_buffer,
         "Hold each client's inputs in a small adaptive buffer so its cube moves every tick (off: a tick "
         "applies whatever has arrived): on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--max-rewind-ms", config.max_rewind_ms, "Lag compensation rewinds at most this far")
      ->check(CLI::Range(0, netcube::protocol::kMaxTagDelayMs))
      ->capture_default_str();
  app.add_option("--duration", duration_s,
                 "Run this many seconds, then exit cleanly (default: until a signal)")
      ->check(netcube::apps::FiniteRange(0.001, netcube::apps::kMaxRunSeconds));
  CLI::Option* stats_json = app.add_option(
      "--stats-json", stats_path, "Write the server's statistics to this JSON file at exit (and on SIGUSR1)");
  app.add_option("--stats-interval", stats_interval_s,
                 "Also rewrite the --stats-json file every this many seconds")
      ->check(netcube::apps::FiniteRange(0.01, netcube::apps::kMaxRunSeconds))
      ->needs(stats_json);
  app.add_option("--latency-ms", config.link.latency_ms, "Server-side conditioner: one-way added latency")
      ->check(netcube::apps::FiniteRange(0.0, netcube::apps::kMaxLinkDelayMs))
      ->capture_default_str();
  app.add_option("--jitter-ms", config.link.jitter_ms,
                 "Server-side conditioner: latency varies by up to +-this")
      ->check(netcube::apps::FiniteRange(0.0, netcube::apps::kMaxLinkDelayMs))
      ->capture_default_str();
  app.add_option("--loss", config.link.loss, "Server-side conditioner: packet loss probability [0, 1]")
      ->check(netcube::apps::FiniteRange(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--duplicate", config.link.duplicate,
                 "Server-side conditioner: duplication probability [0, 1]")
      ->check(netcube::apps::FiniteRange(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--reorder", config.link.reorder, "Server-side conditioner: reordering probability [0, 1]")
      ->check(netcube::apps::FiniteRange(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--seed", config.seed, "Server-side conditioner: random seed")
      ->check(netcube::apps::Unsigned())
      ->capture_default_str();
  app.add_option("--peer-timeout-ms", config.peer_timeout_ms, "A silent client is dropped after this")
      ->check(CLI::Range(100u, 600'000u))
      ->capture_default_str();
  app.add_option("--discovery", discovery,
                 "Answer LAN discovery queries (broadcast and multicast): on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--discovery-port", discovery_config.port, "UDP port of LAN discovery")
      ->capture_default_str();
  app.add_option("--server-name", server_name, "The name LAN browsers show (1-30 printable ASCII characters)")
      ->check([](const std::string& name) {
        return IsServerName(name) ? "" : "1 to 30 printable ASCII characters";
      })
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  // The server sends at most one snapshot a tick: asking for more is refused rather than advertised (on
  // the start line and in discovery replies) and not sent; the default follows a lower tick rate.
  if (config.snapshot_rate > config.tick_rate) {
    if (snapshot_rate_option->count() > 0) {
      return app.exit(CLI::ValidationError(
          "--snapshot-rate", std::to_string(config.snapshot_rate) + " is more than --tick-rate " +
                                 std::to_string(config.tick_rate) +
                                 ": the server sends at most one snapshot a tick"));
    }
    config.snapshot_rate = config.tick_rate;
  }
  config.collisions = collisions == "on";
  config.lag_compensation = lag_compensation == "on";
  config.input_buffer = input_buffer == "on";
  config.snapshot_encoding = snapshot_encoding == "full" ? netcube::server::SnapshotEncoding::kFull
                                                         : netcube::server::SnapshotEncoding::kDelta;
  config.work_clock = Now;
  config.nonce_source = OsNonce;

  std::string error;
  auto server = netcube::server::Server::Create(config, Now(), &error);
  if (server == nullptr) {
    std::cerr << "netcube-server: " << error << '\n';
    return 1;
  }
  std::unique_ptr<netcube::discovery::Responder> responder;
  if (discovery == "on") {
    // The game runs without discovery: a failure here is a warning, not a reason to stop.
    responder = netcube::discovery::Responder::Open(discovery_config, &error);
    if (responder == nullptr) {
      std::cerr << "netcube-server: LAN discovery off: " << error << '\n';
    } else if (!responder->multicast_error().empty()) {
      std::cerr << "netcube-server: LAN discovery answers broadcasts only: " << responder->multicast_error()
                << '\n';
    }
  }
  std::signal(SIGINT, RequestStop);
  std::signal(SIGTERM, RequestStop);
  std::signal(SIGUSR1, RequestStats);
  std::printf(
      "netcube-server listening on %s:%u (tick %d Hz, snapshots %d Hz, max %zu clients, collisions %s, "
      "lag compensation %s up to %d ms, %s snapshots)\n",
      config.bind_address.c_str(), static_cast<unsigned>(server->port()), config.tick_rate,
      config.snapshot_rate, config.max_clients, collisions.c_str(), lag_compensation.c_str(),
      config.max_rewind_ms, snapshot_encoding.c_str());
  if (responder != nullptr) {
    std::printf("LAN discovery: \"%s\" answers on UDP port %u\n", server_name.c_str(),
                static_cast<unsigned>(responder->port()));
  }
  std::fflush(stdout);

  const Micros end =
      duration_s > 0 ? Now() + std::chrono::duration_cast<Micros>(std::chrono::duration<double>(duration_s))
                     : Micros::max();
  Micros next_status = Now() + kStatusInterval;
  const Micros stats_interval =
      std::chrono::duration_cast<Micros>(std::chrono::duration<double>(stats_interval_s));
  Micros next_stats_write = stats_interval > Micros(0) ? Now() + stats_interval : Micros::max();
  netcube::server::ServerStats previous = server->stats();
  while (g_stop_requested == 0 && Now() < end) {
    server->Update(Now());
    if (responder != nullptr) responder->Service(Now(), DescribeServer(*server, server_name));
    if (const Micros now = Now(); now >= next_status) {
      const netcube::server::ServerStats stats = server->stats();
      PrintStatus(stats, previous, kStatusInterval);
      previous = stats;
      next_status += kStatusInterval;
    }
    if (g_stats_requested != 0) {
      // SIGUSR1: every statistic on one line (the journal's), and the file if there is one.
      g_stats_requested = 0;
      std::printf("stats %s\n", netcube::apps::ServerStatsJson(*server, -1).c_str());
      std::fflush(stdout);
      if (!stats_path.empty()) WriteStats(stats_path, *server);
    }
    if (const Micros now = Now(); now >= next_stats_write) {
      WriteStats(stats_path, *server);
      next_stats_write = now + stats_interval;
    }
    const Micros wake = std::min({server->next_wakeup(), Now() + kMaxSleep, end});
    std::this_thread::sleep_for(std::max(wake - Now(), Micros(0)));
  }

  server->Shutdown(Now());
  const Micros goodbye_deadline = Now() + kGoodbyeDeadline;
  while (server->peer_count() > 0 && Now() < goodbye_deadline) {
    std::this_thread::sleep_for(kMaxSleep);
    server->Update(Now());
  }
  const netcube::server::ServerStats stats = server->stats();
  std::printf("netcube-server stopped after %llu ticks, %zu clients at most\n",
              static_cast<unsigned long long>(stats.ticks), stats.clients_peak);
  if (!stats_path.empty() && !WriteStats(stats_path, *server)) return 1;
  return 0;
}
