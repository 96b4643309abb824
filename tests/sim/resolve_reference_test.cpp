// ResolveOverlaps is what docs/PROTOCOL.md section 2 says, bit for bit: a literal reading of that text,
// pass by pass and pair by pair with no shortcut, gives the same world as the library's (which skips pairs
// that cannot overlap and files the cubes again only when one changes cell) on crowds, pile-ups and random
// scatters. A client written from the document replays the server's pushes exactly only if this holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "netcube/sim/world.h"

namespace netcube::sim {
namespace {

// Section 2, "ResolveOverlaps(cubes, arena)", as written.
namespace document {

std::int32_t Shift(std::int32_t& p, std::int32_t d, std::int32_t lo, std::int32_t hi) {
  const std::int32_t clamped = std::clamp(p + d, lo, hi);
  const std::int32_t refused = p + d - clamped;
  p = clamped;
  return refused;
}

bool Separate(CubeState& a, CubeState& b, const Arena& arena) {
  const std::int32_t dx = b.x - a.x;
  const std::int32_t dy = b.y - a.y;
  const std::int32_t ox = kCubeSize - std::abs(dx);
  const std::int32_t oy = kCubeSize - std::abs(dy);
  if (ox <= 0 || oy <= 0) return false;
  const bool x_axis = ox <= oy;
  std::int32_t& pa = x_axis ? a.x : a.y;
  std::int32_t& pb = x_axis ? b.x : b.y;
  std::int32_t& va = x_axis ? a.vx : a.vy;
  std::int32_t& vb = x_axis ? b.vx : b.vy;
  const std::int32_t lo = x_axis ? arena.min_x() : arena.min_y();
  const std::int32_t hi = x_axis ? arena.max_x() : arena.max_y();
  const std::int32_t o = x_axis ? ox : oy;
  const std::int32_t sign = (x_axis ? dx : dy) >= 0 ? 1 : -1;
  const std::int32_t half = o / 2;
  const std::int32_t ra = Shift(pa, -sign * half, lo, hi);
  const std::int32_t rb = Shift(pb, sign * (o - half) - ra, lo, hi);
  if (rb != 0) Shift(pa, -rb, lo, hi);
  if (va * -sign < 0) va = 0;
  if (vb * sign < 0) vb = 0;
  return true;
}

bool Overlap(std::int32_t x, std::int32_t y, const CubeState& o) {
  return std::abs(x - o.x) < kCubeSize && std::abs(y - o.y) < kCubeSize;
}

// True when some separation of the pass found its pair overlapping.
bool Pass(std::vector<CubeState*>& c, const Arena& arena) {
  std::vector<int> column(c.size());
  std::vector<int> row(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) {
    column[i] = std::clamp(c[i]->x / 2048, 0, arena.width / 2048);
    row[i] = std::clamp(c[i]->y / 2048, 0, arena.height / 2048);
  }
  bool separated = false;
  for (std::size_t a = 0; a < c.size(); ++a) {
    for (std::size_t b = a + 1; b < c.size(); ++b) {
      if (std::abs(column[a] - column[b]) <= 1 && std::abs(row[a] - row[b]) <= 1)
        separated = Separate(*c[a], *c[b], arena) || separated;
    }
  }
  return separated;
}

void Settle(std::vector<CubeState*>& c, const Arena& arena) {
  for (std::size_t i = 1; i < c.size(); ++i) {
    CubeState& cube = *c[i];
    bool overlaps = false;
    for (std::size_t o = 0; o < i; ++o) overlaps = overlaps || Overlap(cube.x, cube.y, *c[o]);
    if (!overlaps) continue;
    std::vector<std::int32_t> xs = {cube.x};
    for (std::size_t o = 0; o < i; ++o) {
      xs.push_back(c[o]->x - 2048);
      xs.push_back(c[o]->x + 2048);
    }
    xs.erase(std::remove_if(xs.begin(), xs.end(),
                            [&](std::int32_t x) { return x < arena.min_x() || x > arena.max_x(); }),
             xs.end());
    std::stable_sort(xs.begin(), xs.end(), [&](std::int32_t p, std::int32_t q) {
      const std::int32_t dp = std::abs(p - cube.x);
      const std::int32_t dq = std::abs(q - cube.x);
      return dp != dq ? dp < dq : p < q;
    });
    bool found = false;
    std::int64_t best = 0;
    std::int32_t bx = 0;
    std::int32_t by = 0;
    for (std::size_t k = 0; k < xs.size(); ++k) {
      const std::int32_t x = xs[k];
      if (found && std::abs(x - cube.x) >= best) break;
      if (k > 0 && x == xs[k - 1]) continue;
      std::vector<const CubeState*> blockers;
      for (std::size_t o = 0; o < i; ++o) {
        if (std::abs(x - c[o]->x) < 2048) blockers.push_back(c[o]);
      }
      std::vector<std::int32_t> ys = {cube.y};
      for (const CubeState* o : blockers) {
        ys.push_back(o->y - 2048);
        ys.push_back(o->y + 2048);
      }
      for (const std::int32_t y : ys) {
        if (y < arena.min_y() || y > arena.max_y()) continue;
        if (std::any_of(blockers.begin(), blockers.end(),
                        [&](const CubeState* o) { return Overlap(x, y, *o); }))
          continue;
        const std::int64_t cost = std::abs(x - cube.x) + std::abs(y - cube.y);
        if (!found || cost < best) {
          found = true;
          best = cost;
          bx = x;
          by = y;
        }
      }
    }
    if (!found) continue;
    if (bx != cube.x && cube.vx * (bx > cube.x ? 1 : -1) < 0) cube.vx = 0;
    if (by != cube.y && cube.vy * (by > cube.y ? 1 : -1) < 0) cube.vy = 0;
    cube.x = bx;
    cube.y = by;
  }
}

void ResolveOverlaps(std::vector<PlayerCube>& cubes, const Arena& arena) {
  std::vector<PlayerCube*> by_id;
  for (PlayerCube& cube : cubes) by_id.push_back(&cube);
  std::sort(by_id.begin(), by_id.end(),
            [](const PlayerCube* p, const PlayerCube* q) { return p->id < q->id; });
  std::vector<CubeState*> c;
  for (PlayerCube* cube : by_id) c.push_back(&cube->state);
  for (int pass = 0; pass < 8; ++pass) {
    if (!Pass(c, arena)) return;
  }
  Settle(c, arena);
}

}  // namespace document

std::string Differs(const std::vector<PlayerCube>& a, const std::vector<PlayerCube>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!(a[i].state == b[i].state)) {
      return "cube " + std::to_string(a[i].id) + ": (" + std::to_string(a[i].state.x) + "," +
             std::to_string(a[i].state.y) + "," + std::to_string(a[i].state.vx) + "," +
             std::to_string(a[i].state.vy) + ") against the document's (" + std::to_string(b[i].state.x) +
             "," + std::to_string(b[i].state.y) + "," + std::to_string(b[i].state.vx) + "," +
             std::to_string(b[i].state.vy) + ")";
    }
  }
  return "";
}

// Both resolutions of the same world, listed in a shuffled order: equal, cube for cube; and the same by
// `resolver`, which keeps its filing of the worlds it resolved before.
void ExpectSameAsTheDocument(std::vector<PlayerCube> world, std::mt19937_64& rng, const std::string& where,
                             OverlapResolver& resolver, const Arena& arena = kStandardArena) {
  std::shuffle(world.begin(), world.end(), rng);
  std::vector<PlayerCube> expected = world;
  document::ResolveOverlaps(expected, arena);
  std::vector<PlayerCube> kept = world;
  ResolveOverlaps(world, arena);
  ASSERT_EQ(Differs(world, expected), "") << where;
  resolver.Resolve(kept, arena);
  ASSERT_EQ(Differs(kept, expected), "") << where << ", by a resolver that kept its filing";
}

TEST(ResolveOverlapsAsDocumented, RandomScattersAndPileUps) {
  std::mt19937_64 rng(77);
  OverlapResolver resolver;
  const auto pick = [&rng](std::int32_t lo, std::int32_t hi) {
    return std::uniform_int_distribution<std::int32_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 400; ++trial) {
    const int count = pick(2, trial % 4 == 0 ? 200 : 40);
    // A scatter over the whole arena, or a pile-up in a corner or on a wall.
    const int spread = trial % 3 == 0 ? 8000 : 60000;
    std::vector<PlayerCube> world;
    std::vector<PlayerId> ids(256);
    for (int id = 0; id < 256; ++id) ids[static_cast<std::size_t>(id)] = static_cast<PlayerId>(id);
    std::shuffle(ids.begin(), ids.end(), rng);
    for (int k = 0; k < count; ++k) {
      CubeState s;
      s.x = std::min(kStandardArena.max_x(), kStandardArena.min_x() + pick(0, spread));
      s.y = std::min(kStandardArena.max_y(),
                     kStandardArena.min_y() +
                         pick(0, std::min(spread, kStandardArena.max_y() - kStandardArena.min_y())));
      s.vx = pick(-kMaxSpeed, kMaxSpeed);
      s.vy = pick(-kMaxSpeed, kMaxSpeed);
      world.push_back({ids[static_cast<std::size_t>(k)], s});
    }
    ExpectSameAsTheDocument(world, rng, "trial " + std::to_string(trial), resolver);
  }
}

// A crowd steered at random as netcube-bot steers it, stepped tick after tick: each tick's Moves, then
// both resolutions of the same world, the crowd's own resolver keeping its filing from tick to tick. In the
// standard arena and in one whose cells share buckets, the crowd starting in its corner.
TEST(ResolveOverlapsAsDocumented, ACrowdTickAfterTick) {
  std::mt19937_64 rng(78);
  constexpr std::uint8_t kKeys[] = {0,           kRight, kRight | kDown, kDown, kDown | kLeft, kLeft,
                                    kLeft | kUp, kUp,    kUp | kRight};
  for (const auto& [arena, count] :
       {std::pair{kStandardArena, 64}, std::pair{kStandardArena, 128}, std::pair{kStandardArena, 200},
        std::pair{Arena::OfUnits(1024, 576), 200}}) {
    OverlapResolver resolver;
    std::vector<PlayerCube> world;
    for (int id = 0; id < count; ++id) {
      CubeState s;
      s.x = arena.min_x() + 2600 * (id % 24);
      s.y = std::min(arena.max_y(), arena.min_y() + 2600 * (id / 24));
      world.push_back({static_cast<PlayerId>(id), s});
    }
    std::vector<std::uint8_t> keys(world.size(), 0);
    for (int tick = 0; tick < 300; ++tick) {
      for (std::size_t i = 0; i < world.size(); ++i) {
        if (rng() % 18 == 0) keys[i] = kKeys[rng() % std::size(kKeys)];
        world[i].state = Move(world[i].state, {static_cast<Seq>(tick), keys[i]}, arena);
      }
      ExpectSameAsTheDocument(world, rng,
                              std::to_string(arena.width_units()) + "x" +
                                  std::to_string(arena.height_units()) + ", " + std::to_string(count) +
                                  " cubes, tick " + std::to_string(tick),
                              resolver, arena);
      resolver.Resolve(world, arena);
    }
  }
}

// The same in other arenas: a narrow one, and one far larger than the standard, whose cells the library
// files row by row; crowds against its walls and corners as well as in the open.
TEST(ResolveOverlapsAsDocumented, OtherArenas) {
  std::mt19937_64 rng(79);
  const auto pick = [&rng](std::int32_t lo, std::int32_t hi) {
    return std::uniform_int_distribution<std::int32_t>(lo, hi)(rng);
  };
  OverlapResolver resolver;  // one for every world, of every arena
  for (const Arena arena : {Arena::OfUnits(32, 100), Arena::OfUnits(1024, 576), kLargestArena}) {
    for (int trial = 0; trial < 150; ++trial) {
      const int count = pick(2, trial % 4 == 0 ? 200 : 40);
      // A pile-up around a random spot, often on a wall or in a corner.
      const std::int32_t cx = trial % 3 == 0 ? arena.max_x() : pick(arena.min_x(), arena.max_x());
      const std::int32_t cy = trial % 5 == 0 ? arena.min_y() : pick(arena.min_y(), arena.max_y());
      const std::int32_t spread = pick(2000, 12000);
      std::vector<PlayerCube> world;
      for (int k = 0; k < count; ++k) {
        CubeState s;
        s.x = std::clamp(cx + pick(-spread, spread), arena.min_x(), arena.max_x());
        s.y = std::clamp(cy + pick(-spread, spread), arena.min_y(), arena.max_y());
        s.vx = pick(-kMaxSpeed, kMaxSpeed);
        s.vy = pick(-kMaxSpeed, kMaxSpeed);
        world.push_back({static_cast<PlayerId>(k), s});
      }
      ExpectSameAsTheDocument(world, rng,
                              std::to_string(arena.width_units()) + "x" +
                                  std::to_string(arena.height_units()) + " trial " + std::to_string(trial),
                              resolver, arena);
    }
  }
}

}  // namespace
}  // namespace netcube::sim
