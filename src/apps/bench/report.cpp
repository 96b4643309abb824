#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <thread>

namespace netcube::bench {

std::string Ratio(double a, double b) {
  char text[64];
  if (b == 0.0) {
    std::snprintf(text, sizeof text, a == 0.0 ? "both 0" : "%.4g vs 0", a);
  } else {
    std::snprintf(text, sizeof text, "%.2fx", a / b);
  }
  return text;
}

namespace {

// A figure that is never negative, rounded and in thousands: 12345.6 -> "12,346".
std::string Grouped(double value) {
  std::string text = std::to_string(std::llround(value));
  for (std::size_t i = text.size(); i > 3; i -= 3) text.insert(i - 3, ",");
  return text;
}

std::string Join(const std::vector<int>& values) {
  std::string out;
  for (const int v : values) {
    if (!out.empty()) out += ' ';
    out += std::to_string(v);
  }
  return out.empty() ? "-" : out;
}

double Mean(const std::vector<int>& values) {
  if (values.empty()) return 0.0;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

int Max(const std::vector<int>& values) {
  return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

bool AnyNegative(const std::vector<int>& values) {
  return std::any_of(values.begin(), values.end(), [](int v) { return v < 0; });
}

const GroupResult* FindGroup(const ProfileResult& r, const std::string& name) {
  for (const GroupResult& g : r.groups) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

// Where a scale run's players were: its link, and bot processes on real time or players on virtual time.
std::string RunPlace(const ScaleResult& r) {
  return r.settings.link_name + (r.settings.virtual_time ? ", virtual time" : ", bot processes");
}

const ScaleResult* FindBandwidth(const std::vector<ScaleResult>& runs, const std::string& link, double idle,
                                 bool delta) {
  for (const ScaleResult& r : runs) {
    if (r.settings.link_name == link && r.settings.idle_fraction == idle &&
        r.settings.delta_snapshots == delta)
      return &r;
  }
  return nullptr;
}

// Bytes per snapshot of a cube of the kind the run's idle share says (NaN when it cannot be told): every
// cube moving, every cube at rest, or half and half, where the resting half costs what the all-idle run
// of the same link and encoding measured.
double CubeBytes(const std::vector<ScaleResult>& runs, const ScaleResult& r) {
  const double bits = r.cube_bits;
  if (r.settings.idle_fraction == 0.0 || r.settings.idle_fraction == 1.0) return bits / 8;
  const ScaleResult* idle = FindBandwidth(runs, r.settings.link_name, 1.0, r.settings.delta_snapshots);
  if (idle == nullptr) return std::nan("");
  const double moving = 1.0 - r.settings.idle_fraction;
  return (bits - r.settings.idle_fraction * idle->cube_bits) / moving / 8;
}

}  // namespace

Machine DescribeMachine() {
  Machine m;
  m.cores = std::thread::hardware_concurrency();
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      m.cpu_model = line.substr(line.find(':') + 2);
      break;
    }
  }
  return m;
}

void PrintBandwidth(const std::vector<ScaleResult>& runs) {
  if (runs.empty()) return;
  const ScaleSettings& s = runs.front().settings;
  std::printf(
      "\n== bandwidth: the scale scenario's setup (server here, %d netcube-bot players in child processes, "
      "tick %d Hz,\n"
      "   %d Hz snapshots, collisions %s, %.0f s window), the players moving at random, half of them idle, "
      "or all idle,\n"
      "   both encodings, each link applied by the bots' conditioner in both directions. cube B = the bits "
      "a\n"
      "   snapshot spends on cubes (headers and ack aside) per cube of that kind, bytes: moving (idle 0%%, "
      "and\n"
      "   idle 50%% less the resting cost) or resting (idle 100%%); age = the deltas' mean baseline age, "
      "ticks\n",
      s.clients, s.tick_rate, s.snapshot_rate, s.collisions ? "on" : "off", s.window_s);
  std::printf(
      "   link             idle enc   delta%%   age |  snap B  cube B | per client per second: snap B   down "
      "B  wire down |"
      " tick us: p50   p99   max | corr  rtt ms\n");
  for (const ScaleResult& r : runs) {
    const ScaleSettings& t = r.settings;
    std::printf(
        "   %-16s %3.0f%% %-5s %5.1f%% %5.1f | %7.1f %7.3f | %29.0f %8.0f %10.0f | %12.0f %5.0f %5.0f | "
        "%4llu %7.1f\n",
        t.link_name.c_str(), t.idle_fraction * 100, t.delta_snapshots ? "delta" : "full", r.delta_share * 100,
        r.delta_age_ticks, r.snapshot_bytes, CubeBytes(runs, r), r.snapshot_bytes_per_s, r.down_bytes_per_s,
        r.wire_down_bytes_per_s, r.tick_p50_us, r.tick_p99_us, r.tick_max_us,
        static_cast<unsigned long long>(r.corrections), r.rtt_ms_mean);
    if (!r.bots_problem.empty()) std::printf("      (bot figures missing: %s)\n", r.bots_problem.c_str());
  }
  for (const ScaleResult& d : runs) {
    if (!d.settings.delta_snapshots) continue;
    const ScaleResult* f = FindBandwidth(runs, d.settings.link_name, d.settings.idle_fraction, false);
    if (f == nullptr) continue;
    std::printf("   %s, %.0f%% idle: delta / full: down payload %s, wire down %s, snapshot %s\n",
                d.settings.link_name.c_str(), d.settings.idle_fraction * 100,
                Ratio(d.down_bytes_per_s, f->down_bytes_per_s).c_str(),
                Ratio(d.wire_down_bytes_per_s, f->wire_down_bytes_per_s).c_str(),
                Ratio(d.snapshot_bytes, f->snapshot_bytes).c_str());
  }
  // What an older baseline costs: each link's moving cube against the first link's.
  const ScaleResult* near = FindBandwidth(runs, s.link_name, 0.0, true);
  for (const ScaleResult& r : runs) {
    if (near == nullptr || &r == near || !r.settings.delta_snapshots || r.settings.idle_fraction != 0.0)
      continue;
    std::printf(
        "   older baseline: a moving cube costs %.3f B at %s (age %.1f ticks) vs %.3f B at %s (age %.1f): "
        "%s\n",
        CubeBytes(runs, r), r.settings.link_name.c_str(), r.delta_age_ticks, CubeBytes(runs, *near),
        near->settings.link_name.c_str(), near->delta_age_ticks,
        Ratio(CubeBytes(runs, r), CubeBytes(runs, *near)).c_str());
  }
  std::fflush(stdout);
}

namespace {

// The profile's table: a row per group of players.
void PrintProfileGroups(const std::vector<GroupResult>& groups, bool in_memory) {
  // In memory there is no wire: its figure would only repeat the payload.
  const auto wire = [in_memory](double bytes_per_s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", bytes_per_s);
    return std::string(in_memory ? "-" : text);
  };
  std::printf(
      "   group         inputs corr  max(u) | lost ratelim   dry ticks | underruns (after 5 s) extrap ms | "
      "interp ms  view delay ms"
      " mean/max | remote err mean/p99 step | loss seen/real   rtt ms | down B/s wire B/s snap rate | "
      "settled match\n");
  for (const GroupResult& g : groups) {
    const double dry_percent = g.streaming_ticks > 0 ? 100.0 * static_cast<double>(g.dry_ticks) /
                                                           static_cast<double>(g.streaming_ticks)
                                                     : 0.0;
    std::printf(
        "   %-12s %7llu %4llu %7.3f | %4llu %7llu %5llu %4.1f%% | %9llu (%llu) %9.0f | %9.1f %10.1f %8.1f | "
        "%10.3f %5.3f %5.3f |"
        " %5.1f%% %5.1f%% %8.1f | %8.0f %8s %7.0f/s | %-7s %s\n",
        g.name.c_str(), static_cast<unsigned long long>(g.inputs_sent),
        static_cast<unsigned long long>(g.corrections), g.max_correction,
        static_cast<unsigned long long>(g.inputs_lost),
        static_cast<unsigned long long>(g.inputs_dropped_rate_limit),
        static_cast<unsigned long long>(g.dry_ticks), dry_percent,
        static_cast<unsigned long long>(g.interp_underruns),
        static_cast<unsigned long long>(g.underruns_after_early), g.extrapolation_ms, g.interp_delay_ms,
        g.view_delay_mean_ms, g.view_delay_max_ms, g.remote_error_mean, g.remote_error_p99, g.remote_max_step,
        g.snapshot_loss * 100, g.link_loss * 100, g.rtt_ms, g.down_bytes_per_s,
        wire(g.wire_down_bytes_per_s).c_str(), g.snapshot_rate, g.all_settled ? "yes" : "NO",
        g.all_final_match ? "yes" : "NO");
  }
}

// The two families side by side: interpolation draws the past exactly, predicting the others draws the
// present with the remote turns' mispredictions.
void PrintFamilies(const std::vector<GroupResult>& groups) {
  std::printf(
      "   remote cubes: group          err at present mean/p99 | err at moment drawn mean/p99 | jumps/s "
      "largest"
      " | view delay ms | update us/frame cube-ticks/frame\n");
  for (const GroupResult& g : groups) {
    if (g.name != "default" && g.name != "predict-others") continue;
    std::printf("                 %-14s %12.3f %6.3f | %17.3f %6.3f | %7.2f %7.3f | %13.1f | %15.1f %16.1f\n",
                g.name.c_str(), g.remote_error_now_mean, g.remote_error_now_p99, g.remote_error_mean,
                g.remote_error_p99, g.remote_jumps_per_s, g.remote_max_step, g.view_delay_mean_ms,
                g.update_cpu_us_per_frame, g.cube_ticks_per_frame);
  }
}

// Each group that turns one technique off against the default group.
void PrintProfileBaselines(const ProfileResult& r, bool in_memory) {
  const ProfileSettings& s = r.settings;
  const KeyPressResult& k = r.key_press;
  const GroupResult* def = FindGroup(r, "default");
  const GroupResult* red = FindGroup(r, "redundancy-1");
  const GroupResult* fix = FindGroup(r, "fixed-delay");
  const GroupResult* uns = FindGroup(r, "unsmoothed");
  const GroupResult* srv = FindGroup(r, "server-rate");
  if (def != nullptr && red != nullptr && fix != nullptr && uns != nullptr && srv != nullptr) {
    const std::string wire_note = in_memory ? ""
                                            : " (wire " + Grouped(srv->wire_down_bytes_per_s) + " vs " +
                                                  Grouped(def->wire_down_bytes_per_s) + ")";
    std::printf(
        "   baselines: redundancy 1 / default: corrections %s, inputs lost %s\n"
        "              fixed %d ms / adaptive delay: underruns %s, extrapolation %s, view delay %s\n"
        "              unsmoothed / smoothed: largest remote step %.3f vs %.3f units, remote error p99 %.3f "
        "vs %.3f\n"
        "              server rate / adaptive rate: view delay %s, underruns %llu vs %llu, down %s vs %s B/s "
        "per player%s\n"
        "              prediction off / on: key press frames %s\n",
        Ratio(static_cast<double>(red->corrections), static_cast<double>(def->corrections)).c_str(),
        Ratio(static_cast<double>(red->inputs_lost + red->inputs_dropped_rate_limit),
              static_cast<double>(def->inputs_lost + def->inputs_dropped_rate_limit))
            .c_str(),
        s.fixed_delay_ms,
        Ratio(static_cast<double>(fix->interp_underruns), static_cast<double>(def->interp_underruns)).c_str(),
        Ratio(fix->extrapolation_ms, def->extrapolation_ms).c_str(),
        Ratio(fix->view_delay_mean_ms, def->view_delay_mean_ms).c_str(), uns->remote_max_step,
        def->remote_max_step, uns->remote_error_p99, def->remote_error_p99,
        Ratio(srv->view_delay_mean_ms, def->view_delay_mean_ms).c_str(),
        static_cast<unsigned long long>(srv->interp_underruns),
        static_cast<unsigned long long>(def->interp_underruns), Grouped(srv->down_bytes_per_s).c_str(),
        Grouped(def->down_bytes_per_s).c_str(), wire_note.c_str(),
        Ratio(Mean(k.frames_without_prediction), Mean(k.frames_with_prediction)).c_str());
  }
}

}  // namespace

void PrintProfile(const ProfileResult& r) {
  const ProfileSettings& s = r.settings;
  const transport::LinkSettings& l = s.profile.settings;
  const bool in_memory = s.network == transport::NetworkKind::kMemory;
  std::printf(
      "\n== profile %s: %.0f ms one way +-%.0f ms jitter, %.0f%% loss, %.0f%% duplication, both directions\n"
      "   (client-side conditioner); server 60 Hz tick, 20 Hz %s snapshots (60 Hz to a client that asks),\n"
      "   input buffer %s, collisions off (every player solo);\n"
      "   %zu groups of %d in-process players, %.0f s random play then settling; virtual clock, %.1f s run,\n"
      "   %s;\n"
      "   down: per player per second of play; snap rate: the server's to each player as the run ended, "
      "mean\n",
      s.profile.name.c_str(), l.latency_ms, l.jitter_ms, l.loss * 100, l.duplicate * 100,
      s.delta_snapshots ? "delta" : "full", s.input_buffer ? "on" : "off", r.groups.size(), s.group_size,
      s.play_s, r.ran_s,
      s.network == transport::NetworkKind::kMemory ? "in-memory link" : "UDP loopback through ENet");
  PrintProfileGroups(r.groups, in_memory);
  PrintFamilies(r.groups);
  const KeyPressResult& k = r.key_press;
  std::printf(
      "   key press -> drawn cube moves, frames at 60 fps after the frame that read the key (0 = that "
      "frame):\n"
      "     with prediction: %s (max %d); without: %s (mean %.1f)\n",
      Join(k.frames_with_prediction).c_str(), Max(k.frames_with_prediction),
      Join(k.frames_without_prediction).c_str(), Mean(k.frames_without_prediction));
  PrintProfileBaselines(r, in_memory);
  std::fflush(stdout);
}

namespace {

std::string Verdict(bool ok) { return ok ? "met" : "missed"; }

std::string Fixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// The run of profile `name` with the default (delta) encoding, if there is one.
const ProfileResult* DefaultRun(const std::vector<ProfileResult>& profiles, const std::string& name) {
  for (const ProfileResult& p : profiles) {
    if (p.settings.profile.name == name && p.settings.delta_snapshots) return &p;
  }
  return nullptr;
}

// Solo players never corrected, and issue 13's view delays for remote cubes (each for the default group).
void CorrectionAndDelayTargets(const std::vector<ProfileResult>& profiles, std::vector<Target>& targets) {
  for (const char* name : {"cross-continent", "lossy"}) {
    Target t{std::string("zero corrections for solo players under ") + name + ", default redundancy",
             "not run", ""};
    if (const ProfileResult* p = DefaultRun(profiles, name)) {
      const GroupResult* g = FindGroup(*p, "default");
      t.status = Verdict(g->corrections == 0);
      t.detail = std::to_string(g->corrections) + " corrections over " + std::to_string(g->inputs_sent) +
                 " inputs, " + std::to_string(g->inputs_lost + g->inputs_dropped_rate_limit) + " inputs lost";
    }
    targets.push_back(t);
  }
  for (const auto& [name, max_delay_ms] : {std::pair{"lan", 70.0}, std::pair{"cross-continent", 200.0},
                                           std::pair{"lossy", 190.0}, std::pair{"harsh", 650.0}}) {
    Target t{std::string("remote view delay mean <= ") + Fixed(max_delay_ms, 0) + " ms under " + name,
             "not run", ""};
    if (const ProfileResult* p = DefaultRun(profiles, name)) {
      const GroupResult* g = FindGroup(*p, "default");
      t.status = Verdict(g->view_delay_mean_ms <= max_delay_ms);
      t.detail = Fixed(g->view_delay_mean_ms, 1) + " ms";
    }
    targets.push_back(t);
  }
}

// Remote cubes without underruns and close to the truth, and the harsh profile's.
void UnderrunTargets(const std::vector<ProfileResult>& profiles, std::vector<Target>& targets) {
  for (const char* name : {"lan", "cross-continent", "lossy"}) {
    Target t{std::string("zero underruns and remote error p99 <= 0.25 units under ") + name, "not run", ""};
    if (const ProfileResult* p = DefaultRun(profiles, name)) {
      const GroupResult* g = FindGroup(*p, "default");
      t.status = Verdict(g->interp_underruns == 0 && g->remote_error_p99 <= 0.25);
      t.detail =
          std::to_string(g->interp_underruns) + " underruns, p99 " + Fixed(g->remote_error_p99, 3) + " units";
    }
    targets.push_back(t);
  }
  {
    Target t{"under harsh: <= 20 underruns, none after 5 s; snapshot loss seen within 3 points of the real",
             "not run", ""};
    if (const ProfileResult* p = DefaultRun(profiles, "harsh")) {
      const GroupResult* g = FindGroup(*p, "default");
      const double gap_points = std::abs(g->snapshot_loss - g->link_loss) * 100.0;
      t.status = Verdict(g->interp_underruns <= 20 && g->underruns_after_early == 0 && gap_points <= 3.0);
      t.detail = std::to_string(g->interp_underruns) + " underruns (" +
                 std::to_string(g->underruns_after_early) + " after 5 s), loss seen " +
                 Fixed(g->snapshot_loss * 100.0, 1) + "% vs " + Fixed(g->link_loss * 100.0, 1) + "%";
    }
    targets.push_back(t);
  }
}

void KeyPressTarget(const std::vector<ProfileResult>& profiles, std::vector<Target>& targets) {
  Target t{"key press visible within one frame with prediction, every profile", "not run", ""};
  bool ok = true;
  for (const ProfileResult& p : profiles) {
    const std::vector<int>& frames = p.key_press.frames_with_prediction;
    ok = ok && !frames.empty() && !AnyNegative(frames) && Max(frames) <= 1;
    if (!t.detail.empty()) t.detail += "; ";
    t.detail += p.settings.profile.name + " max " + std::to_string(Max(frames));
  }
  if (!profiles.empty()) t.status = Verdict(ok);
  targets.push_back(t);
}

// The server's tick at 256 players.
void TickTarget(const std::vector<ScaleResult>& scale, std::vector<Target>& targets) {
  Target t{"server tick p99 < 1 ms with 256 clients at 60 Hz", "not run", ""};
  bool any = false;
  bool ok = true;
  for (const ScaleResult& r : scale) {
    if (r.settings.clients != 256 || r.settings.tick_rate != 60) continue;
    any = true;
    ok = ok && r.tick_p99_us < 1000.0;
    char text[160];
    std::snprintf(text, sizeof text, "%s%s: %d Hz %s snapshots, interest %s, %.0f%% idle: p99 %.0f us",
                  t.detail.empty() ? "" : "; ", RunPlace(r).c_str(), r.settings.snapshot_rate,
                  r.settings.delta_snapshots ? "delta" : "full", r.settings.interest ? "on" : "off",
                  r.settings.idle_fraction * 100, r.tick_p99_us);
    t.detail += text;
  }
  if (any) t.status = Verdict(ok);
  targets.push_back(t);
}

// Issue 28's: every player in sync and nearly every snapshot a delta, as well as the tick.
void SyncTarget(const std::vector<ScaleResult>& scale, std::vector<Target>& targets) {
  Target t{"256 clients, 60 Hz delta snapshots: tick p99 <= 1 ms, 0 skipped, all in sync, >= 90% deltas",
           "not run", ""};
  for (const ScaleResult& r : scale) {
    if (r.settings.clients != 256 || r.settings.snapshot_rate != 60 || !r.settings.delta_snapshots) continue;
    const bool in_sync = r.bots_problem.empty() && r.all_final_match;
    char text[200];
    std::snprintf(
        text, sizeof text, "%s%s, interest %s, %.0f%% idle: p99 %.0f us, %llu skipped, %s, %.0f%% deltas",
        t.detail.empty() ? "" : "; ", RunPlace(r).c_str(), r.settings.interest ? "on" : "off",
        r.settings.idle_fraction * 100, r.tick_p99_us, static_cast<unsigned long long>(r.ticks_skipped),
        in_sync ? "in sync" : "not in sync", r.delta_share * 100);
    t.detail += text;
    const bool ok = r.tick_p99_us <= 1000.0 && r.ticks_skipped == 0 && in_sync && r.delta_share >= 0.9;
    t.status = t.status == "missed" ? t.status : Verdict(ok);
  }
  targets.push_back(t);
}

// Issue 15's delta snapshot targets: a cube's bytes moving and at rest, and a client's download.
void BandwidthTargets(const std::vector<ScaleResult>& bandwidth, std::vector<Target>& targets) {
  const auto with_cube_bytes = [&](const ScaleResult& r) {
    char out[160];
    std::snprintf(out, sizeof out, "%s %.3f B (baseline age %.1f ticks)", r.settings.link_name.c_str(),
                  CubeBytes(bandwidth, r), r.delta_age_ticks);
    return std::string(out);
  };
  const auto cube_target = [&](const std::string& name, double idle, double limit) {
    Target t{name, "not run", ""};
    if (const ScaleResult* lan = FindBandwidth(bandwidth, "lan", idle, true)) {
      t.status = Verdict(CubeBytes(bandwidth, *lan) <= limit);
      t.detail = with_cube_bytes(*lan);
    }
    for (const ScaleResult& r : bandwidth) {
      if (r.settings.link_name == "lan" || !r.settings.delta_snapshots || r.settings.idle_fraction != idle)
        continue;
      t.detail += (t.detail.empty() ? "" : "; ") + with_cube_bytes(r);
    }
    targets.push_back(t);
  };
  cube_target("moving cube <= 2.5 B per snapshot, delta, lan", 0.0, 2.5);
  cube_target("resting cube <= 0.25 B per snapshot, delta, lan", 1.0, 0.25);
  {
    constexpr double kFullPayload = 2650.0;  // issue 15: 16 players, 20 Hz, every cube in full
    Target t{"down per client <= 1/3 of 2,650 B/s at 16 players, 20 Hz, all moving, delta, lan", "not run",
             ""};
    const ScaleResult* d = FindBandwidth(bandwidth, "lan", 0.0, true);
    if (d != nullptr && d->settings.clients == 16 && d->settings.snapshot_rate == 20) {
      t.status = Verdict(d->down_bytes_per_s <= kFullPayload / 3);
      char text[160];
      std::snprintf(text, sizeof text, "%.0f B/s payload = %.2fx of 2,650", d->down_bytes_per_s,
                    d->down_bytes_per_s / kFullPayload);
      t.detail = text;
      if (const ScaleResult* f = FindBandwidth(bandwidth, "lan", 0.0, false)) {
        std::snprintf(text, sizeof text, "; full in the same run %.0f B/s", f->down_bytes_per_s);
        t.detail += text;
      }
    }
    targets.push_back(t);
  }
}

}  // namespace

std::vector<Target> CheckTargets(const std::vector<ScaleResult>& scale,
                                 const std::vector<ScaleResult>& bandwidth,
                                 const std::vector<ProfileResult>& profiles) {
  std::vector<Target> targets;
  CorrectionAndDelayTargets(profiles, targets);
  UnderrunTargets(profiles, targets);
  KeyPressTarget(profiles, targets);
  TickTarget(scale, targets);
  BandwidthTargets(bandwidth, targets);
  SyncTarget(scale, targets);
  return targets;
}

void PrintTargets(const std::vector<Target>& targets) {
  std::printf("\n== targets\n");
  for (const Target& t : targets) {
    std::printf("   %-7s %s%s%s\n", t.status.c_str(), t.name.c_str(), t.detail.empty() ? "" : ": ",
                t.detail.c_str());
  }
  std::fflush(stdout);
}

nlohmann::json ToJson(const Machine& machine, const std::vector<ScaleResult>& scale,
                      const std::vector<ScaleResult>& scale_baselines,
                      const std::vector<ProfileResult>& profiles, const std::vector<Target>& targets) {
  nlohmann::json j = {{"machine", {{"cores", machine.cores}, {"cpu_model", machine.cpu_model}}},
                      {"scale", scale},
                      {"scale_baselines", scale_baselines},
                      {"profiles", profiles},
                      {"targets", nlohmann::json::array()}};
  for (const Target& t : targets)
    j["targets"].push_back({{"name", t.name}, {"status", t.status}, {"detail", t.detail}});
  return j;
}

}  // namespace netcube::bench
