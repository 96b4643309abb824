#include "serve.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <thread>

#include "host.h"
#include "netcube/protocol/rules.h"
#include "netcube/transport/udp_socket.h"
#include "server_stats.h"

namespace netcube::apps {
namespace {

volatile std::sig_atomic_t g_stop_requested = 0;
volatile std::sig_atomic_t g_stats_requested = 0;
extern "C" void RequestStop(int /*signal*/) { g_stop_requested = 1; }
extern "C" void RequestStats(int /*signal*/) { g_stats_requested = 1; }

constexpr Micros kMaxSleep{1000};             // service the network at least this often
constexpr Micros kStatusInterval{5'000'000};  // one status line this often
constexpr Micros kGoodbyeDeadline{500'000};   // longest wait for disconnects to be acknowledged

Micros Seconds(double s) { return std::chrono::duration_cast<Micros>(std::chrono::duration<double>(s)); }

// Clients, tick time, inputs and bandwidth since the previous line.
void PrintStatus(const server::ServerStats& stats, const server::ServerStats& previous, Micros interval) {
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

// What a discovery reply says about `server` now.
protocol::DiscoveryReply DescribeServer(const server::Server& server, const std::string& name) {
  const server::ServerConfig& config = server.config();
  protocol::DiscoveryReply info;
  // A server bound to one address names it; bound to all, the reply's source address is the one to use.
  // The server has bound bind_address, so it parses.
  info.address = transport::ParseIpv4(config.bind_address).value_or(0);
  info.port = server.port();
  info.players = static_cast<std::uint16_t>(server.world().size());
  info.max_players = static_cast<std::uint16_t>(config.max_clients);
  info.tick_rate = static_cast<std::uint8_t>(config.tick_rate);
  info.snapshot_rate =
      static_cast<std::uint8_t>(protocol::EffectiveSnapshotRate(config.snapshot_rate, config.tick_rate));
  info.max_snapshot_rate =
      static_cast<std::uint8_t>(protocol::EffectiveSnapshotRate(config.max_snapshot_rate, config.tick_rate));
  info.arena = config.arena;
  info.name = name;
  return info;
}

// Writes the stats file, or says why not.
bool WriteStats(const std::string& path, const server::Server& server) {
  std::string error;
  if (WriteServerStats(path, server, &error)) return true;
  std::cerr << "netcube-server: " << error << '\n';
  return false;
}

// The periodic work beside the server's own: the status line, and the stats file when asked for or due.
class Chores {
 public:
  Chores(const server::Server& server, const ServerFlags& flags)
      : server_(server),
        stats_path_(flags.stats_path),
        stats_interval_(Seconds(flags.stats_interval_s)),
        next_status_(SteadyNow() + kStatusInterval),
        next_stats_write_(stats_interval_ > Micros(0) ? SteadyNow() + stats_interval_ : Micros::max()),
        previous_(server.stats()) {}

  void Run() {
    if (const Micros now = SteadyNow(); now >= next_status_) {
      const server::ServerStats stats = server_.stats();
      PrintStatus(stats, previous_, kStatusInterval);
      previous_ = stats;
      next_status_ += kStatusInterval;
    }
    if (g_stats_requested != 0) {
      // SIGUSR1: every statistic on one line (the journal's), and the file if there is one.
      g_stats_requested = 0;
      std::printf("stats %s\n", ServerStatsJson(server_, -1).c_str());
      std::fflush(stdout);
      if (!stats_path_.empty()) WriteStats(stats_path_, server_);
    }
    if (const Micros now = SteadyNow(); now >= next_stats_write_) {
      WriteStats(stats_path_, server_);
      next_stats_write_ = now + stats_interval_;
    }
  }

 private:
  const server::Server& server_;
  const std::string& stats_path_;
  const Micros stats_interval_;
  Micros next_status_;
  Micros next_stats_write_;
  server::ServerStats previous_;
};

// Disconnects every client and waits a little for them to acknowledge it.
void SayGoodbye(server::Server& server) {
  server.Shutdown(SteadyNow());
  const Micros goodbye_deadline = SteadyNow() + kGoodbyeDeadline;
  while (server.peer_count() > 0 && SteadyNow() < goodbye_deadline) {
    std::this_thread::sleep_for(kMaxSleep);
    server.Update(SteadyNow());
  }
}

// The lines that say the server is up and how it runs; the tests wait for the first.
void PrintStartLines(const server::Server& server, const discovery::Responder* responder,
                     const ServerFlags& flags) {
  const server::ServerConfig& config = flags.config;
  const auto on_off = [](bool on) { return on ? "on" : "off"; };
  std::printf(
      "netcube-server listening on %s:%u (tick %d Hz, snapshots %d Hz, max %zu clients and %zu spectators, "
      "arena %dx%d, collisions %s, lag compensation %s up to %d ms, %s snapshots)\n",
      config.bind_address.c_str(), static_cast<unsigned>(server.port()), config.tick_rate,
      config.snapshot_rate, config.max_clients, config.max_spectators, config.arena.width_units(),
      config.arena.height_units(), on_off(config.collisions), on_off(config.lag_compensation),
      config.max_rewind_ms, server::ToString(config.snapshot_encoding));
  if (config.interest) {
    std::printf(
        "interest management: cubes within %d units of a player's, snapshots of them within %zu bytes\n",
        config.interest_radius_units, config.snapshot_budget);
  }
  if (responder != nullptr) {
    std::printf("LAN discovery: \"%s\" answers on UDP port %u\n", flags.server_name.c_str(),
                static_cast<unsigned>(responder->port()));
  }
  std::fflush(stdout);
}

}  // namespace

bool Serve(server::Server& server, discovery::Responder* responder, const ServerFlags& flags) {
  std::signal(SIGINT, RequestStop);
  std::signal(SIGTERM, RequestStop);
  std::signal(SIGUSR1, RequestStats);
  PrintStartLines(server, responder, flags);
  const Micros end = flags.duration_s > 0 ? SteadyNow() + Seconds(flags.duration_s) : Micros::max();
  Chores chores(server, flags);
  while (g_stop_requested == 0 && SteadyNow() < end) {
    server.Update(SteadyNow());
    if (responder != nullptr) responder->Service(SteadyNow(), DescribeServer(server, flags.server_name));
    chores.Run();
    const Micros wake = std::min({server.next_wakeup(), SteadyNow() + kMaxSleep, end});
    std::this_thread::sleep_for(std::max(wake - SteadyNow(), Micros(0)));
  }
  SayGoodbye(server);
  const server::ServerStats stats = server.stats();
  std::printf("netcube-server stopped after %llu ticks, %zu clients at most\n",
              static_cast<unsigned long long>(stats.ticks), stats.clients_peak);
  return flags.stats_path.empty() || WriteStats(flags.stats_path, server);
}

}  // namespace netcube::apps
