#include "netcube/sim/world.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "grid.h"

namespace netcube::sim {
namespace {

// Relaxation clears ordinary contacts in a few passes; in a crowded arena a sub-unit overlap can creep along
// a chain of touching cubes for many more, and Settle is cheaper than chasing it.
constexpr int kMaxResolvePasses = 8;

// Moves `pos` by `delta` within [lo, hi]; returns the part of `delta` the wall refused.
std::int32_t ShiftWithin(std::int32_t& pos, std::int32_t delta, std::int32_t lo, std::int32_t hi) noexcept {
  const std::int32_t target = pos + delta;
  const std::int32_t clamped = std::clamp(target, lo, hi);
  pos = clamped;
  return target - clamped;
}

// Velocity toward the other cube along the push axis is stopped; velocity away from it is kept.
void StopToward(std::int32_t& vel, std::int32_t push_sign) noexcept {
  if (vel * push_sign < 0) vel = 0;
}

// Separates a and b (a has the lower id) along one axis. Returns true if they overlapped.
bool Separate(CubeState& a, CubeState& b, const Arena& arena) noexcept {
  const std::int32_t dx = b.x - a.x;
  const std::int32_t dy = b.y - a.y;
  const std::int32_t overlap_x = kCubeSize - std::abs(dx);
  const std::int32_t overlap_y = kCubeSize - std::abs(dy);
  if (overlap_x <= 0 || overlap_y <= 0) return false;

  const bool along_x = overlap_x <= overlap_y;
  std::int32_t& pa = along_x ? a.x : a.y;
  std::int32_t& pb = along_x ? b.x : b.y;
  std::int32_t& va = along_x ? a.vx : a.vy;
  std::int32_t& vb = along_x ? b.vx : b.vy;
  const std::int32_t lo = along_x ? arena.min_x() : arena.min_y();
  const std::int32_t hi = along_x ? arena.max_x() : arena.max_y();
  const std::int32_t overlap = along_x ? overlap_x : overlap_y;
  // b goes toward the side it is already on; exact coincidence sends the higher id the positive way.
  const std::int32_t sign = (along_x ? dx : dy) >= 0 ? 1 : -1;

  const std::int32_t half = overlap / 2;
  std::int32_t refused_a = ShiftWithin(pa, -sign * half, lo, hi);
  std::int32_t refused_b = ShiftWithin(pb, sign * (overlap - half) - refused_a, lo, hi);
  if (refused_b != 0) ShiftWithin(pa, -refused_b, lo, hi);
  StopToward(va, -sign);
  StopToward(vb, sign);
  return true;
}

// One relaxation pass: every overlapping pair, found from the positions at the start of the pass, pushed
// apart in id order. A push that makes a new overlap with a cube out of reach is found by the next pass.
//
// Only a pair with a cube pushed since the previous pass began can overlap: any other pair was found
// apart then (or was out of reach then and still is), and neither cube has moved since. So a pass looks
// only at pairs with an `active` cube, the cubes pushed in the previous pass plus those this pass pushes
// before reaching the pair, with the same result as looking at every pair at a fraction of the cost once
// the first pass has cleared the ordinary contacts. On return `active` holds the cubes this pass pushed.
bool SeparatePass(std::span<CubeState* const> ordered, const Grid& grid, const Arena& arena, IndexSet& active,
                  bool every_cube_active) noexcept {
  // The cubes that may have a pair with an active cube: those and their neighbours (every cube, when every
  // cube is active: the first pass).
  IndexSet visit = active;
  if (!every_cube_active) {
    for (std::size_t d = active.NextFrom(0); d < ordered.size(); d = active.NextFrom(d + 1)) {
      grid.ForEachEarlierNearby(d, [&](std::size_t j) { visit.Add(j); });
    }
  }
  IndexSet pushed;
  for (std::size_t i = visit.NextFrom(0); i < ordered.size(); i = visit.NextFrom(i + 1)) {
    grid.ForEachLaterNearby(i, [&](std::size_t j) {
      const CubeState& a = *ordered[i];
      const CubeState& b = *ordered[j];
      // One branch for the three tests: most pairs have an active cube, few overlap.
      const bool candidate =
          active.HasEither(i, j) & (std::abs(b.x - a.x) < kCubeSize) & (std::abs(b.y - a.y) < kCubeSize);
      if (!candidate) return;
      if (!Separate(*ordered[i], *ordered[j], arena)) return;
      pushed.Add(i);
      pushed.Add(j);
      active.Add(i);
      if (!active.Has(j)) {
        active.Add(j);
        grid.ForEachEarlierNearby(j, [&](std::size_t x) { visit.AddIf(x, x > i); });
        visit.Add(j);
      }
    });
  }
  active = pushed;
  return !pushed.Empty();
}

// True when a cube centred at (x, y) would overlap `other`.
bool Overlaps(std::int32_t x, std::int32_t y, const CubeState& other) noexcept {
  return (std::abs(x - other.x) < kCubeSize) & (std::abs(y - other.y) < kCubeSize);
}

// The spots at `x` for `cube` nearer than `best_cost` that overlap none of `near`: y the cube's own, then
// each cube that blocks x (in id order) just above and just below it. The nearest, if any, becomes the best.
void TryColumn(const CubeState& cube, std::int32_t x, std::span<const CubeState* const> near,
               const Arena& arena, std::int64_t& best_cost, std::int32_t& best_x,
               std::int32_t& best_y) noexcept {
  std::array<const CubeState*, kIdCount> blockers;  // the cubes a cube at this x could overlap
  std::size_t blocker_count = 0;
  for (const CubeState* other : near) {
    if (std::abs(x - other->x) < kCubeSize) blockers[blocker_count++] = other;
  }
  const std::span<const CubeState* const> column(blockers.data(), blocker_count);
  const std::int64_t cost_x = std::abs(x - cube.x);
  const auto try_y = [&](std::int32_t y) {
    if (y < arena.min_y() || y > arena.max_y()) return;
    const std::int64_t cost = cost_x + std::abs(y - cube.y);
    if (cost >= best_cost) return;
    for (const CubeState* other : column) {
      if (Overlaps(x, y, *other)) return;
    }
    best_cost = cost;
    best_x = x;
    best_y = y;
  };
  try_y(cube.y);
  for (const CubeState* other : column) {
    try_y(other->y - kCubeSize);
    try_y(other->y + kCubeSize);
  }
}

// The nearest spot (by |dx| + |dy|) for `cube` that overlaps none of `settled` (`found` false if none).
// Some nearest spot has x equal to the cube's own x or an edge of a settled cube, and y likewise among
// the cubes that block that x, so only those candidates are tried, nearest x first. Ties go to the smaller
// |dx|, then the smaller x, then the first y candidate, which depends only on the id order of `settled`.
// Only the x candidates nearer than `x_reach` are tried. True when the spot found is the nearest of all:
// no farther than `x_reach`, so that every x candidate beyond is at least as far and the whole search
// would stop before it.
bool FindNearestFreeSpotWithin(const CubeState& cube, std::span<CubeState* const> settled, const Arena& arena,
                               std::int64_t x_reach, bool& found, std::int32_t& best_x,
                               std::int32_t& best_y) noexcept {
  // The settled cubes that give a candidate within reach or block one: those less than a cube beyond it
  // (in id order, which orders the y candidates).
  std::array<const CubeState*, kIdCount> strip;
  std::size_t strip_count = 0;
  for (const CubeState* other : settled) {
    if (std::abs(std::int64_t{other->x} - cube.x) - kCubeSize < x_reach) strip[strip_count++] = other;
  }
  const std::span<const CubeState* const> near(strip.data(), strip_count);
  std::array<std::int32_t, 2 * kIdCount + 1> xs;
  std::size_t x_count = 0;
  const auto add_x = [&](std::int32_t x) {
    if (x >= arena.min_x() && x <= arena.max_x() && std::abs(x - cube.x) < x_reach) xs[x_count++] = x;
  };
  add_x(cube.x);
  for (const CubeState* other : near) {
    add_x(other->x - kCubeSize);
    add_x(other->x + kCubeSize);
  }
  // Nearest first, then the smaller x.
  std::sort(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(x_count),
            [&cube](std::int32_t a, std::int32_t b) {
              const std::int32_t da = std::abs(a - cube.x);
              const std::int32_t db = std::abs(b - cube.x);
              return da != db ? da < db : a < b;
            });

  std::int64_t best_cost = std::numeric_limits<std::int64_t>::max();
  for (std::size_t k = 0; k < x_count; ++k) {
    const std::int32_t x = xs[k];
    const std::int64_t cost_x = std::abs(x - cube.x);
    if (cost_x >= best_cost) break;  // every later x is at least as far
    if (k > 0 && x == xs[k - 1]) continue;
    TryColumn(cube, x, near, arena, best_cost, best_x, best_y);
  }
  found = best_cost != std::numeric_limits<std::int64_t>::max();
  return found && best_cost <= x_reach;
}

bool FindNearestFreeSpot(const CubeState& cube, std::span<CubeState* const> settled, const Arena& arena,
                         std::int32_t& best_x, std::int32_t& best_y) noexcept {
  // A free spot is nearly always within a few cubes: try those candidates first, all of them only if not.
  constexpr std::int64_t kNear = 2 * kCubeSize;
  bool found = false;
  if (FindNearestFreeSpotWithin(cube, settled, arena, kNear, found, best_x, best_y)) return true;
  FindNearestFreeSpotWithin(cube, settled, arena, std::numeric_limits<std::int64_t>::max(), found, best_x,
                            best_y);
  return found;
}

// Guaranteed separation for what relaxation leaves behind: in id order, each cube that overlaps one
// before it steps to the nearest spot clear of all of them, and its velocity back toward where it was
// stops. Cubes already clear do not move. After the passes only a pair with a cube `last_pushed` holds can
// overlap, so only those cubes and the later ones near them are checked against the grid, filed before
// the first step; every cube is checked against the few the settle has moved, from their own list.
void Settle(std::span<CubeState* const> ordered, const Grid& grid, const Arena& arena,
            const IndexSet& last_pushed) noexcept {
  IndexSet suspects = last_pushed;
  for (std::size_t d = last_pushed.NextFrom(0); d < ordered.size(); d = last_pushed.NextFrom(d + 1)) {
    grid.ForEachLaterNearby(d, [&](std::size_t j) { suspects.Add(j); });
  }
  std::array<std::size_t, kIdCount> moved;  // written before it is read
  std::size_t moved_count = 0;
  for (std::size_t i = 1; i < ordered.size(); ++i) {
    CubeState& cube = *ordered[i];
    const std::span<CubeState* const> settled = ordered.first(i);
    bool clear = std::none_of(moved.begin(), moved.begin() + static_cast<std::ptrdiff_t>(moved_count),
                              [&](std::size_t j) { return Overlaps(cube.x, cube.y, *ordered[j]); });
    if (suspects.Has(i))
      grid.ForEachEarlierNearby(i, [&](std::size_t j) { clear &= !Overlaps(cube.x, cube.y, *ordered[j]); });
    if (clear) continue;
    std::int32_t x = cube.x;
    std::int32_t y = cube.y;
    if (!FindNearestFreeSpot(cube, settled, arena, x, y)) continue;  // no room left in the arena
    if (x != cube.x) StopToward(cube.vx, x > cube.x ? 1 : -1);
    if (y != cube.y) StopToward(cube.vy, y > cube.y ? 1 : -1);
    cube.x = x;
    cube.y = y;
    moved[moved_count++] = i;
  }
}

// The cubes of a world in id order (not list order), which makes a resolution independent of how they are
// listed; a world is nearly always listed in id order already.
class CubesById {
 public:
  explicit CubesById(std::span<PlayerCube> cubes) noexcept : count_(cubes.size()) {
    for (std::size_t i = 0; i < count_; ++i) by_id_[i] = &cubes[i];
    const auto id_less = [](const PlayerCube* a, const PlayerCube* b) { return a->id < b->id; };
    if (!std::is_sorted(by_id_.begin(), by_id_.begin() + static_cast<std::ptrdiff_t>(count_), id_less))
      std::sort(by_id_.begin(), by_id_.begin() + static_cast<std::ptrdiff_t>(count_), id_less);
    for (std::size_t i = 0; i < count_; ++i) states_[i] = &by_id_[i]->state;
  }

  std::span<CubeState* const> states() const noexcept { return {states_.data(), count_}; }
  PlayerId IdAt(std::size_t i) const noexcept { return by_id_[i]->id; }

 private:
  std::size_t count_;
  std::array<PlayerCube*, kIdCount> by_id_;  // written before it is read
  std::array<CubeState*, kIdCount> states_;  // likewise
};

// The passes and the settle, on cubes `grid` has filed where they are.
void ResolveFiled(std::span<CubeState* const> cubes_by_id, Grid& grid, const Arena& arena) noexcept {
  IndexSet active;  // the first pass looks at every pair
  active.AddFirst(cubes_by_id.size());
  for (int pass = 0; pass < kMaxResolvePasses; ++pass) {
    if (!SeparatePass(cubes_by_id, grid, arena, active, pass == 0)) return;
    grid.Refile(cubes_by_id, active);
  }
  // Pairwise pushes share a pile-up against a wall ever more thinly and can stall a sub-unit short.
  Settle(cubes_by_id, grid, arena, active);
}

}  // namespace

void ResolveOverlaps(std::span<PlayerCube> cubes, const Arena& arena) noexcept {
  const CubesById by_id(cubes);
  Grid grid(arena);
  grid.Build(by_id.states());
  ResolveFiled(by_id.states(), grid, arena);
}

struct OverlapResolver::Filing {
  explicit Filing(const Arena& filed_in) noexcept : arena(filed_in), grid(filed_in) {}
  Arena arena;
  Grid grid;
  std::size_t count = 0;
  std::array<PlayerId, kIdCount> ids;  // the cubes filed, in id order: the first `count`
};

OverlapResolver::OverlapResolver() noexcept = default;
OverlapResolver::~OverlapResolver() = default;
OverlapResolver::OverlapResolver(const OverlapResolver& /*other*/) noexcept {}
OverlapResolver& OverlapResolver::operator=(const OverlapResolver& other) noexcept {
  if (this != &other) filing_.reset();
  return *this;
}
OverlapResolver::OverlapResolver(OverlapResolver&&) noexcept = default;
OverlapResolver& OverlapResolver::operator=(OverlapResolver&&) noexcept = default;

void OverlapResolver::Resolve(std::span<PlayerCube> cubes, const Arena& arena) noexcept {
  const CubesById by_id(cubes);
  if (filing_ == nullptr || !(filing_->arena == arena)) filing_ = std::make_unique<Filing>(arena);
  Filing& filing = *filing_;
  bool same_cubes = filing.count == cubes.size();
  for (std::size_t i = 0; same_cubes && i < filing.count; ++i) same_cubes = filing.ids[i] == by_id.IdAt(i);
  if (same_cubes) {
    filing.grid.Update(by_id.states());
  } else {
    filing.grid.Build(by_id.states());
    filing.count = cubes.size();
    for (std::size_t i = 0; i < filing.count; ++i) filing.ids[i] = by_id.IdAt(i);
  }
  ResolveFiled(by_id.states(), filing.grid, arena);
}

void StepWorld(std::span<PlayerCube> all, std::span<const PlayerStep> steps, bool collisions,
               const Arena& arena, OverlapResolver& resolver) noexcept {
  for (const PlayerStep& step : steps) {
    for (const Input& input : step.inputs) Advance(step.cube->state, input, arena);
  }
  if (collisions) resolver.Resolve(all, arena);
}

}  // namespace netcube::sim
