#include "netcube/protocol/replay.h"

#include <algorithm>

#include "netcube/protocol/delta.h"

namespace netcube::protocol {

void MoveLog::Record(std::uint64_t tick, std::span<const sim::PlayerCube> world,
                     std::span<const std::uint32_t> generations, std::span<const sim::PlayerStep> steps,
                     bool collisions) noexcept {
  bool same = collisions == collisions_ && world.size() == members_count_ && world.size() <= kMaxPlayers;
  for (std::size_t i = 0; same && i < world.size(); ++i) {
    same = members_[i] == std::pair(world[i].id, i < generations.size() ? generations[i] : 0u);
  }
  if (!same) {
    ++era_;
    collisions_ = collisions;
    members_count_ = std::min(world.size(), members_.size());
    for (std::size_t i = 0; i < members_count_; ++i) {
      members_[i] = {world[i].id, i < generations.size() ? generations[i] : 0u};
    }
  }
  Tick& slot = ticks_[tick % kTicks];
  slot.tick = tick;
  slot.era = era_;
  slot.collisions = collisions;
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

const MoveLog::Tick* MoveLog::Find(std::uint64_t tick) const noexcept {
  const Tick& slot = ticks_[tick % kTicks];
  return slot.tick == tick ? &slot : nullptr;
}

bool ReplayBuilder::Start(std::uint64_t baseline_tick, std::span<const sim::PlayerCube> baseline,
                          const MoveLog& log, DeltaSnapshot& out) noexcept {
  const MoveLog::Tick* first = log.Find(baseline_tick);
  good_ = first != nullptr && baseline.size() <= kMaxPlayers;
  if (!good_) return false;
  baseline_tick_ = reached_ = baseline_tick;
  era_ = first->era;
  count_ = baseline.size();
  for (std::size_t i = 0; i < count_; ++i) {
    const sim::CubeState& base = baseline[i].state;
    cursors_[i] = Cursor{base.last_input, 0, 0, base.buttons};
    ids_[i] = baseline[i].id;
  }
  StartPaths(first->collisions, out);
  return true;
}

void ReplayBuilder::StartPaths(bool collisions, DeltaSnapshot& out) const noexcept {
  out.replay = true;
  out.collisions = collisions;
  out.baseline.clear();
  out.joined.clear();
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
  if (&older == this || &older_out == &out || !older.good_ || older.baseline_tick_ >= baseline_tick ||
      older.reached_ < baseline_tick || baseline.size() != older.count_ ||
      older_out.paths.size() != older.count_) {
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
      if (k == r) run.ticks -= skip;
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
      if (turn.at >= moves_before) path.turns.push_back(Turn{turn.at - moves_before, turn.choice});
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
    good_ = step != nullptr && step->era == era_ && ExtendOne(*step, out);
    reached_ = t;
  }
  return good_;
}

bool ReplayBuilder::ExtendOne(const MoveLog::Tick& tick, DeltaSnapshot& out) noexcept {
  for (std::size_t i = 0; i < count_; ++i) {
    const MoveLog::Step& step = tick.cubes[i];
    Cursor& cursor = cursors_[i];
    CubePath& path = out.paths[i];
    if (!step.plain) return false;
    if (step.count == 0 && cursor.moves == 0) {
      ++cursor.idle_ticks;  // a path with no Move names no runs
      continue;
    }
    if (path.runs.empty() && cursor.idle_ticks > 0) {
      if (!path.runs.push_back(MoveRun{cursor.idle_ticks, 0})) return false;
    }
    if (path.runs.empty() || path.runs.back().moves != step.count) {
      if (!path.runs.push_back(MoveRun{0, step.count})) return false;
    }
    ++path.runs.back().ticks;
    if (step.count == 0) continue;
    for (std::size_t m = 0; m < std::min<std::size_t>(step.count, MoveLog::kLoggedButtons); ++m) {
      if (step.buttons[m] == cursor.held) continue;
      const int at = cursor.moves + static_cast<int>(m);
      if (!path.turns.push_back(Turn{at, ChoiceOf(cursor.held, step.buttons[m])})) return false;
      cursor.held = step.buttons[m];
    }
    cursor.moves += step.count;
    cursor.last_seq = step.last_seq;
  }
  return true;
}

bool ReplayBuilder::Finish(std::span<const sim::PlayerCube> world, DeltaSnapshot& out) noexcept {
  if (!good_ || reached_ == baseline_tick_ || world.size() != count_) return false;
  // What the log says must end where the world is (a cheap check of the bookkeeping, not of the physics).
  for (std::size_t i = 0; i < count_; ++i) {
    const sim::CubeState& now = world[i].state;
    const Cursor& cursor = cursors_[i];
    if (world[i].id != ids_[i] || now.last_input != cursor.last_seq || now.buttons != cursor.held) {
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

namespace {

// A path a receiver can follow: runs of at least a tick and at most kMaxMovesPerTick Moves a tick, `age`
// ticks in all (none: no Move), some Move if any run, and turns in order at Moves it makes.
bool PathFits(const CubePath& path, int age) noexcept {
  int ticks = 0;
  int moves = 0;
  for (const MoveRun& run : path.runs) {
    if (run.ticks < 1 || run.moves < 0 || run.moves > kMaxMovesPerTick) return false;
    ticks += run.ticks;
    moves += run.ticks * run.moves;
  }
  if ((path.runs.empty() ? age : ticks) != age || (!path.runs.empty() && moves == 0)) return false;
  int first = 0;
  for (const Turn& turn : path.turns) {
    if (turn.at < first || turn.at >= moves || turn.choice >= kTurnChoices) return false;
    first = turn.at + 1;
  }
  return true;
}

}  // namespace

bool ApplyReplay(std::span<const sim::PlayerCube> from, int from_ticks, const DeltaSnapshot& delta,
                 Snapshot& out) noexcept {
  if (!delta.replay || from.size() != delta.paths.size() || from_ticks < 0 || from_ticks >= delta.age) {
    return false;
  }
  // Each cube's place on its path: the run it is in, the ticks of it done, its Moves made, its next turn.
  struct Cursor {
    std::size_t run = 0;
    int run_ticks = 0;
    int moves = 0;
    std::size_t turn = 0;
  };
  std::array<Cursor, kMaxPlayers> cursors{};
  out.players.clear();
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (!PathFits(delta.paths[i], delta.age) || (i > 0 && from[i].id <= from[i - 1].id)) return false;
    out.players.push_back(from[i]);
  }
  const auto tick_moves = [&delta](std::size_t i, Cursor& c) {
    const CubePath& path = delta.paths[i];
    if (path.runs.empty()) return 0;
    if (c.run_ticks == path.runs[c.run].ticks) {
      ++c.run;
      c.run_ticks = 0;
    }
    ++c.run_ticks;
    return path.runs[c.run].moves;
  };
  const std::span<sim::PlayerCube> world = out.players.span();
  for (int k = 0; k < delta.age; ++k) {
    for (std::size_t i = 0; i < world.size(); ++i) {
      Cursor& c = cursors[i];
      const CubePath& path = delta.paths[i];
      const int count = tick_moves(i, c);
      sim::CubeState& state = world[i].state;
      for (int m = 0; m < count; ++m, ++c.moves) {
        const bool turning = c.turn < path.turns.size() && path.turns[c.turn].at == c.moves;
        if (k < from_ticks) {
          c.turn += turning ? 1 : 0;  // the world `from` has these Moves already
          continue;
        }
        std::uint8_t buttons = state.buttons;
        if (turning) buttons = ButtonsOfChoice(state.buttons, path.turns[c.turn++].choice);
        state = sim::Move(state, {static_cast<sim::Seq>(state.last_input + 1), buttons});
      }
    }
    if (k >= from_ticks && delta.collisions) sim::ResolveOverlaps(world);
  }
  // Snapshots carry no input numbers: the world is what a full snapshot of it decodes to.
  for (sim::PlayerCube& cube : world) cube.state.last_input = cube.state.held_since = 0;
  out.server_tick = delta.server_tick;
  out.has_ack = delta.has_ack;
  out.ack = delta.ack;
  out.input_lead = delta.input_lead;
  return true;
}

}  // namespace netcube::protocol
