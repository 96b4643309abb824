#include "server_flags.h"

#include <CLI/CLI.hpp>

#include "flag_checks.h"
#include "host.h"
#include "netcube/protocol/discovery.h"
#include "netcube/protocol/rules.h"
#include "version.h"

namespace netcube::apps {
namespace {

std::string OnOff(bool on) { return on ? "on" : "off"; }

// The flags given as words, turned into the configuration once parsed.
struct FlagWords {
  std::string collisions;
  std::string lag_compensation;
  std::string snapshot_encoding;
  std::string input_buffer;
  std::string interest;
  std::string discovery = "on";
};

// Where the server listens, how fast it runs and how many it takes; returns --snapshot-rate.
CLI::Option* AddCapacityFlags(CLI::App& app, server::ServerConfig& config) {
  app.add_option("--bind", config.bind_address, "Address to listen on")->capture_default_str();
  app.add_option("--port", config.port, "UDP port (0 = any free port)")->check(Port())->capture_default_str();
  app.add_option("--tick-rate", config.tick_rate, "Simulation ticks per second")
      ->check(CLI::Range(1, protocol::kMaxRate))
      ->capture_default_str();
  CLI::Option* snapshot_rate =
      app.add_option(
             "--snapshot-rate", config.snapshot_rate,
             "Snapshots sent per second (at most the tick rate; the default follows a lower tick rate)")
          ->check(CLI::Range(1, protocol::kMaxRate))
          ->capture_default_str();
  app.add_option("--max-snapshot-rate", config.max_snapshot_rate,
                 "The most snapshots a second any client may ask for (at least --snapshot-rate; capped by "
                 "the tick rate)")
      ->check(CLI::Range(1, protocol::kMaxRate))
      ->capture_default_str();
  app.add_option("--max-clients", config.max_clients, "Players at most")
      ->check(CLI::Range(std::size_t{1}, protocol::kMaxPlayers))
      ->capture_default_str();
  app.add_option("--max-spectators", config.max_spectators,
                 "Spectators at most (connections watching without a cube: netcube-client --spectate), "
                 "seated beside the players; 0: nobody may watch")
      ->check(CLI::Range(std::size_t{0}, server::kMaxSpectators))
      ->capture_default_str();
  app.add_option("--spectator-snapshot-rate", config.spectator_snapshot_rate,
                 "The most snapshots a second a spectator gets (it gets --snapshot-rate or this, the lower, "
                 "and may ask for up to this)")
      ->check(CLI::Range(1, protocol::kMaxRate))
      ->capture_default_str();
  AddArenaFlag(app, config.arena, "The arena's width and height in units (a cube is 2 units wide)");
  app.add_option("--max-per-address", config.max_per_address,
                 "Connections from one IP address at once (players behind one NAT share an address)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{4095}))
      ->capture_default_str();
  return snapshot_rate;
}

// The game's techniques: collisions, lag compensation, the snapshot encoding, the input buffer.
void AddTechniqueFlags(CLI::App& app, server::ServerConfig& config, FlagWords& words) {
  app.add_option("--collisions", words.collisions, "Players push each other apart: on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--lag-compensation", words.lag_compensation,
                 "Judge tags against the world as the shooter saw it (off: as it is now): on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option(
         "--snapshot-encoding", words.snapshot_encoding,
         "Snapshots as deltas against the newest one each client holds, or every cube in full: delta or full")
      ->check(CLI::IsMember({"full", "delta"}))
      ->capture_default_str();
  app.add_option(
         "--input-buffer", words.input_buffer,
         "Hold each client's inputs in a small adaptive buffer so its cube moves every tick (off: a tick "
         "applies whatever has arrived): on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--max-rewind-ms", config.max_rewind_ms, "Lag compensation rewinds at most this far")
      ->check(CLI::Range(0, protocol::kMaxTagDelayMs))
      ->capture_default_str();
}

// Interest management: who is sent which cubes, and how many bytes a snapshot may take.
void AddInterestFlags(CLI::App& app, server::ServerConfig& config, FlagWords& words) {
  app.add_option("--interest", words.interest,
                 "Send each player only the cubes near its own (within --interest-radius), when not all are: "
                 "on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--interest-radius", config.interest_radius_units,
                 "Interest management: the units around a player's cube within which a cube is sent to it "
                 "(it stays sent up to 16 units further)")
      ->check(CLI::Range(server::kMinInterestRadiusUnits, sim::kMaxArenaUnits))
      ->capture_default_str();
  app.add_option("--snapshot-budget", config.snapshot_budget,
                 "Interest management: the bytes a player's snapshot of its nearby cubes may take")
      ->check(CLI::Range(protocol::kMinSnapshotBudget, protocol::kMaxPacketBytes))
      ->capture_default_str();
}

// How long the process runs and where its statistics go.
void AddRunFlags(CLI::App& app, ServerFlags& flags) {
  app.add_option("--duration", flags.duration_s,
                 "Run this many seconds, then exit cleanly (default: until a signal)")
      ->check(FiniteRange(0.001, kMaxRunSeconds));
  CLI::Option* stats_json =
      app.add_option("--stats-json", flags.stats_path,
                     "Write the server's statistics to this JSON file at exit (and on SIGUSR1)");
  app.add_option("--stats-interval", flags.stats_interval_s,
                 "Also rewrite the --stats-json file every this many seconds")
      ->check(FiniteRange(0.01, kMaxRunSeconds))
      ->needs(stats_json);
}

// The server-side link conditioner and the silence after which a client is dropped.
void AddLinkFlags(CLI::App& app, server::ServerConfig& config) {
  app.add_option("--latency-ms", config.link.latency_ms, "Server-side conditioner: one-way added latency")
      ->check(FiniteRange(0.0, kMaxLinkDelayMs))
      ->capture_default_str();
  app.add_option("--jitter-ms", config.link.jitter_ms,
                 "Server-side conditioner: latency varies by up to +-this")
      ->check(FiniteRange(0.0, kMaxLinkDelayMs))
      ->capture_default_str();
  app.add_option("--loss", config.link.loss, "Server-side conditioner: packet loss probability [0, 1]")
      ->check(FiniteRange(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--duplicate", config.link.duplicate,
                 "Server-side conditioner: duplication probability [0, 1]")
      ->check(FiniteRange(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--reorder", config.link.reorder, "Server-side conditioner: reordering probability [0, 1]")
      ->check(FiniteRange(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--seed", config.seed, "Server-side conditioner: random seed")
      ->check(Unsigned())
      ->capture_default_str();
  app.add_option("--peer-timeout-ms", config.peer_timeout_ms, "A silent client is dropped after this")
      ->check(CLI::Range(100u, 600'000u))
      ->capture_default_str();
}

// LAN discovery: whether it answers, on which port, under which name.
void AddDiscoveryFlags(CLI::App& app, ServerFlags& flags, FlagWords& words) {
  app.add_option("--discovery", words.discovery,
                 "Answer LAN discovery queries (broadcast and multicast): on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--discovery-port", flags.discovery_config.port, "UDP port of LAN discovery")
      ->capture_default_str();
  app.add_option("--server-name", flags.server_name,
                 "The name LAN browsers show (1-26 printable ASCII characters)")
      ->check([](const std::string& name) {
        return protocol::IsPrintableName(name, protocol::kMaxServerNameLength)
                   ? ""
                   : "1 to 26 printable ASCII characters";
      })
      ->capture_default_str();
}

}  // namespace

std::optional<int> ParseServerFlags(int argc, char** argv, ServerFlags& flags) {
  server::ServerConfig& config = flags.config;
  // The flags' defaults are ServerConfig's, the same the lab's server starts with.
  FlagWords words{OnOff(config.collisions), OnOff(config.lag_compensation),
                  server::ToString(config.snapshot_encoding), OnOff(config.input_buffer),
                  OnOff(config.interest)};
  flags.server_name = DefaultServerName();
  CLI::App app{"netcube-server: the authoritative netcube game server"};
  AddVersionFlag(app, "netcube-server");
  ShortUsageErrors(app, "netcube-server");
  CLI::Option* snapshot_rate = AddCapacityFlags(app, config);
  AddTechniqueFlags(app, config, words);
  AddInterestFlags(app, config, words);
  AddRunFlags(app, flags);
  AddLinkFlags(app, config);
  AddDiscoveryFlags(app, flags, words);
  if (const std::optional<int> exit_code = ParseCommandLine(app, argc, argv)) return exit_code;
  // The server sends at most one snapshot a tick: asking for more is refused rather than advertised (on
  // the start line and in discovery replies) and not sent; the default follows a lower tick rate.
  if (config.snapshot_rate > config.tick_rate) {
    if (snapshot_rate->count() > 0) {
      return app.exit(CLI::ValidationError(
          "--snapshot-rate", std::to_string(config.snapshot_rate) + " is more than --tick-rate " +
                                 std::to_string(config.tick_rate) +
                                 ": the server sends at most one snapshot a tick"));
    }
    config.snapshot_rate = config.tick_rate;
  }
  config.collisions = words.collisions == "on";
  config.lag_compensation = words.lag_compensation == "on";
  config.input_buffer = words.input_buffer == "on";
  config.interest = words.interest == "on";
  config.snapshot_encoding =
      words.snapshot_encoding == "full" ? server::SnapshotEncoding::kFull : server::SnapshotEncoding::kDelta;
  flags.discovery = words.discovery == "on";
  return std::nullopt;
}

}  // namespace netcube::apps
