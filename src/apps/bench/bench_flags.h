#pragma once
// netcube-bench's command line: every flag, its help and checks.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "netcube/client/settings.h"
#include "netcube/server/server_config.h"
#include "netcube/sim/move.h"

namespace netcube::bench {

struct BenchFlags {
  std::string scenario = "all";
  double seconds = 0.0;  // 0: each scenario's own length
  std::vector<int> clients = {1, 16, 64, 256};
  std::vector<int> snapshot_rates = {20, 60};
  std::vector<std::string> encodings = {"full", "delta"};
  std::vector<std::string> input_buffers = {"on", "off"};
  std::vector<std::string> interests = {"off"};  // the scale server's interest management, each a run
  std::vector<int> spectators = {0};             // beside the scale scenario's players, each a run
  // The spectators' snapshot rate cap, each a run beside spectators (the server's default alone).
  std::vector<int> spectator_snapshot_rates = {protocol::kMaxRate};
  std::vector<double> churn = {0.0};  // the scale players' join churn, each a run
  int interest_radius_units = server::kDefaultInterestRadiusUnits;
  std::size_t snapshot_budget = server::kDefaultSnapshotBudget;
  std::vector<double> idle_fractions = {0.0};
  std::vector<std::string> scale_links = {"lan", "mixed"};
  std::vector<std::string> mixed_profiles = {"lan", "cross-continent", "lossy"};
  std::vector<std::string> profile_names = {"lan", "cross-continent", "lossy", "harsh"};
  int bandwidth_clients = 16;
  int bandwidth_rate = 20;
  std::vector<std::string> bandwidth_profiles = {"lan", "cross-continent"};
  int group_size = 4;
  int key_trials = 5;
  int fixed_delay_ms = client::Settings{}.interp_delay_ms;
  std::string tick_clock = "cpu";
  std::string scale_time = "real";
  std::string scale_collisions = "on";
  sim::Arena arena = sim::kStandardArena;  // the scale scenario's server's
  std::string bot_path;                    // beside this executable unless --bot
  std::string json_path;
  std::uint64_t seed = 1;
  std::string transport = "memory";
  std::string explain;
  std::string journal_out;

  // Whether the scenario runs (--scenario names it, or all).
  bool Runs(const std::string& name) const { return scenario == name || scenario == "all"; }
};

// Parses the command line into `flags`. Returns the exit code when the process is done (--help,
// --version, a bad flag or combination, said on the console), nothing when the scenarios are to run.
std::optional<int> ParseBenchFlags(int argc, char** argv, BenchFlags& flags);

}  // namespace netcube::bench
