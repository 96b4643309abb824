// The scale table (report.h's PrintScale): a row per run, the interest management's figures, the
// redundancy baselines and what grows with N.
#include <algorithm>
#include <cstdio>

#include "report.h"

namespace netcube::bench {
namespace {

void PrintScaleRow(const ScaleResult& r) {
  const ScaleSettings& s = r.settings;
  std::printf(
      "%4d %4d %3d %-5s %-5s %-3s %3.0f%% | %6.0f %6.0f %6.0f | %5.0f %5.0f | %7.1f %5.2f | %6.1f %9.0f "
      "%9.0f "
      "%7.0f %9.0f %7.0f | %6llu %4llu %7.1f | %4llu %5llu %4.0f%% %4.0f%% %-4s\n",
      s.clients, s.snapshot_rate, s.redundancy, s.link_name.substr(0, 5).c_str(),
      s.delta_snapshots ? "delta" : "full", s.interest ? "on" : "off", s.idle_fraction * 100, r.tick_p50_us,
      r.tick_p99_us, r.tick_max_us, r.network_p50_us, r.network_p99_us, r.snapshot_bytes, r.bytes_per_cube,
      r.snapshots_per_s, r.snapshot_bytes_per_s, r.down_bytes_per_s, r.up_bytes_per_s,
      r.wire_down_bytes_per_s, r.wire_up_bytes_per_s, static_cast<unsigned long long>(r.corrections),
      static_cast<unsigned long long>(r.inputs_lost + r.inputs_dropped_rate_limit), r.rtt_ms_mean,
      static_cast<unsigned long long>(r.ticks_skipped), static_cast<unsigned long long>(r.dry_ticks),
      r.delta_share * 100, r.deltas_declined_share * 100,
      r.bots_problem.empty() ? (r.all_final_match ? "yes" : "no") : "?");
  if (s.spectators > 0)
    std::printf("      (the row above: %d spectators beside the players, at most %d snapshots a second)\n",
                s.spectators, s.spectator_snapshot_rate);
  if (s.churn > 0) {
    std::printf("      (the row above: churn %.1f%% a second, %llu joins and %llu leaves in the window",
                s.churn * 100, static_cast<unsigned long long>(r.churn_joins),
                static_cast<unsigned long long>(r.churn_leaves));
  }
  if (r.players_delta_share) {
    std::printf("%s the players who stayed received %.1f%% of their snapshots as deltas)\n",
                s.churn > 0 ? ";" : "      (the row above:", *r.players_delta_share * 100);
  } else if (s.churn > 0) {
    std::printf(")\n");
  }
  if (!r.bots_problem.empty()) std::printf("      (bot figures missing: %s)\n", r.bots_problem.c_str());
}

// The scale table's heading: how the runs were made, and the columns.
void PrintScaleHeading(const ScaleSettings& s) {
  std::printf(
      "\n== scale: the server in this process; %s, random\n"
      "   input; link lan: no added latency; mixed: the bots spread over one group per profile "
      "(--mixed-profiles); else a profile's name;\n"
      "   dry = a moving cube's ticks without its input, in the window; decl. = snapshots sent full for want "
      "of\n"
      "   a shared baseline;\n"
      "   sync = every bot's final state equal to the server's; collisions %s; arena %dx%d; tick %d Hz; "
      "measured over a %.0f s window after all joined;\n"
      "   tick = simulation, tags and the snapshot's encoding; net = servicing the network and handing each\n"
      "   client its snapshot, per tick; both the server's own measurements (work_clock = %s);\n"
      "   int = the server's interest management, on or off\n",
      s.virtual_time
          ? "N players in this process on the in-memory network, on a virtual clock (1 ms steps);\n"
            "   the encodings and interest settings of one setting side by side, stepped in turn, their "
            "ticks timed at the same "
            "moments"
          : "N netcube-bot players in child processes on loopback",
      s.collisions ? "on" : "off", s.arena.width_units(), s.arena.height_units(), s.tick_rate, s.window_s,
      s.cpu_tick_clock ? "the server thread's CPU time" : "the wall clock");
  std::printf(
      "   N snap red link  enc   int idle | tick us: p50    p99    max | net us p50   p99 |  snap B  B/cube "
      "| per "
      "client per second: snaps  snap B"
      "    down B      up B  wire down  wire up | corr   lost  rtt ms | skip   dry delta decl. "
      "sync\n");
}

// The redundancy baselines' rows, and each run against its baseline.
void PrintRedundancyBaselines(const std::vector<ScaleResult>& runs,
                              const std::vector<ScaleResult>& baselines) {
  if (baselines.empty()) return;
  std::printf("   baseline runs, redundancy 1:\n");
  for (const ScaleResult& r : baselines) PrintScaleRow(r);
  for (const ScaleResult& b : baselines) {
    for (const ScaleResult& r : runs) {
      if (r.settings.clients != b.settings.clients || r.settings.link_name != b.settings.link_name ||
          r.settings.snapshot_rate != b.settings.snapshot_rate ||
          r.settings.delta_snapshots != b.settings.delta_snapshots ||
          r.settings.interest != b.settings.interest || r.settings.spectators != b.settings.spectators ||
          r.settings.spectator_snapshot_rate != b.settings.spectator_snapshot_rate ||
          r.settings.idle_fraction != b.settings.idle_fraction) {
        continue;
      }
      std::printf("   N=%d: redundancy %d / redundancy 1: up payload %s, wire up %s, corrections %s\n",
                  r.settings.clients, r.settings.redundancy,
                  Ratio(r.up_bytes_per_s, b.up_bytes_per_s).c_str(),
                  Ratio(r.wire_up_bytes_per_s, b.wire_up_bytes_per_s).c_str(),
                  Ratio(static_cast<double>(r.corrections), static_cast<double>(b.corrections)).c_str());
    }
  }
}

// What grows with N: the smallest run against the largest, at each snapshot rate, encoding, interest
// setting and idle share.
void PrintGrowth(const std::vector<ScaleResult>& runs) {
  const auto same_kind = [](const ScaleResult& a, const ScaleResult& b) {
    return a.settings.snapshot_rate == b.settings.snapshot_rate &&
           a.settings.delta_snapshots == b.settings.delta_snapshots &&
           a.settings.interest == b.settings.interest &&
           a.settings.idle_fraction == b.settings.idle_fraction &&
           a.settings.spectators == b.settings.spectators &&
           a.settings.spectator_snapshot_rate == b.settings.spectator_snapshot_rate;
  };
  for (const ScaleResult& first : runs) {
    if (&first !=
        &*std::find_if(runs.begin(), runs.end(), [&](const ScaleResult& r) { return same_kind(r, first); })) {
      continue;  // this kind is already done
    }
    const ScaleResult* small = &first;
    const ScaleResult* large = &first;
    for (const ScaleResult& r : runs) {
      if (!same_kind(r, first)) continue;
      if (r.settings.clients < small->settings.clients) small = &r;
      if (r.settings.clients > large->settings.clients) large = &r;
    }
    if (small == large) continue;
    const double added_cubes = large->settings.clients - small->settings.clients;
    std::printf(
        "   growth at %d Hz %s snapshots, interest %s, %.0f%% idle, N %d -> %d: snapshot +%.2f B per added "
        "cube; per client: down %s, up %s; server total down %s; tick p50 %s, p99 %s\n",
        first.settings.snapshot_rate, first.settings.delta_snapshots ? "delta" : "full",
        first.settings.interest ? "on" : "off", first.settings.idle_fraction * 100, small->settings.clients,
        large->settings.clients, (large->snapshot_bytes - small->snapshot_bytes) / added_cubes,
        Ratio(large->down_bytes_per_s, small->down_bytes_per_s).c_str(),
        Ratio(large->up_bytes_per_s, small->up_bytes_per_s).c_str(),
        Ratio(large->down_bytes_per_s * large->settings.clients,
              small->down_bytes_per_s * small->settings.clients)
            .c_str(),
        Ratio(large->tick_p50_us, small->tick_p50_us).c_str(),
        Ratio(large->tick_p99_us, small->tick_p99_us).c_str());
  }
}

// Interest management's figures, a row per run: what a player's snapshot held, and how stale its members
// got.
void PrintInterest(const std::vector<ScaleResult>& runs) {
  const ScaleSettings& s = runs.front().settings;
  std::printf(
      "   interest management, radius %d units, budget %zu B: largest = the largest snapshot sent, B; int = "
      "of the window's\n"
      "   snapshots, the InterestSnapshots' share; members, states = per InterestSnapshot, mean; pred = of "
      "the states, the\n"
      "   predicted share; stalest = the longest a member went without its state, ms, of any and of those "
      "within %d units\n"
      "   of the player's cube\n",
      s.interest_radius_units, s.snapshot_budget, server::kNearUnits);
  std::printf("   N snap link  enc   int | largest B  int%%  members  states  pred | stalest ms  near\n");
  for (const ScaleResult& r : runs) {
    const ScaleSettings& t = r.settings;
    std::printf("%4d %4d %-5s %-5s %-3s | %9llu %4.0f%% %8.1f %7.1f %4.0f%% | %10.0f %5.0f\n", t.clients,
                t.snapshot_rate, t.link_name.substr(0, 5).c_str(), t.delta_snapshots ? "delta" : "full",
                t.interest ? "on" : "off", static_cast<unsigned long long>(r.largest_snapshot_bytes),
                r.interest_share * 100, r.members_per_snapshot, r.states_per_snapshot,
                r.predicted_share * 100, r.stalest_member_ms, r.stalest_near_member_ms);
  }
}

}  // namespace

void PrintScale(const std::vector<ScaleResult>& runs, const std::vector<ScaleResult>& baselines) {
  if (runs.empty()) return;
  PrintScaleHeading(runs.front().settings);
  for (const ScaleResult& r : runs) PrintScaleRow(r);
  PrintInterest(runs);
  PrintRedundancyBaselines(runs, baselines);
  PrintGrowth(runs);
  std::fflush(stdout);
}

}  // namespace netcube::bench
