// Delta snapshots' two ends: what the server says of each cube since a baseline (MakeDelta, with the turns
// it logged), and the world the client rebuilds from it (ApplyDelta). Both predict with PredictCube.
#include "netcube/protocol/delta.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>

#include "delta_wire.h"
#include "netcube/protocol/baseline_prediction.h"
#include "netcube/protocol/replay.h"
#include "netcube/protocol/snapshot_writer.h"
#include "turns.h"

namespace netcube::protocol {
namespace {

// The 16 button values in the order turns name them: those without opposite keys first (a player's usual
// combinations: none, one key, or two keys at a right angle), each group in increasing order.
constexpr std::array<std::uint8_t, 16> kChoiceOrder = {0, 1, 2, 4, 5, 6, 8, 9, 10, 3, 7, 11, 12, 13, 14, 15};

// The bits one baseline cube's fate takes in `delta` (its age and residual orders).
std::size_t ChangeBits(const CubeDelta& cube, const DeltaSnapshot& delta) noexcept {
  BitMeasurer measurer;
  int turn_budget = kMaxDeltaTurns;
  delta_wire::SerializeCubeDelta(measurer, const_cast<CubeDelta&>(cube), delta.age, delta.position_order,
                                 delta.velocity_order, turn_budget);
  return measurer.BitsWritten();
}

}  // namespace

std::uint8_t ButtonsOfChoice(std::uint8_t held, std::uint8_t choice) noexcept {
  for (const std::uint8_t buttons : kChoiceOrder) {
    if (buttons == held) continue;
    if (choice-- == 0) return buttons;
  }
  return held;  // a choice out of range: ApplyDelta refuses it before
}

std::uint8_t ChoiceOf(std::uint8_t held, std::uint8_t buttons) noexcept {
  std::uint8_t choice = 0;
  for (const std::uint8_t b : kChoiceOrder) {
    if (b == buttons) break;
    if (b != held) ++choice;
  }
  return choice;
}

sim::CubeState PredictCube(const sim::CubeState& baseline, int moves, std::span<const Turn> turns,
                           std::uint64_t* moves_stepped) noexcept {
  sim::CubeState out = baseline;
  std::uint8_t held = baseline.buttons;
  int done = 0;
  for (const Turn& turn : turns) {
    out = sim::MoveRepeated(out, {0, held}, turn.at - done, moves_stepped);
    done = turn.at;
    held = ButtonsOfChoice(held, turn.choice);
  }
  out = sim::MoveRepeated(out, {0, held}, moves - done, moves_stepped);
  out.buttons = held;
  out.last_input = 0;
  out.held_since = 0;
  return out;
}

namespace {

// The prediction `p` with the axes `d` holds put back where `base` had them, at rest.
sim::CubeState Hold(sim::CubeState p, const sim::CubeState& base, const CubeDelta& d) noexcept {
  if (d.hold_x) {
    p.x = base.x;
    p.vx = 0;
  }
  if (d.hold_y) {
    p.y = base.y;
    p.vy = 0;
  }
  return p;
}

bool ResidualsFit(const CubeDelta& d) noexcept {
  return std::abs(d.dx) <= kMaxPositionResidual && std::abs(d.dy) <= kMaxPositionResidual &&
         std::abs(d.dvx) <= kMaxVelocityResidual && std::abs(d.dvy) <= kMaxVelocityResidual;
}

// What `actual` (a change of `base`, `d`'s Moves and turns later) differs from their prediction `p` by:
// each axis moved, or held where the baseline had it, whichever leaves the smaller residuals. False when
// that is beyond a delta's reach. `turn_budget`, what the delta has left of kMaxDeltaTurns, pays for the
// turns.
bool Residuals(const sim::CubeState& base, const sim::CubeState& actual, const sim::CubeState& p,
               int& turn_budget, CubeDelta& d) noexcept {
  const auto width = [](std::int32_t a, std::int32_t b) {
    return std::bit_width(static_cast<std::uint32_t>(std::abs(a))) +
           std::bit_width(static_cast<std::uint32_t>(std::abs(b)));
  };
  d.hold_x = width(actual.x - base.x, actual.vx) < width(actual.x - p.x, actual.vx - p.vx);
  d.hold_y = width(actual.y - base.y, actual.vy) < width(actual.y - p.y, actual.vy - p.vy);
  const sim::CubeState held = Hold(p, base, d);
  d.dx = actual.x - held.x;
  d.dy = actual.y - held.y;
  d.dvx = actual.vx - held.vx;
  d.dvy = actual.vy - held.vy;
  if (!ResidualsFit(d)) return false;
  turn_budget -= static_cast<int>(d.turns.size());
  return true;
}

// Every cube can name at least its last turn: the budget is one turn per cube.
std::size_t MostTurns(int turn_budget) noexcept {
  return static_cast<std::size_t>(std::clamp(turn_budget, 1, kMaxTurns));
}

// How `actual` differs from `base` `age` ticks later: the Moves it made, read from its bookkeeping, its
// turns (every one the log kept, else the last), then what that prediction misses. `straight`, when made,
// is PredictCube(base, age): a change without a turn (a push, say) reuses it.
bool DescribeChange(const sim::CubeState& base, const sim::PlayerCube& actual, std::uint32_t generation,
                    int age, const sim::CubeState* straight, const TurnLog* log, int& turn_budget,
                    CubeDelta& d, std::uint64_t* moves_stepped) noexcept {
  d.op = DeltaOp::kChanged;
  d.moves = sim::SeqDiff(actual.state.last_input, base.last_input);
  if (d.moves < 0 || std::abs(d.moves - age) > kMaxMovesOffset) d.moves = age;  // e.g. a new sequence
  if (log != nullptr) {
    log->TurnsSince(base, actual, generation, d.moves, MostTurns(turn_budget), d.turns);
  } else {
    const RunStart last{actual.state.held_since, actual.state.buttons};
    TurnsOf(base, actual.state, d.moves, std::span(&last, 1), MostTurns(turn_budget), d.turns);
  }
  const sim::CubeState p = straight != nullptr && d.turns.empty() && d.moves == age
                               ? *straight
                               : PredictCube(base, d.moves, d.turns.span(), moves_stepped);
  return Residuals(base, actual.state, p, turn_budget, d);
}

// The same from the Moves and turns the baseline's kept predictions followed the cube through, with
// their prediction: no Move run. False also when they are not a delta's to name.
bool DescribeFollowed(const sim::CubeState& base, const sim::CubeState& actual,
                      const std::optional<BaselinePrediction::Path>& path, int age, int& turn_budget,
                      CubeDelta& d) noexcept {
  if (!path || path->state->buttons != actual.buttons || path->moves < 0 ||
      std::abs(path->moves - age) > kMaxMovesOffset || path->turns.size() > MostTurns(turn_budget) ||
      (!path->turns.empty() && path->turns.back().at > path->moves)) {
    return false;
  }
  d.op = DeltaOp::kChanged;
  d.moves = path->moves;
  for (const Turn& turn : path->turns) d.turns.push_back(turn);
  return Residuals(base, actual, *path->state, turn_budget, d);
}

// The bits of a residual at Exp-Golomb order `order` (the code of SerializeResidual).
int ResidualBits(std::int32_t value, int order) noexcept {
  if (value == 0) return 1;
  const auto m = static_cast<std::uint32_t>(std::abs(value)) - 1u;
  return 2 + 2 * static_cast<int>(std::bit_width((m >> order) + 1u)) - 1 + order;
}

// The order that codes these residuals (two a cube) in the fewest bits.
template <class Pick>
std::uint8_t CheapestOrder(std::span<const CubeDelta> cubes, Pick&& pick) noexcept {
  std::array<int, kMaxResidualOrder + 1> bits{};
  for (const CubeDelta& d : cubes) {
    if (d.dx == 0 && d.dy == 0 && d.dvx == 0 && d.dvy == 0) continue;
    const auto [a, b] = pick(d);
    for (int k = 0; k <= kMaxResidualOrder; ++k)
      bits[static_cast<std::size_t>(k)] += ResidualBits(a, k) + ResidualBits(b, k);
  }
  return static_cast<std::uint8_t>(std::min_element(bits.begin(), bits.end()) - bits.begin());
}

void ChooseOrders(DeltaSnapshot& delta) noexcept {
  delta.position_order =
      CheapestOrder(delta.baseline.span(), [](const CubeDelta& d) { return std::pair(d.dx, d.dy); });
  delta.velocity_order =
      CheapestOrder(delta.baseline.span(), [](const CubeDelta& d) { return std::pair(d.dvx, d.dvy); });
}

// Kept predictions serve a delta only when they are its baseline's, advanced to its tick.
bool PredictionFits(const BaselinePrediction* predicted, std::uint32_t server_tick, int age,
                    std::size_t cubes) noexcept {
  return predicted != nullptr && static_cast<std::uint32_t>(predicted->tick()) == server_tick &&
         predicted->tick() - predicted->baseline_tick() == static_cast<std::uint64_t>(age) &&
         predicted->size() == cubes;
}

// A predicted delta at `server_tick`, `age` ticks from its baseline, with no cube yet.
void StartPredictedDelta(std::uint32_t server_tick, int age, DeltaSnapshot& out) noexcept {
  out.server_tick = server_tick;
  out.age = age;
  out.replay = false;
  out.collisions = true;
  out.paths.clear();
  out.baseline.clear();
  out.joined.clear();
}

// Each changed cube in the fewest bits: its turns, or only its last (a pushed cube's earlier turns may buy
// nothing; an unpushed one's are exact; not with kept predictions, `last_turn_allowed` false: the last turn
// alone would predict from the baseline), or whole (marked in `whole`). True when a cube's code changed.
bool Recode(std::span<const sim::PlayerCube> world, std::span<const std::uint32_t> world_generations, int age,
            std::span<const sim::PlayerCube> baseline, const std::array<std::uint16_t, kMaxPlayers>& kept,
            bool last_turn_allowed, std::uint64_t* moves_stepped, std::array<bool, kMaxPlayers>& whole,
            DeltaSnapshot& out) noexcept {
  const std::size_t whole_bits = SnapshotWriter::FullSharedBits(1) - SnapshotWriter::FullSharedBits(0);
  const std::size_t left_bits = ChangeBits(CubeDelta{DeltaOp::kLeft}, out);
  bool recoded = false;
  for (std::size_t i = 0; i < out.baseline.size(); ++i) {
    CubeDelta& d = out.baseline[i];
    if (d.op != DeltaOp::kChanged) continue;
    std::size_t bits = ChangeBits(d, out);
    const bool pushed = d.hold_x || d.hold_y || d.dx != 0 || d.dy != 0 || d.dvx != 0 || d.dvy != 0;
    if (d.turns.size() > 1 && pushed && last_turn_allowed) {
      CubeDelta last;
      int one_turn = 1;
      if (DescribeChange(baseline[i].state, world[kept[i]], world_generations[kept[i]], age, nullptr, nullptr,
                         one_turn, last, moves_stepped) &&
          ChangeBits(last, out) < bits) {
        d = last;
        bits = ChangeBits(d, out);
        recoded = true;
      }
    }
    if (bits > left_bits + whole_bits) {
      d = CubeDelta{DeltaOp::kLeft};
      whole[kept[i]] = true;
      recoded = true;
    }
  }
  return recoded;
}

}  // namespace

bool MakeDelta(std::uint32_t server_tick, std::span<const sim::PlayerCube> world,
               std::span<const std::uint32_t> world_generations, int age,
               std::span<const sim::PlayerCube> baseline, std::span<const std::uint32_t> baseline_generations,
               DeltaSnapshot& out, std::uint64_t* moves_stepped, const TurnLog* turns,
               const BaselinePrediction* predicted) noexcept {
  if (age < 1 || age > kMaxDeltaAge || world.size() != world_generations.size() ||
      baseline.size() != baseline_generations.size() || world.size() > kMaxPlayers ||
      baseline.size() > kMaxPlayers) {
    return false;
  }
  if (!PredictionFits(predicted, server_tick, age, baseline.size())) predicted = nullptr;
  StartPredictedDelta(server_tick, age, out);
  // Both lists are in increasing id order: merge them. A cube of the world not matched to a baseline cube of
  // the same player (same id and generation) joined; one the delta cannot describe, or describes in more
  // bits than the whole cube takes, is said to leave and join again.
  std::array<bool, kMaxPlayers> whole{};          // per cube of the world: sent in the joined list
  std::array<std::uint16_t, kMaxPlayers> kept{};  // per baseline cube kept: its index in the world
  std::size_t j = 0;
  // One turn a baseline cube is always left, whatever the cubes before it took.
  int turn_budget = kMaxDeltaTurns - static_cast<int>(baseline.size());
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    const sim::PlayerId id = baseline[i].id;
    ++turn_budget;
    for (; j < world.size() && world[j].id < id; ++j) whole[j] = true;
    CubeDelta d;
    if (j < world.size() && world[j].id == id && world_generations[j] == baseline_generations[i]) {
      const sim::CubeState& base = baseline[i].state;
      const sim::CubeState& actual = world[j].state;
      kept[i] = static_cast<std::uint16_t>(j);
      // A cube whose buttons changed turned: its straight prediction is of no use.
      std::optional<sim::CubeState> straight;
      if (actual.buttons == base.buttons)
        straight = predicted != nullptr ? predicted->Straight(i) : PredictCube(base, age, moves_stepped);
      const auto describe = [&] {
        return predicted != nullptr
                   ? DescribeFollowed(base, actual, predicted->Followed(i), age, turn_budget, d)
                   : DescribeChange(base, world[j], world_generations[j], age,
                                    straight ? &*straight : nullptr, turns, turn_budget, d, moves_stepped);
      };
      if (!(straight && sim::SamePhysics(*straight, actual)) && !describe()) {
        d = CubeDelta{DeltaOp::kLeft};
        whole[j] = true;
      }
      ++j;
    } else {
      d.op = DeltaOp::kLeft;
    }
    out.baseline.push_back(d);
  }
  for (; j < world.size(); ++j) whole[j] = true;
  ChooseOrders(out);
  if (Recode(world, world_generations, age, baseline, kept, predicted == nullptr, moves_stepped, whole, out))
    ChooseOrders(out);
  for (std::size_t k = 0; k < world.size(); ++k) {
    if (whole[k]) out.joined.push_back(world[k]);
  }
  return true;
}

namespace {

bool InRange(const sim::CubeState& s) noexcept {
  return s.x >= sim::kMinX && s.x <= sim::kMaxX && s.y >= sim::kMinY && s.y <= sim::kMaxY &&
         std::abs(s.vx) <= sim::kMaxSpeed && std::abs(s.vy) <= sim::kMaxSpeed &&
         s.buttons <= sim::kButtonMask;
}

bool AppendIncreasing(FixedVector<sim::PlayerCube, kMaxPlayers>& out, const sim::PlayerCube& cube) noexcept {
  if (!out.empty() && out.back().id >= cube.id) return false;
  return InRange(cube.state) && out.push_back(cube);
}

// The decoder's ranges, for deltas that were not decoded.
bool ChangeInRange(const CubeDelta& d, int age) noexcept {
  if (d.moves < 0 || std::abs(d.moves - age) > kMaxMovesOffset || !ResidualsFit(d)) return false;
  int first = 0;
  for (const Turn& turn : d.turns) {
    if (turn.at < first || turn.at > d.moves || turn.choice >= kTurnChoices) return false;
    first = turn.at + 1;
  }
  return true;
}

}  // namespace

bool ApplyDelta(std::span<const sim::PlayerCube> baseline, const DeltaSnapshot& delta, Snapshot& out,
                PredictionCache* cache) noexcept {
  const auto predict = [cache](std::size_t i, const sim::CubeState& base, int moves,
                               std::span<const Turn> turns) {
    return cache != nullptr ? cache->Predict(i, base, moves, turns) : PredictCube(base, moves, turns);
  };
  if (delta.replay) return ApplyReplay(baseline, delta, out);
  if (baseline.size() != delta.baseline.size()) return false;
  out.server_tick = delta.server_tick;
  out.has_ack = delta.has_ack;
  out.ack = delta.ack;
  out.input_lead = delta.input_lead;
  out.players.clear();
  std::size_t j = 0;
  std::size_t turns = 0;
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    const CubeDelta& d = delta.baseline[i];
    if (d.op == DeltaOp::kLeft) continue;
    turns += d.turns.size();
    if (turns > kMaxDeltaTurns) return false;
    const sim::CubeState& base = baseline[i].state;
    // A cube is predicted, or changed: only the prediction it needs is made.
    sim::PlayerCube cube{baseline[i].id, {}};
    if (d.op != DeltaOp::kChanged) {
      cube.state = predict(i, base, delta.age, {});
    } else {
      if (!ChangeInRange(d, delta.age)) return false;
      cube.state = Hold(predict(i, base, d.moves, d.turns.span()), base, d);
      cube.state.x += d.dx;
      cube.state.y += d.dy;
      cube.state.vx += d.dvx;
      cube.state.vy += d.dvy;
    }
    while (j < delta.joined.size() && delta.joined[j].id < cube.id) {
      if (!AppendIncreasing(out.players, delta.joined[j++])) return false;
    }
    if (!AppendIncreasing(out.players, cube)) return false;  // also refuses a joined cube of the same id
  }
  while (j < delta.joined.size()) {
    if (!AppendIncreasing(out.players, delta.joined[j++])) return false;
  }
  return true;
}

}  // namespace netcube::protocol
