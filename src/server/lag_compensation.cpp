#include "lag_compensation.h"

#include <algorithm>
#include <chrono>

#include "netcube/protocol/rules.h"

namespace netcube::server {
namespace {

double Milliseconds(Micros t) noexcept { return static_cast<double>(t.count()) / 1000.0; }

// The tick (fractional) whose time is `rewind_ms` before the newest, by bisection over the recorded
// tick times (they change pace when the tick rate does).
double TickBefore(const WorldHistory& history, double rewind_ms) noexcept {
  const Micros target = history.TimeAt(static_cast<double>(history.newest())) -
                        Micros(static_cast<std::int64_t>(rewind_ms * 1000.0));
  double lo = static_cast<double>(history.oldest());
  double hi = static_cast<double>(history.newest());
  if (history.TimeAt(lo) >= target) return lo;
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2.0;
    (history.TimeAt(mid) < target ? lo : hi) = mid;
  }
  return hi;
}

void Collect(const std::vector<PastCube>& cubes, sim::PlayerId shooter, const InterestView* sight,
             std::vector<sim::RayTarget>& out) {
  out.clear();
  for (const PastCube& c : cubes) {
    if (c.id != shooter && (sight == nullptr || sight->Has(c.id))) out.push_back({c.id, c.x, c.y});
  }
}

RayVerdict Test(const sim::Ray& ray, const std::vector<sim::RayTarget>& targets) {
  RayVerdict verdict;
  if (const std::optional<sim::RayHit> hit = sim::FirstHit(ray, targets)) {
    verdict.hit = hit->id;
    return verdict;
  }
  for (const sim::RayTarget& target : targets) {
    const double clearance = sim::Clearance(ray, target);
    if (!verdict.has_nearest || clearance < verdict.clearance) {
      verdict.has_nearest = true;
      verdict.nearest = target.id;
      verdict.clearance = clearance;
    }
  }
  return verdict;
}

const PastCube* Find(const std::vector<PastCube>& cubes, sim::PlayerId id) noexcept {
  const auto it = std::lower_bound(cubes.begin(), cubes.end(), id,
                                   [](const PastCube& c, sim::PlayerId wanted) { return c.id < wanted; });
  return it != cubes.end() && it->id == id ? &*it : nullptr;
}

}  // namespace

Rewind ComputeRewind(const WorldHistory& history, const protocol::Tag& tag, int max_rewind_ms) noexcept {
  const std::uint64_t now_tick = history.newest();
  const Micros now = history.TimeAt(static_cast<double>(now_tick));
  const auto oldest = static_cast<double>(history.oldest());
  const auto newest = static_cast<double>(now_tick);

  // The claim, kept inside the history: a time in the future is now.
  const double claimed =
      static_cast<double>(protocol::WidenTick(tag.render_tick, static_cast<std::int64_t>(now_tick))) +
      static_cast<double>(tag.render_fraction) / protocol::kRenderFractionSteps;
  const double claimed_in_history = std::clamp(claimed, oldest, newest);
  Rewind rewind;
  rewind.claimed_ms = Milliseconds(now - history.TimeAt(claimed_in_history));
  if (claimed < oldest) {
    // Older than anything kept: at least the history's whole span (more than the largest cap).
    rewind.claimed_ms +=
        (oldest - claimed) * Milliseconds(now - history.TimeAt(oldest)) / std::max(1.0, newest - oldest);
  }

  // What the server can believe: since it sent the newest snapshot the shooter had (a snapshot from the
  // future is a lie and counts for nothing), plus the shooter's interpolation delay, plus slack.
  const double seen =
      static_cast<double>(protocol::WidenTick(tag.seen_tick, static_cast<std::int64_t>(now_tick)));
  const double round_trip_ms =
      seen > newest ? 0.0 : Milliseconds(now - history.TimeAt(std::max(seen, oldest)));
  const double believable_ms = round_trip_ms + tag.delay_ms + Milliseconds(kRewindSlack);
  const double cap_ms = std::min(static_cast<double>(max_rewind_ms), believable_ms);

  rewind.capped = rewind.claimed_ms > cap_ms;
  rewind.applied_ms = std::min(rewind.claimed_ms, cap_ms);
  rewind.at_tick = rewind.capped ? TickBefore(history, rewind.applied_ms) : claimed_in_history;
  return rewind;
}

TagRecord Judge(const WorldHistory& history, const sim::PlayerCube& shooter, const protocol::Tag& tag,
                bool lag_compensation, int max_rewind_ms, const InterestView* sight, JudgeScratch& scratch,
                PastCube& victim) {
  const Rewind rewind = ComputeRewind(history, tag, max_rewind_ms);
  history.WorldAt(rewind.at_tick, scratch.then);
  history.WorldAt(static_cast<double>(history.newest()), scratch.now);

  TagRecord record;
  record.tick = history.newest();
  record.shooter = shooter.id;
  record.shot = tag.shot;
  record.lag_compensation = lag_compensation;
  record.ray = sim::Ray{static_cast<double>(shooter.state.x), static_cast<double>(shooter.state.y), tag.aim,
                        sim::kTagRange};
  record.render_tick = rewind.at_tick;
  record.claimed_rewind_ms = rewind.claimed_ms;
  record.rewind_ms = rewind.applied_ms;
  record.capped = rewind.capped;
  Collect(scratch.then, shooter.id, sight, scratch.targets);
  record.rewound = Test(record.ray, scratch.targets);
  Collect(scratch.now, shooter.id, sight, scratch.targets);
  record.present = Test(record.ray, scratch.targets);

  const RayVerdict& applied = lag_compensation ? record.rewound : record.present;
  const RayVerdict& other = lag_compensation ? record.present : record.rewound;
  record.outcome = applied.hit ? protocol::TagOutcome::kHit : protocol::TagOutcome::kMiss;

  std::optional<sim::PlayerId> subject = applied.hit ? applied.hit : other.hit;
  if (!subject && record.rewound.has_nearest) subject = record.rewound.nearest;
  const PastCube* then = subject ? Find(scratch.then, *subject) : nullptr;
  const PastCube* now = subject ? Find(scratch.now, *subject) : nullptr;
  if (then != nullptr && now != nullptr) {
    record.has_subject = true;
    record.subject = *subject;
    record.subject_then_x = then->x;
    record.subject_then_y = then->y;
    record.subject_now_x = now->x;
    record.subject_now_y = now->y;
  }
  if (applied.hit) {
    const PastCube* hit = Find(lag_compensation ? scratch.then : scratch.now, *applied.hit);
    if (hit != nullptr) victim = *hit;
  }
  return record;
}

}  // namespace netcube::server
