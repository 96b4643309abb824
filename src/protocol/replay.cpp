#include "netcube/protocol/replay.h"

#include <algorithm>

namespace netcube::protocol {

// A path's runs and turns are kept in narrow fields (messages.h), which every count of ticks and Moves fits.
static_assert(kMaxMovesPerTick <= 255 && kMaxDeltaAge * kMaxMovesPerTick <= 65'536);

void MoveLog::Record(std::uint64_t tick, std::span<const sim::PlayerCube> world,
                     std::span<const std::uint32_t> generations, std::span<const sim::PlayerCube> arrivals,
                     std::span<const sim::PlayerStep> steps, bool collisions) noexcept {
  Tick& slot = ticks_[tick % kTicks];
  if (!RecordMembers(slot, world, generations, arrivals) || collisions != collisions_) {
    ++era_;
    slot.exits.clear();
    slot.arrivals.clear();
  }
  collisions_ = collisions;
  slot.tick = tick;
  slot.era = era_;
  slot.collisions = collisions;
  slot.cube_count = members_count_;
  std::fill(slot.cubes.begin(), slot.cubes.begin() + static_cast<std::ptrdiff_t>(members_count_), Step{});
  for (const sim::PlayerStep& step : steps) {
    if (step.cube < world.data() || step.cube >= world.data() + world.size() || step.inputs.empty()) continue;
    Step& cube = slot.cubes[static_cast<std::size_t>(step.cube - world.data())];
    cube.count = static_cast<std::uint16_t>(std::min<std::size_t>(step.inputs.size(), kMaxMovesPerTick + 1));
    cube.last_seq = step.inputs.back().seq;
    for (std::size_t k = 0; k < step.inputs.size(); ++k) {
      const std::uint8_t buttons = step.inputs[k].buttons;
      if (k < kLoggedButtons) {
        cube.buttons[k] = buttons;
      } else {
        cube.plain = cube.plain && buttons == cube.buttons[kLoggedButtons - 1];
      }
    }
    cube.plain = cube.plain && cube.count <= kMaxMovesPerTick;
  }
}

bool MoveLog::RecordMembers(Tick& slot, std::span<const sim::PlayerCube> world,
                            std::span<const std::uint32_t> generations,
                            std::span<const sim::PlayerCube> arrivals) noexcept {
  slot.exits.clear();
  slot.arrivals.clear();
  bool sayable = world.size() <= kMaxWholeWorldCubes && generations.size() == world.size();
  // Both lists increase by id: a member of the last tick's list not in this one (or of another generation)
  // went, one of this list not in the last came.
  std::size_t last = 0;
  std::size_t arrival = 0;
  for (std::size_t i = 0; sayable && i < world.size(); ++i) {
    const std::pair<sim::PlayerId, std::uint32_t> member{world[i].id, generations[i]};
    for (; sayable && last < members_count_ && members_[last].first < member.first; ++last) {
      sayable = slot.exits.push_back(members_[last].first);
    }
    if (last < members_count_ && members_[last] == member) {
      ++last;
      continue;
    }
    if (last < members_count_ && members_[last].first == member.first) {
      sayable = sayable && slot.exits.push_back(members_[last++].first);
    }
    while (arrival < arrivals.size() && arrivals[arrival].id < member.first) ++arrival;
    sayable = sayable && arrival < arrivals.size() && arrivals[arrival].id == member.first &&
              slot.arrivals.push_back(arrivals[arrival]);
  }
  for (; sayable && last < members_count_; ++last) sayable = slot.exits.push_back(members_[last].first);
  members_count_ = std::min(world.size(), members_.size());
  for (std::size_t i = 0; i < members_count_; ++i) {
    members_[i] = {world[i].id, i < generations.size() ? generations[i] : 0u};
  }
  return sayable;
}

const MoveLog::Tick* MoveLog::Find(std::uint64_t tick) const noexcept {
  const Tick& slot = ticks_[tick % kTicks];
  return slot.tick == tick ? &slot : nullptr;
}

bool ReplayBuilder::Start(std::uint64_t baseline_tick, std::span<const sim::PlayerCube> baseline,
                          const MoveLog& log, DeltaSnapshot& out) noexcept {
  const MoveLog::Tick* first = log.Find(baseline_tick);
  good_ = first != nullptr && baseline.size() <= kMaxWholeWorldCubes;
  if (!good_) return false;
  baseline_tick_ = reached_ = baseline_tick;
  era_ = first->era;
  count_ = baseline.size();
  present_.clear();
  for (std::size_t i = 0; i < count_; ++i) {
    const sim::CubeState& base = baseline[i].state;
    cursors_[i] = Cursor{base.last_input, 0, 0, base.buttons};
    ids_[i] = baseline[i].id;
    present_.push_back(static_cast<std::uint16_t>(i));
  }
  StartPaths(first->collisions, out);
  return true;
}

void ReplayBuilder::StartPaths(bool collisions, DeltaSnapshot& out) const noexcept {
  out.collisions = collisions;
  out.arrivals.clear();
  out.exits.clear();
  // Emptied in place: a path holds hundreds of bytes, its emptiness two counts.
  if (out.paths.size() > count_) out.paths.resize(count_);
  for (CubePath& path : out.paths) {
    path.runs.clear();
    path.turns.clear();
  }
  out.paths.resize(count_);
}

bool ReplayBuilder::StartFrom(const ReplayBuilder& older, const DeltaSnapshot& older_out,
                              std::uint64_t baseline_tick, std::span<const sim::PlayerCube> baseline,
                              DeltaSnapshot& out) noexcept {
  // Tails are carved from a replay in which no cube came or went.
  if (&older == this || &older_out == &out || !older.good_ || older.baseline_tick_ >= baseline_tick ||
      older.reached_ < baseline_tick || baseline.size() != older.count_ ||
      older_out.paths.size() != older.count_ || !older_out.arrivals.empty() || !older_out.exits.empty()) {
    return false;
  }
  for (std::size_t i = 0; i < older.count_; ++i) {
    if (baseline[i].id != older.ids_[i]) return false;
  }
  good_ = true;
  baseline_tick_ = baseline_tick;
  reached_ = older.reached_;
  era_ = older.era_;
  count_ = older.count_;
  const int skipped = static_cast<int>(baseline_tick - older.baseline_tick_);  // ticks the tails leave out
  const int since = static_cast<int>(reached_ - baseline_tick);
  StartPaths(older_out.collisions, out);
  present_ = older.present_;
  for (std::size_t i = 0; i < count_; ++i) {
    const CubePath& from = older_out.paths[i];
    CubePath& path = out.paths[i];
    ids_[i] = baseline[i].id;
    // The runs past the skipped ticks, the first cut where they end, and the Moves made before.
    int skip = skipped;
    int moves_before = 0;
    std::size_t r = 0;
    for (; r < from.runs.size() && from.runs[r].ticks <= skip; ++r) {
      skip -= from.runs[r].ticks;
      moves_before += from.runs[r].ticks * from.runs[r].moves;
    }
    if (r < from.runs.size()) moves_before += skip * from.runs[r].moves;
    int moves = 0;
    for (std::size_t k = r; k < from.runs.size(); ++k) {
      MoveRun run = from.runs[k];
      if (k == r) run.ticks = static_cast<std::uint16_t>(run.ticks - skip);
      path.runs.push_back(run);
      moves += run.ticks * run.moves;
    }
    const sim::CubeState& base = baseline[i].state;
    if (moves == 0) {
      // No Move since the baseline: Start's cursor, every tick since idle.
      path.runs.clear();
      cursors_[i] = Cursor{base.last_input, 0, since, base.buttons};
      continue;
    }
    for (const Turn& turn : from.turns) {
      if (turn.at >= moves_before)
        path.turns.push_back(Turn{static_cast<std::uint16_t>(turn.at - moves_before), turn.choice});
    }
    const Cursor& end = older.cursors_[i];  // where both paths end
    cursors_[i] = Cursor{end.last_seq, moves, path.runs[0].moves == 0 ? path.runs[0].ticks : 0, end.held};
  }
  return true;
}

bool ReplayBuilder::Extend(std::uint64_t tick, const MoveLog& log, DeltaSnapshot& out) noexcept {
  if (tick - baseline_tick_ > static_cast<std::uint64_t>(kHeldBaselines)) good_ = false;
  for (std::uint64_t t = reached_ + 1; good_ && t <= tick; ++t) {
    const MoveLog::Tick* step = log.Find(t);
    good_ = step != nullptr && step->era == era_ &&
            ExtendMembers(*step, static_cast<int>(t - baseline_tick_), out) && ExtendOne(*step, out);
    reached_ = t;
  }
  return good_;
}

bool ReplayBuilder::ExtendMembers(const MoveLog::Tick& step, int at, DeltaSnapshot& out) noexcept {
  const auto place = [this](sim::PlayerId id) {
    return static_cast<std::size_t>(
        std::lower_bound(present_.begin(), present_.end(), id,
                         [this](std::uint16_t path, sim::PlayerId wanted) { return ids_[path] < wanted; }) -
        present_.begin());
  };
  for (const sim::PlayerId id : step.exits) {
    const std::size_t p = place(id);
    if (p == present_.size() || ids_[present_[p]] != id) return false;
    // Exits in path order: a later one may name an earlier path (a cube of the baseline).
    const Exit gone{present_[p], at};
    std::size_t k = out.exits.size();
    if (!out.exits.push_back(gone)) return false;
    for (; k > 0 && out.exits[k - 1].path > gone.path; --k) out.exits[k] = out.exits[k - 1];
    out.exits[k] = gone;
    present_.erase(p);
  }
  for (const sim::PlayerCube& cube : step.arrivals) {
    const std::size_t p = place(cube.id);
    if ((p < present_.size() && ids_[present_[p]] == cube.id) || count_ == kMaxReplayPaths ||
        !out.arrivals.push_back(Arrival{at, cube}) || !out.paths.push_back(CubePath{}) ||
        !present_.insert(p, static_cast<std::uint16_t>(count_))) {
      return false;
    }
    cursors_[count_] = Cursor{cube.state.last_input, 0, 0, cube.state.buttons};
    ids_[count_] = cube.id;
    ++count_;
  }
  return present_.size() == step.cube_count;
}

bool ReplayBuilder::ExtendOne(const MoveLog::Tick& tick, DeltaSnapshot& out) noexcept {
  for (std::size_t i = 0; i < present_.size(); ++i) {
    const MoveLog::Step& step = tick.cubes[i];
    Cursor& cursor = cursors_[present_[i]];
    CubePath& path = out.paths[present_[i]];
    if (!step.plain) return false;
    if (step.count == 0 && cursor.moves == 0) {
      ++cursor.idle_ticks;  // a path with no Move names no runs
      continue;
    }
    if (path.runs.empty() && cursor.idle_ticks > 0) {
      if (!path.runs.push_back(MoveRun::Of(cursor.idle_ticks, 0))) return false;
    }
    if (path.runs.empty() || path.runs.back().moves != step.count) {
      if (!path.runs.push_back(MoveRun::Of(0, step.count))) return false;
    }
    ++path.runs.back().ticks;
    if (step.count == 0) continue;
    for (std::size_t m = 0; m < std::min<std::size_t>(step.count, MoveLog::kLoggedButtons); ++m) {
      if (step.buttons[m] == cursor.held) continue;
      const int at = cursor.moves + static_cast<int>(m);
      if (!path.turns.push_back(Turn{static_cast<std::uint16_t>(at), ChoiceOf(cursor.held, step.buttons[m])}))
        return false;
      cursor.held = step.buttons[m];
    }
    cursor.moves += step.count;
    cursor.last_seq = step.last_seq;
  }
  return true;
}

bool ReplayBuilder::Finish(std::span<const sim::PlayerCube> world, DeltaSnapshot& out) noexcept {
  if (!good_ || reached_ == baseline_tick_ || world.size() != present_.size()) return false;
  // What the log says must end where the world is (a cheap check of the bookkeeping, not of the physics).
  for (std::size_t i = 0; i < world.size(); ++i) {
    const sim::CubeState& now = world[i].state;
    const Cursor& cursor = cursors_[present_[i]];
    if (world[i].id != ids_[present_[i]] || now.last_input != cursor.last_seq || now.buttons != cursor.held) {
      good_ = false;
      return false;
    }
  }
  out.server_tick = static_cast<std::uint32_t>(reached_);
  out.age = static_cast<int>(reached_ - baseline_tick_);
  return true;
}

bool MakeReplay(std::uint64_t tick, int age, std::span<const sim::PlayerCube> baseline,
                std::span<const sim::PlayerCube> world, const MoveLog& log, DeltaSnapshot& out) noexcept {
  if (age < 1 || tick <= static_cast<std::uint64_t>(age)) return false;
  ReplayBuilder builder;
  return builder.Start(tick - static_cast<std::uint64_t>(age), baseline, log, out) &&
         builder.Extend(tick, log, out) && builder.Finish(world, out);
}

}  // namespace netcube::protocol
