#include "netcube/protocol/baseline_prediction.h"

#include <algorithm>

#include "netcube/protocol/delta.h"

namespace netcube::protocol {

void BaselinePrediction::Start(std::uint64_t baseline_tick, std::span<const sim::PlayerCube> baseline,
                               std::span<const std::uint32_t> baseline_generations, std::uint64_t tick,
                               std::span<const sim::PlayerCube> world,
                               std::span<const std::uint32_t> world_generations, const TurnLog& log,
                               std::uint64_t* moves_stepped) noexcept {
  baseline_tick_ = baseline_tick;
  tick_ = tick;
  count_ = std::min(baseline.size(), cubes_.size());
  const int age = static_cast<int>(tick - baseline_tick);
  std::size_t j = 0;
  for (std::size_t i = 0; i < count_; ++i) {
    Cube& c = cubes_[i];
    const sim::CubeState& base = baseline[i].state;
    c.id = baseline[i].id;
    c.generation = baseline_generations[i];
    c.straight = PredictCube(base, age, moves_stepped);
    while (j < world.size() && world[j].id < c.id) ++j;
    c.following = j < world.size() && world[j].id == c.id && world_generations[j] == c.generation &&
                  sim::SeqDiff(world[j].state.last_input, base.last_input) >= 0;
    if (!c.following) continue;
    c.last_input = world[j].state.last_input;
    c.moves = sim::SeqDiff(c.last_input, base.last_input);
    log.TurnsSince(base, world[j], c.generation, c.moves, kMaxTurns, c.turns);
    c.followed = PredictCube(base, c.moves, c.turns.span(), moves_stepped);
  }
}

void BaselinePrediction::Advance(std::uint64_t tick, std::span<const sim::PlayerCube> world,
                                 std::span<const std::uint32_t> world_generations,
                                 std::uint64_t* moves_stepped) noexcept {
  const auto ticks = static_cast<int>(std::min<std::uint64_t>(tick - tick_, kMaxDeltaAge + 1));
  tick_ = tick;
  std::size_t j = 0;
  for (std::size_t i = 0; i < count_; ++i) {
    Cube& c = cubes_[i];
    // A straight prediction makes a Move a tick, whatever the cube did.
    if (ticks > 0) c.straight = sim::MoveRepeated(c.straight, {0, c.straight.buttons}, ticks, moves_stepped);
    if (!c.following) continue;
    while (j < world.size() && world[j].id < c.id) ++j;
    if (j < world.size() && world[j].id == c.id && world_generations[j] == c.generation) {
      Follow(c, world[j].state, moves_stepped);
    } else {
      c.following = false;
    }
  }
}

void BaselinePrediction::Follow(Cube& c, const sim::CubeState& now, std::uint64_t* moves_stepped) noexcept {
  const int moves = sim::SeqDiff(now.last_input, c.last_input);
  if (moves < 0) {
    c.following = false;
    return;
  }
  const std::uint8_t held = c.followed.buttons;
  // The Moves before the input that began holding its buttons kept the old ones. A run that began and
  // ended between two advances is not seen: the residuals carry it. A cube's first input may bear the
  // sequence it started with: new buttons, no Move counted (so the turn is at the last Move, as TurnsOf
  // places it).
  const int before =
      now.buttons == held ? moves : std::clamp(sim::SeqDiff(now.held_since, c.last_input) - 1, 0, moves);
  c.followed = sim::MoveRepeated(c.followed, {0, held}, std::min(before, moves), moves_stepped);
  if (now.buttons != held) {
    const int at = c.moves + before;
    if ((!c.turns.empty() && c.turns.back().at >= at) ||
        !c.turns.push_back({at, ChoiceOf(held, now.buttons)})) {
      c.following = false;
      return;
    }
    c.followed.buttons = now.buttons;  // as PredictCube leaves a turn with no Move after it
    c.followed = sim::MoveRepeated(c.followed, {0, now.buttons}, moves - before, moves_stepped);
  }
  c.moves += moves;
  c.last_input = now.last_input;
}

std::optional<BaselinePrediction::Path> BaselinePrediction::Followed(std::size_t i) const noexcept {
  const Cube& c = cubes_[i];
  if (!c.following) return std::nullopt;
  return Path{c.moves, c.turns.span(), &c.followed};
}

sim::CubeState PredictionCache::Predict(std::size_t i, const sim::CubeState& base, int moves,
                                        std::span<const Turn> turns, std::uint64_t* moves_stepped) noexcept {
  Entry& e = entries_[i];
  // The cached prediction continues when its turns begin the new ones and no new turn comes before its
  // Moves; else the prediction starts again from the baseline.
  std::size_t from = 0;
  bool continues = e.valid && e.base == base && e.moves <= moves && e.turns.size() <= turns.size() &&
                   std::equal(e.turns.begin(), e.turns.end(), turns.begin());
  if (continues) {
    from = e.turns.size();
    continues = from == turns.size() || turns[from].at >= e.moves;
  }
  if (!continues) {
    from = 0;
    e.valid = true;
    e.base = base;
    e.moves = 0;
    e.turns.clear();
    e.predicted = PredictCube(base, 0, {});
  }
  sim::CubeState out = e.predicted;
  std::uint8_t held = out.buttons;
  int done = e.moves;
  for (std::size_t k = from; k < turns.size(); ++k) {
    out = sim::MoveRepeated(out, {0, held}, turns[k].at - done, moves_stepped);
    done = turns[k].at;
    held = ButtonsOfChoice(held, turns[k].choice);
    out.buttons = held;  // as PredictCube leaves a turn with no Move after it
    e.turns.push_back(turns[k]);
  }
  out = sim::MoveRepeated(out, {0, held}, moves - done, moves_stepped);
  out.buttons = held;
  out.last_input = 0;
  out.held_since = 0;
  e.moves = moves;
  e.predicted = out;
  return out;
}

}  // namespace netcube::protocol
