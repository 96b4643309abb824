// The receiving end of a delta snapshot: the world a replay rebuilds by running the server's step again from
// the baseline (or from a world since), and the turns' button choices both ends name.
#include <algorithm>
#include <array>
#include <cassert>

#include "netcube/protocol/replay.h"

namespace netcube::protocol {
namespace {

// The 16 button values in the order turns name them: those without opposite keys first (a player's usual
// combinations: none, one key, or two keys at a right angle), each group in increasing order.
constexpr std::array<std::uint8_t, 16> kChoiceOrder = {0, 1, 2, 4, 5, 6, 8, 9, 10, 3, 7, 11, 12, 13, 14, 15};

// A path a receiver can follow: runs of at least a tick and at most kMaxMovesPerTick Moves a tick, `age`
// ticks in all (the ticks its cube was in the world; none: no Move), some Move if any run, and turns in
// order at Moves it makes.
bool PathFits(const CubePath& path, int age) noexcept {
  int ticks = 0;
  int moves = 0;
  for (const MoveRun& run : path.runs) {
    if (run.ticks < 1 || run.moves > kMaxMovesPerTick) return false;
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

// A receiver's place on each path: the run it is in, the ticks of it done, its Moves made, its next turn.
struct PathCursor {
  std::size_t run = 0;
  int run_ticks = 0;
  int moves = 0;
  std::size_t turn = 0;
};

// The Moves path `path` makes at its next tick.
int NextTickMoves(const CubePath& path, PathCursor& c) noexcept {
  if (path.runs.empty()) return 0;
  if (c.run_ticks == path.runs[c.run].ticks) {
    ++c.run;
    c.run_ticks = 0;
  }
  ++c.run_ticks;
  return path.runs[c.run].moves;
}

// Passes `ticks` ticks of `path` without making their Moves, and the turns among them.
void PassTicks(const CubePath& path, PathCursor& c, int ticks) noexcept {
  if (path.runs.empty()) return;
  while (ticks > 0) {
    if (c.run_ticks == path.runs[c.run].ticks) {
      ++c.run;
      c.run_ticks = 0;
    }
    const int n = std::min(ticks, path.runs[c.run].ticks - c.run_ticks);
    c.run_ticks += n;
    c.moves += n * path.runs[c.run].moves;
    ticks -= n;
  }
  while (c.turn < path.turns.size() && path.turns[c.turn].at < c.moves) ++c.turn;
}

// The last tick, from tick `from` and up to `last`, before the next tick at which a cube goes or comes.
int LastTickBeforeMembersChange(const DeltaSnapshot& delta, int from, int last) noexcept {
  for (const Exit& d : delta.exits) {
    if (d.at > from) last = std::min(last, d.at - 1);
  }
  for (const Arrival& a : delta.arrivals) {
    if (a.at > from) last = std::min(last, a.at - 1);
  }
  return last;
}

// The cubes that go and come before the step of tick `at`: `world` and `present` (each cube's path) changed
// alike. False when one that goes is not there, or one that comes has an id that is or lies outside `arena`.
bool ApplyMembers(const DeltaSnapshot& delta, std::size_t count, int at, const sim::Arena& arena,
                  std::size_t& next_arrival, FixedVector<sim::PlayerCube, kMaxPlayers>& world,
                  FixedVector<std::uint16_t, kMaxPlayers>& present) noexcept {
  for (const Exit& d : delta.exits) {
    if (d.at != at) continue;
    const auto* p = std::find(present.begin(), present.end(), d.path);
    if (p == present.end()) return false;
    const auto index = static_cast<std::size_t>(p - present.begin());
    world.erase(index);
    present.erase(index);
  }
  for (; next_arrival < delta.arrivals.size() && delta.arrivals[next_arrival].at == at; ++next_arrival) {
    const sim::PlayerCube& cube = delta.arrivals[next_arrival].cube;
    const auto* p = std::lower_bound(world.begin(), world.end(), cube.id,
                                     [](const sim::PlayerCube& c, sim::PlayerId id) { return c.id < id; });
    const auto index = static_cast<std::size_t>(p - world.begin());
    if ((p != world.end() && p->id == cube.id) || !arena.Contains(cube.state.x, cube.state.y) ||
        !world.insert(index, cube) ||
        !present.insert(index, static_cast<std::uint16_t>(count + next_arrival))) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool PathsFit(const DeltaSnapshot& delta) noexcept {
  if (delta.paths.size() < delta.arrivals.size()) return false;
  const std::size_t count = delta.paths.size() - delta.arrivals.size();
  for (std::size_t i = 0; i < delta.paths.size(); ++i) {
    const int from = i < count ? 1 : delta.arrivals[i - count].at;
    int end = delta.age + 1;
    for (const Exit& d : delta.exits) end = d.path == i ? d.at : end;
    if (end < from || !PathFits(delta.paths[i], end - from)) return false;
  }
  return true;
}

std::uint8_t ButtonsOfChoice(std::uint8_t held, std::uint8_t choice) noexcept {
  for (const std::uint8_t buttons : kChoiceOrder) {
    if (buttons == held) continue;
    if (choice-- == 0) return buttons;
  }
  return held;  // a choice out of range: ApplyReplay refuses it before
}

std::uint8_t ChoiceOf(std::uint8_t held, std::uint8_t buttons) noexcept {
  std::uint8_t choice = 0;
  for (const std::uint8_t b : kChoiceOrder) {
    if (b == buttons) break;
    if (b != held) ++choice;
  }
  return choice;
}

bool ApplyReplay(std::span<const sim::PlayerCube> baseline, const sim::Arena& arena,
                 const DeltaSnapshot& delta, Snapshot& out, sim::OverlapResolver& resolver,
                 std::span<const sim::PlayerCube> newer, int newer_ticks) noexcept {
  const std::size_t count = baseline.size();
  if (count + delta.arrivals.size() != delta.paths.size() || newer_ticks < 0 || newer_ticks >= delta.age)
    return false;
  assert(PathsFit(delta));
  std::array<PathCursor, kMaxReplayPaths> cursors;  // the first paths.size(), the only ones read, set here
  std::fill_n(cursors.begin(), delta.paths.size(), PathCursor{});
  FixedVector<std::uint16_t, kMaxPlayers> present;
  out.players.clear();
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0 && baseline[i].id <= baseline[i - 1].id) return false;
    out.players.push_back(baseline[i]);
    present.push_back(static_cast<std::uint16_t>(i));
  }
  std::size_t next_arrival = 0;
  // The ticks whose Moves `newer` has already: each path passes them, from one going or coming to the next
  // at a time, and then the world is `newer`, the same cubes, each where those ticks took it.
  int k = 0;
  while (k < newer_ticks) {
    if (!ApplyMembers(delta, count, k + 1, arena, next_arrival, out.players, present)) return false;
    const int last = LastTickBeforeMembersChange(delta, k + 1, newer_ticks);
    for (const std::uint16_t path : present) PassTicks(delta.paths[path], cursors[path], last - k);
    k = last;
  }
  if (newer_ticks > 0) {
    if (newer.size() != out.players.size()) return false;
    for (std::size_t i = 0; i < newer.size(); ++i) {
      if (newer[i].id != out.players[i].id) return false;
      out.players[i] = newer[i];
    }
  }
  for (; k < delta.age; ++k) {
    if (!ApplyMembers(delta, count, k + 1, arena, next_arrival, out.players, present)) return false;
    for (std::size_t i = 0; i < present.size(); ++i) {
      PathCursor& c = cursors[present[i]];
      const CubePath& path = delta.paths[present[i]];
      const int moves = NextTickMoves(path, c);
      sim::CubeState& state = out.players[i].state;
      for (int m = 0; m < moves; ++m, ++c.moves) {
        const bool turning = c.turn < path.turns.size() && path.turns[c.turn].at == c.moves;
        std::uint8_t buttons = state.buttons;
        if (turning) buttons = ButtonsOfChoice(state.buttons, path.turns[c.turn++].choice);
        sim::Advance(state, {static_cast<sim::Seq>(state.last_input + 1), buttons}, arena);
      }
    }
    if (delta.collisions) resolver.Resolve(out.players.span(), arena);
  }
  // Snapshots carry no input numbers: the world is what a full snapshot of it decodes to.
  for (sim::PlayerCube& cube : out.players) cube.state.last_input = 0;
  out.server_tick = delta.server_tick;
  out.arena = arena;
  out.has_ack = delta.has_ack;
  out.ack = delta.ack;
  out.input_lead = delta.input_lead;
  return true;
}

}  // namespace netcube::protocol
