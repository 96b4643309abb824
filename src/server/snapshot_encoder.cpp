#include "snapshot_encoder.h"

#include <algorithm>
#include <cassert>

#include "config.h"
#include "netcube/protocol/rules.h"

namespace netcube::server {

SnapshotEncoder::SnapshotEncoder(SnapshotCounters& counters) : counters_(counters), kept_(kMaxDeltaEncodes) {
  receivers_.reserve(protocol::kMaxPlayers);
  given_.reserve(kMaxDeltaEncodes);
  writers_.reserve(kMaxDeltaEncodes + 1);  // address space only until encodings need it
}

void SnapshotEncoder::Record(std::uint64_t tick, std::span<const sim::PlayerCube> world,
                             const WorldHistory& history, std::span<const sim::PlayerCube> arrivals,
                             std::span<const sim::PlayerStep> steps, bool collisions) {
  std::span<const sim::PlayerCube> recorded;
  std::span<const std::uint32_t> generations;
  if (!history.WorldOf(tick, recorded, generations)) return;
  move_log_.Record(tick, world, generations, arrivals, steps, collisions);
}

std::uint64_t SnapshotEncoder::SeenBaseline(const SnapshotFeed& feed, std::uint64_t tick,
                                            const WorldHistory& history, SnapshotEncoding encoding) {
  const std::optional<std::uint64_t> seen = feed.told.newest();
  if (encoding != SnapshotEncoding::kDelta || !seen) return kNoBaseline;
  // Older than a client must hold, it is a long loss's, or a lie: a full snapshot costs no more.
  const std::uint64_t age = tick - *seen;
  std::span<const sim::PlayerCube> cubes;
  std::span<const std::uint32_t> gens;
  if (age < 1 || age > protocol::kHeldBaselines || !history.WorldOf(*seen, cubes, gens)) return kNoBaseline;
  return *seen;
}

bool SnapshotEncoder::Told(const protocol::RecentTicks& told, std::uint64_t tick,
                           std::uint64_t baseline) noexcept {
  return told.Contains(baseline) && tick - baseline <= protocol::kHeldBaselines;
}

std::optional<std::size_t> SnapshotEncoder::NewestHeld(const protocol::RecentTicks& told, std::uint64_t tick,
                                                       std::uint64_t seen) const noexcept {
  std::optional<std::size_t> newest;
  for (std::size_t k = 0; k < kept_.size(); ++k) {
    if (!kept_[k].live) continue;
    const std::uint64_t b = kept_[k].baseline;
    const bool held = b <= seen && Told(told, tick, b);
    if (held && (!newest || b > kept_[*newest].baseline)) newest = k;
  }
  return newest;
}

void SnapshotEncoder::LetGoOfKept(std::uint64_t tick) {
  for (Kept& kept : kept_) {
    if (tick - kept.last_used > kIdleTicks || tick - kept.baseline > protocol::kHeldBaselines)
      kept.live = false;
  }
}

std::optional<std::size_t> SnapshotEncoder::Keep(std::uint64_t tick, std::uint64_t seen,
                                                 const WorldHistory& history) {
  std::optional<std::size_t> slot;
  for (std::size_t k = 0; k < kept_.size(); ++k) {
    if (kept_[k].live && kept_[k].last_used == tick) continue;  // serves this tick
    if (!slot || !kept_[k].live || (kept_[*slot].live && kept_[k].last_used < kept_[*slot].last_used))
      slot = k;
  }
  std::span<const sim::PlayerCube> cubes;
  std::span<const std::uint32_t> gens;
  if (!slot || !history.WorldOf(seen, cubes, gens)) return std::nullopt;
  Kept& kept = kept_[*slot];
  kept.live = true;
  kept.baseline = seen;
  kept.last_used = tick;
  // The newest older replay kept gives its paths' tails when it reached `seen`: no tick replayed again.
  const Kept* older = nullptr;
  for (const Kept& other : kept_) {
    if (&other != &kept && other.live && other.baseline < seen &&
        (older == nullptr || other.baseline > older->baseline)) {
      older = &other;
    }
  }
  if (older == nullptr ||
      !kept.replay.StartFrom(older->replay, older->replay_delta, seen, cubes, kept.replay_delta)) {
    kept.replay.Start(seen, cubes, move_log_, kept.replay_delta);
  }
  return slot;
}

void SnapshotEncoder::GiveKept(std::uint64_t tick, std::size_t cubes) {
  // Each client takes the newest kept baseline it holds while the tick's encodes are cheap (a few cubes
  // each); beyond that, as few are given as keep every client's fresh (stabbing intervals): going from the
  // client that told of the oldest tick, each takes its newest one if given already, else the newest given
  // one fresh enough for it, else its newest.
  const std::size_t cheap_encodes =
      std::max<std::size_t>(1, kCheapEncodeCubes / std::max<std::size_t>(cubes, 1));
  std::sort(receivers_.begin(), receivers_.end(),
            [](const Receiver& a, const Receiver& b) { return a.seen < b.seen; });
  given_.clear();
  wanting_.fill(0);
  waited_.fill(0);
  for (Receiver& r : receivers_) {
    if (r.seen == kNoBaseline) break;  // sorted last
    const std::optional<std::size_t> newest = NewestHeld(r.told, tick, r.seen);
    const bool newest_given =
        newest && std::find(given_.begin(), given_.end(), kept_[*newest].baseline) != given_.end();
    if (newest && !newest_given && given_.size() >= cheap_encodes) {
      for (const std::uint64_t b : given_) {
        if (b <= r.seen && r.seen - b <= Slack(tick, r.seen) &&
            (r.baseline == kNoBaseline || b > r.baseline) && Told(r.told, tick, b)) {
          r.baseline = b;
        }
      }
    }
    if (newest && r.baseline == kNoBaseline) {
      r.baseline = kept_[*newest].baseline;
      kept_[*newest].last_used = tick;
      if (!newest_given) given_.push_back(r.baseline);
    }
    // One with none fresh enough wants one kept: any tick it told of that would be.
    if (!Fresh(tick, r)) {
      for (std::uint64_t age = tick - r.seen; age <= LastFreshAge(tick, r.seen) && age < tick; ++age) {
        if (!Told(r.told, tick, tick - age)) continue;
        ++wanting_[static_cast<std::size_t>(age)];
        waited_[static_cast<std::size_t>(age)] = std::max(waited_[static_cast<std::size_t>(age)], r.unserved);
      }
    }
  }
}

bool SnapshotEncoder::Affordable(std::size_t age, std::size_t cubes) const noexcept {
  // A start replays every cube through the ticks since the baseline, and adds an encode a tick for as long
  // as it is given. A dear one must serve a client a tick replayed, or a quarter of those due: those that
  // tell of older ticks than that (honestly or not) get full snapshots, and cost no more than them.
  return CheapStart(age, cubes) || wanting_[age] >= std::min<std::size_t>((receivers_.size() + 3) / 4, age);
}

std::uint64_t SnapshotEncoder::WantedStart(std::uint64_t tick, std::size_t cubes) {
  // Of the ticks worth starting, the one wanted by the client that waited longest, then by the most
  // clients, the newest of equals: groups of clients of every lag take turns, whatever their size, and no
  // crowd (of one link, or of liars) keeps the others from theirs.
  const auto before = [this](std::size_t a, std::size_t b) {
    return waited_[a] != waited_[b] ? waited_[a] > waited_[b] : wanting_[a] > wanting_[b];
  };
  std::optional<std::size_t> chosen;
  for (std::size_t age = 1; age < wanting_.size(); ++age) {
    if (wanting_[age] > 0 && Affordable(age, cubes) && (!chosen || before(age, *chosen))) chosen = age;
  }
  if (!chosen) return kNoBaseline;
  if (CheapStart(*chosen, cubes)) return tick - *chosen;
  // A dear one is, of those equal, the tick that will serve the clients longest (each that holds it counts
  // the ticks it stays fresh enough for that client).
  const auto equal = [&](std::size_t age) { return !before(age, *chosen) && !before(*chosen, age); };
  service_.fill(0);
  for (const Receiver& r : receivers_) {
    if (r.seen == kNoBaseline) break;  // sorted last
    const std::uint64_t last = LastFreshAge(tick, r.seen);
    for (std::uint64_t age = tick - r.seen; age <= last && age < tick; ++age) {
      const auto slot = static_cast<std::size_t>(age);  // below wanting_.size(): ages are held baselines
      if (equal(slot) && Told(r.told, tick, tick - age)) service_[slot] += last - age + 1;
    }
  }
  std::size_t best = *chosen;
  for (std::size_t age = *chosen + 1; age < wanting_.size(); ++age) {
    if (equal(age) && service_[age] > service_[best] && Affordable(age, cubes)) best = age;
  }
  return tick - best;
}

void SnapshotEncoder::Prepare(std::uint64_t tick, const Players& players, const WorldHistory& history,
                              SnapshotEncoding encoding, const sim::Arena& arena) {
  LetGoOfKept(tick);
  const std::vector<Client>& clients = players.clients();
  receivers_.clear();
  for (std::size_t i = 0; i < clients.size(); ++i) {
    const SnapshotFeed& feed = clients[i].feed;
    if (feed.due && !clients[i].interest.partial)
      receivers_.push_back(Receiver{kNoBaseline, i, 0, SeenBaseline(feed, tick, history, encoding),
                                    feed.unserved, false, feed.told});
  }
  GiveKept(tick, players.world().size());
  const std::uint64_t wanted = WantedStart(tick, players.world().size());
  if (wanted != kNoBaseline && Keep(tick, wanted, history)) {
    for (Receiver& r : receivers_) {
      if (r.seen == kNoBaseline || r.seen < wanted) continue;
      if ((r.baseline == kNoBaseline || r.baseline < wanted) && Told(r.told, tick, wanted))
        r.baseline = wanted;
    }
  }
  std::sort(receivers_.begin(), receivers_.end());
  std::size_t groups = 0;
  for (std::size_t k = 0; k < receivers_.size(); ++k) {
    Receiver& r = receivers_[k];
    r.fresh = Fresh(tick, r);
    if (r.seen != kNoBaseline && r.baseline == kNoBaseline) ++counters_.deltas_declined;
    if (k == 0 || r.baseline != receivers_[k - 1].baseline) {
      if (writers_.size() == groups) writers_.emplace_back();
      std::optional<std::size_t> kept;
      for (std::size_t s = 0; s < kept_.size() && r.baseline != kNoBaseline; ++s) {
        if (kept_[s].live && kept_[s].baseline == r.baseline) kept = s;
      }
      group_is_delta_[groups] = PrepareOne(tick, players, arena, kept, writers_[groups]);
      ++groups;
    }
    r.group = groups - 1;
  }
  counters_.snapshot_encodes += groups;
}

bool SnapshotEncoder::PrepareOne(std::uint64_t tick, const Players& players, const sim::Arena& arena,
                                 std::optional<std::size_t> kept, protocol::SnapshotWriter& writer) {
  const std::span<const sim::PlayerCube> world = players.world();
  // A delta longer than the full snapshot (a world turned over since an old baseline, inputs that came in
  // bursts: a client's host fell behind) is not worth sending: the full snapshot's acks bring a fresh
  // baseline.
  if (kept) {
    Kept& k = kept_[*kept];
    if (k.replay.Extend(tick, move_log_, k.replay_delta) && k.replay.Finish(world, k.replay_delta) &&
        writer.Prepare(k.replay_delta) &&
        writer.shared_bits() <= protocol::SnapshotWriter::FullSharedBits(world.size(), arena)) {
      return true;
    }
    k.live = false;  // a replay only grows: a fresher baseline is kept for its clients instead
  }
  [[maybe_unused]] const bool encoded = writer.Prepare(static_cast<std::uint32_t>(tick), arena, world);
  assert(encoded && "the server's world is always encodable: ids increasing, states in range");
  return false;
}

}  // namespace netcube::server
