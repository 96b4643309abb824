// netcube-bench: measures the netcode. Runs the scale scenario (one server, N netcube-bot players in a child
// process), the bandwidth scenario (the scale scenario's setup, both snapshot encodings, players moving,
// half idle and idle, under network profiles) and the network-profile scenario (in-process players under each
// profile of assets/link_profiles.json), each with its baseline, prints tables and the targets, and writes
// every figure to --json. It reports; it does not fail on timing. docs/BENCHMARKS.md explains the numbers.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "flag_checks.h"
#include "link_profiles.h"
#include "netcube/client/settings.h"
#include "netcube/protocol/messages.h"
#include "netcube/transport/link_profile.h"
#include "profiles.h"
#include "report.h"
#include "scale.h"
#include "tagging.h"
#include "version.h"

namespace {

namespace bench = netcube::bench;

std::string DefaultBotPath() {
  std::error_code ignored;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ignored);
  return (self.parent_path() / "netcube-bot").string();
}

}  // namespace

int main(int argc, char** argv) {
  std::string scenario = "all";
  double seconds = 0.0;
  std::vector<int> clients = {1, 16, 64, 256};
  std::vector<int> snapshot_rates = {20, 60};
  std::vector<std::string> encodings = {"full", "delta"};
  std::vector<std::string> input_buffers = {"on", "off"};
  std::vector<double> idle_fractions = {0.0};
  std::vector<std::string> scale_links = {"lan", "mixed"};
  std::vector<std::string> mixed_profiles = {"lan", "cross-continent", "lossy"};
  std::vector<std::string> profile_names = {"lan", "cross-continent", "lossy", "harsh"};
  int bandwidth_clients = 16;
  int bandwidth_rate = 20;
  std::vector<std::string> bandwidth_profiles = {"lan", "cross-continent"};
  int group_size = 4;
  int key_trials = 5;
  int fixed_delay_ms = netcube::client::Settings{}.interp_delay_ms;
  std::string tick_clock = "cpu";
  std::string scale_time = "real";
  std::string scale_collisions = "on";
  std::string bot_path = DefaultBotPath();
  std::string json_path;
  std::uint64_t seed = 1;
  std::string transport = "memory";

  CLI::App app{"netcube-bench: server tick time, bandwidth and netcode quality over loopback"};
  netcube::apps::AddVersionFlag(app, "netcube-bench");
  netcube::apps::ShortUsageErrors(app, "netcube-bench");
  app.add_option("--scenario", scenario, "scale, bandwidth, profiles, tagging or all")
      ->check(CLI::IsMember({"scale", "bandwidth", "profiles", "tagging", "all"}))
      ->capture_default_str();
  app.add_option(
         "--seconds", seconds,
         "Shorten or lengthen the runs: the scale window and the profiles' play time (default 10 and 20)")
      ->check(netcube::apps::FiniteRange(0.1, 3600.0));
  app.add_option("--clients", clients, "Scale: player counts, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1, static_cast<int>(netcube::protocol::kMaxPlayers)))
      ->capture_default_str();
  app.add_option("--snapshot-rates", snapshot_rates, "Scale: snapshot rates per second, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1, 60))
      ->capture_default_str();
  app.add_option(
         "--input-buffers", input_buffers,
         "Profiles: the server's input buffer, on (the default) and off (the baseline), each measured in the "
         "same run, comma-separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--snapshot-encodings", encodings,
                 "Scale and profiles: the server's snapshot encodings, each measured in the same run, "
                 "comma-separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"full", "delta"}))
      ->capture_default_str();
  app.add_option("--idle-fractions", idle_fractions,
                 "Scale: shares of the players that stand still (the rest play at random), comma-separated")
      ->delimiter(',')
      ->check(netcube::apps::FiniteRange(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--scale-links", scale_links,
                 "Scale: the bots' links, each measured in the same run: lan (every bot, no added latency), "
                 "mixed (the bots spread over one group per --mixed-profiles profile), or a profile's name "
                 "(every bot on it), comma-separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--mixed-profiles", mixed_profiles,
                 "Scale: the profiles of a mixed run, from assets/link_profiles.json, comma-separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--bandwidth-clients", bandwidth_clients, "Bandwidth: players")
      ->check(CLI::Range(2, static_cast<int>(netcube::protocol::kMaxPlayers)))
      ->capture_default_str();
  app.add_option("--bandwidth-rate", bandwidth_rate, "Bandwidth: snapshot rate per second")
      ->check(CLI::Range(1, 60))
      ->capture_default_str();
  app.add_option("--bandwidth-profiles", bandwidth_profiles,
                 "Bandwidth: the bots' network profiles from assets/link_profiles.json, comma-separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--profiles", profile_names,
                 "Profiles: names from assets/link_profiles.json, comma-separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--group-size", group_size, "Profiles: players in each group")
      ->check(CLI::Range(1, 32))
      ->capture_default_str();
  app.add_option("--key-trials", key_trials, "Profiles: key presses with prediction on, and as many off")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  app.add_option("--fixed-delay-ms", fixed_delay_ms, "Profiles: the fixed-delay group's interpolation delay")
      ->check(CLI::Range(0, netcube::client::kMaxInterpDelayMs))
      ->capture_default_str();
  app.add_option("--tick-clock", tick_clock,
                 "Scale: time server ticks by the thread's cpu time or the wall clock")
      ->check(CLI::IsMember({"cpu", "wall"}))
      ->capture_default_str();
  app.add_option("--scale-time", scale_time,
                 "Scale: real (the bots in netcube-bot processes over UDP, on the wall clock) or virtual (in "
                 "this process over the in-memory network, 1 ms steps of a virtual clock: no bot is late for "
                 "want of a core; ticks timed by the server thread's cpu time)")
      ->check(CLI::IsMember({"real", "virtual"}))
      ->capture_default_str();
  app.add_option("--scale-collisions", scale_collisions, "Scale: the server's collisions, on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--bot", bot_path, "Scale: the netcube-bot executable")->capture_default_str();
  app.add_option("--seed", seed, "Random seed of the players' scripts and links")
      ->check(netcube::apps::Unsigned())
      ->capture_default_str();
  app.add_option("--transport", transport,
                 "Profiles and tagging (the virtual-clock scenarios): memory (an in-process hub, no socket) "
                 "or udp (ENet over loopback); bandwidth always uses UDP, scale unless --scale-time virtual")
      ->check(CLI::IsMember({"memory", "udp"}))
      ->capture_default_str();
  app.add_option("--json", json_path, "Write every figure to this file");
  std::string explain;
  std::string journal_out;
  app.add_option(
      "--explain", explain,
      "Profiles, one run: journal the groups' players and write each glitch one could see, with its "
      "causes, as JSON lines to this file (- for stdout; docs/LAB.md)");
  app.add_option("--journal-out", journal_out,
                 "Profiles, one run: save the journal to this file, for netcube-client --open-journal");
  CLI11_PARSE(app, argc, argv);
  if (scale_time == "virtual" && tick_clock == "wall") {
    std::cerr << "netcube-bench: --tick-clock wall cannot time the server on --scale-time virtual (the "
                 "players run on its thread): leave --tick-clock cpu\n";
    return 2;
  }
  if ((!explain.empty() || !journal_out.empty()) && (scenario != "profiles" || profile_names.size() != 1 ||
                                                     encodings.size() != 1 || input_buffers.size() != 1)) {
    std::cerr
        << "netcube-bench: --explain and --journal-out journal one run: add --scenario profiles --profiles "
           "NAME --snapshot-encodings full|delta --input-buffers on|off\n";
    return 2;
  }

  // The network profiles every scenario but scale uses, loaded once.
  const std::string profiles_path = netcube::apps::LinkProfilesPath();
  std::string profiles_error;
  const bool needs_profiles =
      scenario != "scale" ||
      std::any_of(scale_links.begin(), scale_links.end(), [](const std::string& l) { return l != "lan"; });
  const std::vector<netcube::transport::LinkProfile> known =
      needs_profiles ? netcube::apps::LoadLinkProfiles(profiles_path, &profiles_error)
                     : std::vector<netcube::transport::LinkProfile>{};
  if (needs_profiles && known.empty()) {
    std::cerr << "netcube-bench: " << profiles_error << "\n";
    return 1;
  }
  const auto find_profile = [&](const std::string& name) {
    std::optional<netcube::transport::LinkProfile> profile = netcube::transport::FindLinkProfile(known, name);
    if (!profile) std::cerr << "netcube-bench: no profile '" << name << "' in " << profiles_path << "\n";
    return profile;
  };

  const bench::Machine machine = bench::DescribeMachine();
  std::printf("netcube-bench on %u cores, %s\n", machine.cores, machine.cpu_model.c_str());
  std::fflush(stdout);

  // What the scale and bandwidth runs share, and one run of either.
  bench::ScaleSettings base;
  base.window_s = seconds > 0.0 ? seconds : 10.0;
  base.cpu_tick_clock = tick_clock == "cpu";
  base.collisions = scale_collisions == "on";
  base.bot_path = bot_path;
  base.seed = seed;
  // Several settings (virtual time only) run side by side.
  const auto run_side_by_side = [](const char* what, const std::vector<bench::ScaleSettings>& runs,
                                   std::vector<bench::ScaleResult>& out) {
    std::string error;
    std::string names;  // of the encodings
    for (const bench::ScaleSettings& s : runs)
      names += (names.empty() ? "" : " and ") + std::string(s.delta_snapshots ? "delta" : "full");
    const bench::ScaleSettings& s = runs.front();
    std::fprintf(stderr, "%s: %d clients (%.0f%% idle), %s, %d Hz %s snapshots%s, redundancy %d ...\n", what,
                 s.clients, s.idle_fraction * 100, s.link_name.c_str(), s.snapshot_rate, names.c_str(),
                 runs.size() > 1 ? " side by side" : "", s.redundancy);
    const std::vector<bench::ScaleResult> results = bench::RunScale(runs, &error);
    if (results.empty()) std::fprintf(stderr, "%s run failed: %s\n", what, error.c_str());
    out.insert(out.end(), results.begin(), results.end());
  };
  const auto run = [&run_side_by_side](const char* what, const bench::ScaleSettings& s,
                                       std::vector<bench::ScaleResult>& out) {
    run_side_by_side(what, {s}, out);
  };

  std::vector<bench::ScaleResult> scale;
  std::vector<bench::ScaleResult> scale_baselines;
  if (scenario == "scale" || scenario == "all") {
    std::vector<netcube::transport::LinkProfile> mixed;
    if (std::find(scale_links.begin(), scale_links.end(), "mixed") != scale_links.end()) {
      for (const std::string& name : mixed_profiles) {
        const std::optional<netcube::transport::LinkProfile> profile = find_profile(name);
        if (!profile) return 2;
        mixed.push_back(*profile);
      }
    }
    std::vector<netcube::transport::LinkProfile> single;  // the links named by a profile
    for (const std::string& links : scale_links) {
      if (links == "lan" || links == "mixed") continue;
      const std::optional<netcube::transport::LinkProfile> profile = find_profile(links);
      if (!profile) return 2;
      single.push_back(*profile);
    }
    // The encodings of one setting: on virtual time side by side, so that their ticks are timed on the same
    // machine at the same moments; on real time one after the other (the bots would share the cores).
    const auto scale_run = [&](int n, int rate, int redundancy, const std::vector<std::string>& run_encodings,
                               double idle, const std::string& links, std::vector<bench::ScaleResult>& out) {
      std::vector<bench::ScaleSettings> runs;
      for (const std::string& encoding : run_encodings) {
        bench::ScaleSettings s = base;
        s.clients = n;
        s.snapshot_rate = rate;
        s.redundancy = redundancy;
        s.delta_snapshots = encoding == "delta";
        s.idle_fraction = idle;
        s.virtual_time = scale_time == "virtual";
        if (links == "mixed") {
          s.link_name = "mixed";
          s.mixed_links = mixed;
        }
        for (const netcube::transport::LinkProfile& profile : single) {
          if (profile.name != links) continue;
          s.link_name = profile.name;
          s.link = profile.settings;
        }
        runs.push_back(s);
      }
      if (scale_time == "virtual") {
        run_side_by_side("scale", runs, out);
      } else {
        for (const bench::ScaleSettings& s : runs) run("scale", s, out);
      }
    };
    for (const int rate : snapshot_rates) {
      for (const int n : clients) {
        for (const double idle : idle_fractions) {
          for (const std::string& links : scale_links) {
            scale_run(n, rate, base.redundancy, encodings, idle, links, scale);
          }
        }
      }
    }
    // The redundancy baseline at the first snapshot rate.
    for (const int n : clients) {
      scale_run(n, snapshot_rates.front(), 1, {encodings.back()}, idle_fractions.front(), "lan",
                scale_baselines);
    }
    bench::PrintScale(scale, scale_baselines);
  }

  // Bandwidth: every player moving, half idle, all idle; both encodings; each network profile.
  std::vector<bench::ScaleResult> bandwidth;
  if (scenario == "bandwidth" || scenario == "all") {
    for (const std::string& name : bandwidth_profiles) {
      const std::optional<netcube::transport::LinkProfile> profile = find_profile(name);
      if (!profile) return 2;
      for (const double idle : {0.0, 0.5, 1.0}) {
        for (const bool delta : {false, true}) {
          bench::ScaleSettings s = base;
          s.clients = bandwidth_clients;
          s.snapshot_rate = bandwidth_rate;
          s.delta_snapshots = delta;
          s.idle_fraction = idle;
          s.link_name = profile->name;
          s.link = profile->settings;
          run("bandwidth", s, bandwidth);
        }
      }
    }
    bench::PrintBandwidth(bandwidth);
  }

  std::vector<bench::ProfileResult> profiles;
  if (scenario == "profiles" || scenario == "all") {
    std::string error;
    for (const std::string& name : profile_names) {
      const std::optional<netcube::transport::LinkProfile> profile = find_profile(name);
      if (!profile) return 2;
      for (const std::string& encoding : encodings) {
        for (const std::string& input_buffer : input_buffers) {
          bench::ProfileSettings s;
          s.profile = *profile;
          s.delta_snapshots = encoding == "delta";
          s.input_buffer = input_buffer == "on";
          s.group_size = group_size;
          s.play_s = seconds > 0.0 ? seconds : 20.0;
          s.key_trials = key_trials;
          s.fixed_delay_ms = fixed_delay_ms;
          s.seed = seed;
          s.network = *netcube::transport::ParseNetworkKind(transport);
          s.explain = explain;
          s.journal_out = journal_out;
          std::fprintf(stderr, "profile %s, %s snapshots, input buffer %s ...\n", name.c_str(),
                       encoding.c_str(), input_buffer.c_str());
          if (std::optional<bench::ProfileResult> r = bench::RunProfile(s, &error)) {
            bench::PrintProfile(*r);
            profiles.push_back(*r);
          } else {
            std::fprintf(stderr, "profile %s failed: %s\n", name.c_str(), error.c_str());
          }
        }
      }
    }
  }

  nlohmann::json tagging = nlohmann::json::object();
  if (scenario == "tagging" || scenario == "all") {
    std::string error;
    std::vector<bench::TagResult> runs;
    for (const char* name : {"lan", "cross-continent", "lossy"}) {
      const std::optional<netcube::transport::LinkProfile> profile = find_profile(name);
      if (!profile) return 2;
      // Interpolation; the others predicted to the present; and to the tick the shooter's inputs reach.
      for (const int family : {0, 1, 2}) {
        for (const bool on : {true, false}) {
          bench::TagSettings s;
          s.profile = *profile;
          s.lag_compensation = on;
          s.client = family > 0 ? netcube::client::PresetSettings(netcube::client::Preset::kPredictOthers)
                                : netcube::client::Settings{};
          s.client.predict_to_input_tick = family == 2;
          const bool others = family > 0;
          s.play_s = seconds > 0.0 ? seconds : 20.0;
          s.seed = seed;
          s.network = *netcube::transport::ParseNetworkKind(transport);
          std::fprintf(stderr, "tagging %s, %s, lag compensation %s ...\n", name,
                       others ? "predict-others" : "interpolation", on ? "on" : "off");
          if (std::optional<bench::TagResult> r = bench::RunTagging(s, &error)) {
            runs.push_back(*r);
          } else {
            std::fprintf(stderr, "tagging %s failed: %s\n", name, error.c_str());
          }
        }
      }
    }
    // Server cost: 64 players tagging at the cooldown rate.
    std::vector<bench::ScaleResult> cost;
    for (const bool on : {true, false}) {
      bench::ScaleSettings s = base;
      s.clients = 64;
      s.tag_interval_ms = netcube::sim::kTagCooldownMs;
      s.lag_compensation = on;
      run(on ? "tagging cost, lag compensation on" : "tagging cost, lag compensation off", s, cost);
    }
    bench::PrintTagging(runs, cost);
    tagging = {{"profiles", runs}, {"server_cost", cost}};
  }

  const std::vector<bench::Target> targets = bench::CheckTargets(scale, bandwidth, profiles);
  bench::PrintTargets(targets);
  if (!json_path.empty()) {
    std::ofstream file(json_path);
    nlohmann::json all = bench::ToJson(machine, scale, scale_baselines, profiles, targets);
    all["bandwidth"] = bandwidth;
    all["tagging"] = tagging;
    file << all.dump(2) << "\n";
    file.close();
    if (file.fail()) {
      std::cerr << "netcube-bench: cannot write " << json_path << "\n";
      return 1;
    }
  }
  return 0;
}
