#include "scenarios.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "link_profiles.h"
#include "netcube/sim/ray.h"
#include "report.h"
#include "tagging.h"

namespace netcube::bench {
namespace {

// A churn share as a percentage a second.
std::string ChurnText(double churn) {
  char text[32];
  std::snprintf(text, sizeof text, "%g%% a second", churn * 100);
  return text;
}

// Several settings (virtual time only) run side by side, said on stderr; their results appended to `out`.
// False, said, when they failed.
bool RunSideBySide(const char* what, const std::vector<ScaleSettings>& runs, std::vector<ScaleResult>& out) {
  std::string error;
  // Of the encodings, and interest management and spectators when there (the server's default is neither).
  std::string names;
  for (const ScaleSettings& s : runs) {
    names += (names.empty() ? "" : " and ") + std::string(s.delta_snapshots ? "delta" : "full") +
             (s.interest ? " (interest on)" : "") +
             (s.spectators > 0 ? " (" + std::to_string(s.spectators) + " spectators at most " +
                                     std::to_string(s.spectator_snapshot_rate) + " Hz)"
                               : "") +
             (s.churn > 0 ? " (churn " + ChurnText(s.churn) + ")" : "");
  }
  const ScaleSettings& s = runs.front();
  std::fprintf(stderr, "%s: %d clients (%.0f%% idle), %s, %d Hz %s snapshots%s, redundancy %d ...\n", what,
               s.clients, s.idle_fraction * 100, s.link_name.c_str(), s.snapshot_rate, names.c_str(),
               runs.size() > 1 ? " side by side" : "", s.redundancy);
  const std::vector<ScaleResult> results = bench::RunScale(runs, &error);
  if (results.empty()) std::fprintf(stderr, "%s run failed: %s\n", what, error.c_str());
  out.insert(out.end(), results.begin(), results.end());
  return !results.empty();
}

bool RunOne(const char* what, const ScaleSettings& s, std::vector<ScaleResult>& out) {
  return RunSideBySide(what, {s}, out);
}

// A tagging run's settings: interpolation (family 0); the others predicted to the present (1); and to the
// tick the shooter's inputs reach (2).
TagSettings TagRun(const BenchFlags& flags, const transport::LinkProfile& profile, int family, bool on) {
  TagSettings s;
  s.profile = profile;
  s.lag_compensation = on;
  s.client = family > 0 ? client::PresetSettings(client::Preset::kPredictOthers) : client::Settings{};
  s.client.predict_to_input_tick = family == 2;
  s.play_s = flags.seconds > 0.0 ? flags.seconds : 20.0;
  s.seed = flags.seed;
  s.network = *transport::ParseNetworkKind(flags.transport);
  return s;
}

}  // namespace

std::optional<Scenarios> Scenarios::Load(const BenchFlags& flags) {
  std::string profiles_path = apps::LinkProfilesPath();
  std::string error;
  const bool needs_profiles =
      flags.scenario != "scale" || std::any_of(flags.scale_links.begin(), flags.scale_links.end(),
                                               [](const std::string& l) { return l != "lan"; });
  std::vector<transport::LinkProfile> known;
  if (needs_profiles) {
    known = apps::LoadLinkProfiles(profiles_path, &error);
    if (known.empty()) {
      std::cerr << "netcube-bench: " << error << "\n";
      return std::nullopt;
    }
  }
  return Scenarios(flags, std::move(profiles_path), std::move(known));
}

Scenarios::Scenarios(const BenchFlags& flags, std::string profiles_path,
                     std::vector<transport::LinkProfile> known)
    : flags_(flags), profiles_path_(std::move(profiles_path)), known_(std::move(known)) {
  base_.window_s = flags.seconds > 0.0 ? flags.seconds : 10.0;
  base_.cpu_tick_clock = flags.tick_clock == "cpu";
  base_.collisions = flags.scale_collisions == "on";
  base_.arena = flags.arena;
  base_.bot_path = flags.bot_path;
  base_.seed = flags.seed;
}

std::optional<transport::LinkProfile> Scenarios::Find(const std::string& name) const {
  std::optional<transport::LinkProfile> profile = transport::FindLinkProfile(known_, name);
  if (!profile) std::cerr << "netcube-bench: no profile '" << name << "' in " << profiles_path_ << "\n";
  return profile;
}

std::vector<ScaleSettings> Scenarios::ScaleRuns(int clients, int rate, int redundancy,
                                                const std::vector<std::string>& encodings,
                                                const std::vector<std::string>& interests, double idle,
                                                const std::string& links,
                                                const std::vector<transport::LinkProfile>& mixed,
                                                const std::vector<transport::LinkProfile>& single) const {
  std::vector<ScaleSettings> runs;
  for (const std::string& encoding : encodings) {
    ScaleSettings s = base_;
    s.clients = clients;
    s.snapshot_rate = rate;
    s.redundancy = redundancy;
    s.delta_snapshots = encoding == "delta";
    s.interest_radius_units = flags_.interest_radius_units;
    s.snapshot_budget = flags_.snapshot_budget;
    s.idle_fraction = idle;
    s.virtual_time = flags_.scale_time == "virtual";
    if (links == "mixed") {
      s.link_name = "mixed";
      s.mixed_links = mixed;
    }
    for (const transport::LinkProfile& profile : single) {
      if (profile.name != links) continue;
      s.link_name = profile.name;
      s.link = profile.settings;
    }
    for (const std::string& interest : interests) {
      s.interest = interest == "on";
      for (const int spectators : flags_.spectators) {
        s.spectators = spectators;
        // Without spectators their rate changes nothing: one run.
        const std::size_t spectator_rates = spectators > 0 ? flags_.spectator_snapshot_rates.size() : 1;
        for (std::size_t r = 0; r < spectator_rates; ++r) {
          s.spectator_snapshot_rate = flags_.spectator_snapshot_rates[r];
          for (const double churn : flags_.churn) {
            s.churn = churn;
            runs.push_back(s);
          }
        }
      }
    }
  }
  return runs;
}

bool Scenarios::RunScale(std::vector<ScaleResult>& scale, std::vector<ScaleResult>& baselines) const {
  const BenchFlags& f = flags_;
  std::vector<transport::LinkProfile> mixed;
  if (std::find(f.scale_links.begin(), f.scale_links.end(), "mixed") != f.scale_links.end()) {
    for (const std::string& name : f.mixed_profiles) {
      const std::optional<transport::LinkProfile> profile = Find(name);
      if (!profile) return false;
      mixed.push_back(*profile);
    }
  }
  std::vector<transport::LinkProfile> single;  // the links named by a profile
  for (const std::string& links : f.scale_links) {
    if (links == "lan" || links == "mixed") continue;
    const std::optional<transport::LinkProfile> profile = Find(links);
    if (!profile) return false;
    single.push_back(*profile);
  }
  // The encodings and interest settings of one setting: on virtual time side by side, so that their ticks
  // are timed on the same machine at the same moments; on real time one after the other (the bots would
  // share the cores).
  const auto run = [&](const std::vector<ScaleSettings>& runs, std::vector<ScaleResult>& out) {
    if (f.scale_time == "virtual") {
      failed_runs_ += RunSideBySide("scale", runs, out) ? 0 : 1;
    } else {
      for (const ScaleSettings& s : runs) failed_runs_ += RunOne("scale", s, out) ? 0 : 1;
    }
  };
  for (const int rate : f.snapshot_rates) {
    for (const int n : f.clients) {
      for (const double idle : f.idle_fractions) {
        for (const std::string& links : f.scale_links)
          run(ScaleRuns(n, rate, base_.redundancy, f.encodings, f.interests, idle, links, mixed, single),
              scale);
      }
    }
  }
  // The redundancy baseline at the first snapshot rate.
  for (const int n : f.clients) {
    run(ScaleRuns(n, f.snapshot_rates.front(), 1, {f.encodings.back()}, {f.interests.front()},
                  f.idle_fractions.front(), "lan", mixed, single),
        baselines);
  }
  PrintScale(scale, baselines);
  return true;
}

// Every player moving, half idle, all idle; both encodings; each network profile.
bool Scenarios::RunBandwidth(std::vector<ScaleResult>& bandwidth) const {
  for (const std::string& name : flags_.bandwidth_profiles) {
    const std::optional<transport::LinkProfile> profile = Find(name);
    if (!profile) return false;
    for (const double idle : {0.0, 0.5, 1.0}) {
      for (const bool delta : {false, true}) {
        ScaleSettings s = base_;
        s.clients = flags_.bandwidth_clients;
        s.snapshot_rate = flags_.bandwidth_rate;
        s.delta_snapshots = delta;
        s.idle_fraction = idle;
        s.link_name = profile->name;
        s.link = profile->settings;
        failed_runs_ += RunOne("bandwidth", s, bandwidth) ? 0 : 1;
      }
    }
  }
  PrintBandwidth(bandwidth);
  return true;
}

bool Scenarios::RunProfiles(std::vector<ProfileResult>& profiles) const {
  const BenchFlags& f = flags_;
  std::string error;
  for (const std::string& name : f.profile_names) {
    const std::optional<transport::LinkProfile> profile = Find(name);
    if (!profile) return false;
    for (const std::string& encoding : f.encodings) {
      for (const std::string& input_buffer : f.input_buffers) {
        ProfileSettings s;
        s.profile = *profile;
        s.delta_snapshots = encoding == "delta";
        s.input_buffer = input_buffer == "on";
        s.group_size = f.group_size;
        s.play_s = f.seconds > 0.0 ? f.seconds : 20.0;
        s.key_trials = f.key_trials;
        s.fixed_delay_ms = f.fixed_delay_ms;
        s.seed = f.seed;
        s.network = *transport::ParseNetworkKind(f.transport);
        s.explain = f.explain;
        s.journal_out = f.journal_out;
        std::fprintf(stderr, "profile %s, %s snapshots, input buffer %s ...\n", name.c_str(),
                     encoding.c_str(), input_buffer.c_str());
        if (std::optional<ProfileResult> r = bench::RunProfile(s, &error)) {
          PrintProfile(*r);
          profiles.push_back(*r);
        } else {
          std::fprintf(stderr, "profile %s failed: %s\n", name.c_str(), error.c_str());
        }
      }
    }
  }
  return true;
}

bool Scenarios::RunTagging(nlohmann::json& tagging) const {
  std::string error;
  std::vector<TagResult> runs;
  for (const char* name : {"lan", "cross-continent", "lossy"}) {
    const std::optional<transport::LinkProfile> profile = Find(name);
    if (!profile) return false;
    for (const int family : {0, 1, 2}) {
      for (const bool on : {true, false}) {
        std::fprintf(stderr, "tagging %s, %s, lag compensation %s ...\n", name,
                     family > 0 ? "predict-others" : "interpolation", on ? "on" : "off");
        if (std::optional<TagResult> r = bench::RunTagging(TagRun(flags_, *profile, family, on), &error)) {
          runs.push_back(*r);
        } else {
          std::fprintf(stderr, "tagging %s failed: %s\n", name, error.c_str());
        }
      }
    }
  }
  // Server cost: 64 players tagging at the cooldown rate.
  std::vector<ScaleResult> cost;
  for (const bool on : {true, false}) {
    ScaleSettings s = base_;
    s.clients = 64;
    s.tag_interval_ms = sim::kTagCooldownMs;
    s.lag_compensation = on;
    failed_runs_ +=
        RunOne(on ? "tagging cost, lag compensation on" : "tagging cost, lag compensation off", s, cost) ? 0
                                                                                                         : 1;
  }
  PrintTagging(runs, cost);
  tagging = {{"profiles", runs}, {"server_cost", cost}};
  return true;
}

}  // namespace netcube::bench
