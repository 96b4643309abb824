#include "bench_flags.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "flag_checks.h"
#include "netcube/protocol/messages.h"
#include "scale.h"
#include "version.h"

namespace netcube::bench {
namespace {

std::string DefaultBotPath() {
  std::error_code ignored;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ignored);
  return (self.parent_path() / "netcube-bot").string();
}

// Which scenarios run, how long, and the scale scenario's player counts and rates.
void AddScaleFlags(CLI::App& app, BenchFlags& f) {
  app.add_option("--scenario", f.scenario, "scale, bandwidth, profiles, tagging, decode or all")
      ->check(CLI::IsMember({"scale", "bandwidth", "profiles", "tagging", "decode", "all"}))
      ->capture_default_str();
  app.add_option(
         "--seconds", f.seconds,
         "Shorten or lengthen the runs: the scale window and the profiles' play time (default 10 and 20)")
      ->check(apps::FiniteRange(0.1, 3600.0));
  app.add_option("--clients", f.clients, "Scale: player counts, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1, static_cast<int>(protocol::kMaxPlayers)))
      ->capture_default_str();
  app.add_option("--snapshot-rates", f.snapshot_rates, "Scale: snapshot rates per second, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1, 60))
      ->capture_default_str();
  app.add_option(
         "--input-buffers", f.input_buffers,
         "Profiles: the server's input buffer, on (the default) and off (the baseline), each measured in the "
         "same run, comma-separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--snapshot-encodings", f.encodings,
                 "Scale and profiles: the server's snapshot encodings, each measured in the same run, "
                 "comma-separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"full", "delta"}))
      ->capture_default_str();
  app.add_option("--idle-fractions", f.idle_fractions,
                 "Scale: shares of the players that stand still (the rest play at random), comma-separated")
      ->delimiter(',')
      ->check(apps::FiniteRange(0.0, 1.0))
      ->capture_default_str();
}

// The scale server's interest management: on and off each a run, and how near and how large.
void AddInterestFlags(CLI::App& app, BenchFlags& f) {
  app.add_option("--interest", f.interests,
                 "Scale: the server's interest management (each player sent only the cubes near its own, "
                 "when not all are), on and off each measured in the same run, comma-separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--interest-radius", f.interest_radius_units,
                 "Scale: interest management's radius, the units around a player's cube within which a cube "
                 "is sent to it (it stays sent up to 16 units further)")
      ->check(CLI::Range(server::kMinInterestRadiusUnits, sim::kMaxArenaUnits))
      ->capture_default_str();
  app.add_option("--snapshot-budget", f.snapshot_budget,
                 "Scale: interest management's budget, the bytes a player's snapshot of its nearby cubes may "
                 "take")
      ->check(CLI::Range(protocol::kMinSnapshotBudget, protocol::kMaxPacketBytes))
      ->capture_default_str();
  app.add_option("--spectators", f.spectators,
                 "Scale: spectators beside the players (connections watching without a cube, spectator i "
                 "following player i), each count a run, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(0, static_cast<int>(server::kMaxSpectators)))
      ->capture_default_str();
  app.add_option("--spectator-snapshot-rates", f.spectator_snapshot_rates,
                 "Scale: the most snapshots a second a spectator gets (the server's "
                 "--spectator-snapshot-rate), each a run beside spectators, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1, protocol::kMaxRate))
      ->capture_default_str();
  app.add_option("--churn", f.churn,
                 "Scale, virtual time: the share of the players that joins or leaves each second (a player "
                 "joining, playing and leaving, then the next, in 2 of the --clients seats; 0.01 = 1 in "
                 "100), each a run, comma-separated")
      ->delimiter(',')
      ->check(apps::FiniteRange(0.0, 1.0))
      ->capture_default_str();
}

// The links of the scale and bandwidth scenarios, and the bandwidth scenario's players and rate.
void AddLinkFlags(CLI::App& app, BenchFlags& f) {
  app.add_option("--scale-links", f.scale_links,
                 "Scale: the bots' links, each measured in the same run: lan (every bot, no added latency), "
                 "mixed (the bots spread over one group per --mixed-profiles profile), or a profile's name "
                 "(every bot on it), comma-separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--mixed-profiles", f.mixed_profiles,
                 "Scale: the profiles of a mixed run, from assets/link_profiles.json, comma-separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--bandwidth-clients", f.bandwidth_clients, "Bandwidth: players")
      ->check(CLI::Range(2, static_cast<int>(protocol::kMaxPlayers)))
      ->capture_default_str();
  app.add_option("--bandwidth-rate", f.bandwidth_rate, "Bandwidth: snapshot rate per second")
      ->check(CLI::Range(1, 60))
      ->capture_default_str();
  app.add_option("--bandwidth-profiles", f.bandwidth_profiles,
                 "Bandwidth: the bots' network profiles from assets/link_profiles.json, comma-separated")
      ->delimiter(',')
      ->capture_default_str();
}

// The profiles scenario's groups and probes.
void AddProfileFlags(CLI::App& app, BenchFlags& f) {
  app.add_option("--profiles", f.profile_names,
                 "Profiles: names from assets/link_profiles.json, comma-separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--group-size", f.group_size, "Profiles: players in each group")
      ->check(CLI::Range(1, 32))
      ->capture_default_str();
  app.add_option("--key-trials", f.key_trials, "Profiles: key presses with prediction on, and as many off")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  app.add_option("--fixed-delay-ms", f.fixed_delay_ms,
                 "Profiles: the fixed-delay group's interpolation delay")
      ->check(CLI::Range(0, client::kMaxInterpDelayMs))
      ->capture_default_str();
}

// How the scale scenario's server and bots run.
void AddScaleRunFlags(CLI::App& app, BenchFlags& f) {
  app.add_option("--tick-clock", f.tick_clock,
                 "Scale: time server ticks by the thread's cpu time or the wall clock")
      ->check(CLI::IsMember({"cpu", "wall"}))
      ->capture_default_str();
  app.add_option("--scale-time", f.scale_time,
                 "Scale: real (the bots in netcube-bot processes over UDP, on the wall clock) or virtual (in "
                 "this process over the in-memory network, 1 ms steps of a virtual clock: no bot is late for "
                 "want of a core; ticks timed by the server thread's cpu time)")
      ->check(CLI::IsMember({"real", "virtual"}))
      ->capture_default_str();
  app.add_option("--scale-collisions", f.scale_collisions, "Scale: the server's collisions, on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  apps::AddArenaFlag(app, f.arena, "Scale: the server's arena, width x height in units");
  app.add_option("--bot", f.bot_path, "Scale: the netcube-bot executable")->capture_default_str();
}

// The seed, the network of the virtual-clock scenarios, and the files written.
void AddOutputFlags(CLI::App& app, BenchFlags& f) {
  app.add_option("--seed", f.seed, "Random seed of the players' scripts and links")
      ->check(apps::Unsigned())
      ->capture_default_str();
  app.add_option("--transport", f.transport,
                 "Profiles and tagging (the virtual-clock scenarios): memory (an in-process hub, no socket) "
                 "or udp (ENet over loopback); bandwidth always uses UDP, scale unless --scale-time virtual")
      ->check(CLI::IsMember({"memory", "udp"}))
      ->capture_default_str();
  app.add_option("--json", f.json_path, "Write every figure to this file");
  app.add_option(
      "--explain", f.explain,
      "Profiles, one run: journal the groups' players and write each glitch one could see, with its "
      "causes, as JSON lines to this file (- for stdout; docs/LAB.md)");
  app.add_option("--journal-out", f.journal_out,
                 "Profiles, one run: save the journal to this file, for netcube-client --open-journal");
}

// The combinations the flags' own checks cannot see; false, said in one line, when one is refused.
bool CheckCombinations(const BenchFlags& f) {
  if (f.scale_time == "virtual" && f.tick_clock == "wall") {
    std::cerr << "netcube-bench: --tick-clock wall cannot time the server on --scale-time virtual (the "
                 "players run on its thread): leave --tick-clock cpu\n";
    return false;
  }
  const bool churns = std::any_of(f.churn.begin(), f.churn.end(), [](double c) { return c > 0; });
  if (churns && f.scale_time != "virtual") {
    std::cerr << "netcube-bench: --churn needs --scale-time virtual (the churning players join from this "
                 "process)\n";
    return false;
  }
  if (churns && std::any_of(f.clients.begin(), f.clients.end(), [](int n) { return n <= kChurnSeats; })) {
    std::cerr << "netcube-bench: --churn needs more than " << kChurnSeats
              << " players a run (--clients): the churning players take " << kChurnSeats << " seats\n";
    return false;
  }
  if ((!f.explain.empty() || !f.journal_out.empty()) &&
      (f.scenario != "profiles" || f.profile_names.size() != 1 || f.encodings.size() != 1 ||
       f.input_buffers.size() != 1)) {
    std::cerr
        << "netcube-bench: --explain and --journal-out journal one run: add --scenario profiles --profiles "
           "NAME --snapshot-encodings full|delta --input-buffers on|off\n";
    return false;
  }
  return true;
}

}  // namespace

std::optional<int> ParseBenchFlags(int argc, char** argv, BenchFlags& flags) {
  flags.bot_path = DefaultBotPath();
  CLI::App app{"netcube-bench: server tick time, bandwidth and netcode quality over loopback"};
  apps::AddVersionFlag(app, "netcube-bench");
  apps::ShortUsageErrors(app, "netcube-bench");
  AddScaleFlags(app, flags);
  AddInterestFlags(app, flags);
  AddLinkFlags(app, flags);
  AddProfileFlags(app, flags);
  AddScaleRunFlags(app, flags);
  AddOutputFlags(app, flags);
  if (const std::optional<int> exit_code = apps::ParseCommandLine(app, argc, argv)) return exit_code;
  if (!CheckCombinations(flags)) return 2;
  return std::nullopt;
}

}  // namespace netcube::bench
