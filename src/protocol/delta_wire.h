#pragma once
// The wire form of a delta snapshot's baseline cubes (docs/PROTOCOL.md, "10 DeltaSnapshot"): each cube's
// fate, its turns and its residuals, or in a replay delta its path. Private to the protocol library:
// messages.cpp's Serialize of a DeltaSnapshot runs it for the writer, the reader and the measurer.
#include <algorithm>
#include <bit>
#include <cstdint>

#include "netcube/protocol/bitstream.h"
#include "netcube/protocol/messages.h"

namespace netcube::protocol::delta_wire {

// A residual of Exp-Golomb order k: `0` for 0; else `1`, the sign (1 = negative), and m = |value| - 1 as
// q = (m >> k) + 1 in bit_width(q) - 1 zero bits then q itself, then m's low k bits. Small residuals, the
// common ones at order 0, take 1, 3 or 5 bits; a larger order suits an old baseline's larger ones. The
// largest the simulation can produce (|value| <= max_abs) bounds the code, so a reader never counts more
// zeros than that.
template <class Stream>
bool SerializeResidual(Stream& stream, std::int32_t& value, std::int32_t max_abs, int order) {
  bool nonzero = value != 0;
  if (!SerializeBool(stream, nonzero)) return false;
  if (!nonzero) {
    if constexpr (Stream::kReading) value = 0;
    return true;
  }
  bool negative = value < 0;
  if (!SerializeBool(stream, negative)) return false;
  const auto max_m = static_cast<std::uint32_t>(max_abs - 1);
  const int max_zeros = static_cast<int>(std::bit_width((max_m >> order) + 1)) - 1;
  if constexpr (Stream::kWriting) {
    const std::uint32_t m = static_cast<std::uint32_t>(negative ? -value : value) - 1u;
    if (value < -max_abs || value > max_abs) return false;
    const std::uint32_t q = (m >> order) + 1u;
    const int width = static_cast<int>(std::bit_width(q));
    return stream.Bits(0, width - 1) && stream.Bits(q, width) && stream.Bits(m & ((1u << order) - 1u), order);
  } else {
    int zeros = 0;
    std::uint32_t bit = 0;
    while (true) {
      if (!stream.Bits(bit, 1)) return false;
      if (bit != 0) break;
      if (++zeros > max_zeros) return false;
    }
    std::uint32_t rest = 0;
    std::uint32_t low = 0;
    if (!stream.Bits(rest, zeros) || !stream.Bits(low, order)) return false;
    const std::uint64_t m = ((std::uint64_t{(1u << zeros) | rest} - 1u) << order) | low;
    if (m > max_m) return false;
    value = negative ? -static_cast<std::int32_t>(m + 1) : static_cast<std::int32_t>(m + 1);
    return true;
  }
}

// A turn's choice: 3 bits for choices 0..6; the value 7 is followed by 3 more bits for choices 7..14.
template <class Stream>
bool SerializeChoice(Stream& stream, std::uint8_t& choice) {
  std::uint8_t head = std::min<std::uint8_t>(choice, 7);
  if (!SerializeInt(stream, head, 0, 7)) return false;
  if (head < 7) {
    choice = head;
    return true;
  }
  std::uint8_t rest = choice - 7;
  if (!SerializeInt(stream, rest, 0, kTurnChoices - 1 - 7)) return false;
  choice = static_cast<std::uint8_t>(7 + rest);
  return true;
}

// A writer's record of how long a code stays the same as ticks pass: an int[lo, hi] field whose hi grows
// by one a tick keeps its width, and so its bits, for TicksKeepingWidth(lo, hi) more ticks.
constexpr int TicksKeepingWidth(std::int64_t lo, std::int64_t hi) noexcept {
  return static_cast<int>((std::int64_t{1} << BitsRequired(lo, hi)) - (hi - lo));
}
template <class Stream>
void KeepWidth(int* widths_kept, std::int64_t lo, std::int64_t hi) noexcept {
  if constexpr (Stream::kWriting) {
    if (widths_kept != nullptr) *widths_kept = std::min(*widths_kept, TicksKeepingWidth(lo, hi));
  }
}

// A change's turns: `turned`, then each turn's choice and Move (int[first Move it may be, n]), each but the
// last followed by `1` and the last by `0`; no such bit after the kMost-th turn (a change's kMaxTurns, a
// path's kMaxPathTurns) or a turn at Move n.
// `budget` is what is left of the delta's kMaxDeltaTurns (a replay path's: its kMaxPathTurns).
// `widths_kept`, when given to a writer, is lowered as for a path (see SerializeCubePath), n growing.
template <class Stream, std::size_t kMost>
bool SerializeTurns(Stream& stream, FixedVector<Turn, kMost>& turns, int moves, int& budget,
                    int* widths_kept = nullptr) {
  bool more = !turns.empty();
  if (!SerializeBool(stream, more)) return false;
  if constexpr (Stream::kReading) turns.clear();
  int first = 0;
  for (std::size_t k = 0; more; ++k) {
    if (--budget < 0) return false;
    if constexpr (Stream::kReading) turns.push_back(Turn{});
    Turn& turn = turns[k];
    if (!SerializeChoice(stream, turn.choice) || !SerializeInt(stream, turn.at, first, moves)) return false;
    KeepWidth<Stream>(widths_kept, first, moves);
    first = turn.at + 1;
    if (k + 1 == kMost || turn.at == moves) {
      if constexpr (Stream::kWriting) {
        if (k + 1 != turns.size()) return false;  // no room for the turns after it
      }
      break;
    }
    more = k + 1 < turns.size();
    if (!SerializeBool(stream, more)) return false;
  }
  return true;
}

// One baseline cube's fate: `0` as predicted, `10` changed, `11` left. A change says how many Moves the
// cube made (as an offset from the age), its turns, then `0` when the prediction is exact or `1`, which
// axes are held, and the four residuals.
template <class Stream>
bool SerializeCubeDelta(Stream& stream, CubeDelta& d, int age, int position_order, int velocity_order,
                        int& turn_budget) {
  bool changed_or_left = d.op != DeltaOp::kPredicted;
  if (!SerializeBool(stream, changed_or_left)) return false;
  bool left = d.op == DeltaOp::kLeft;
  if (changed_or_left && !SerializeBool(stream, left)) return false;
  if constexpr (Stream::kReading) {
    d = CubeDelta{};
    d.op = !changed_or_left ? DeltaOp::kPredicted : left ? DeltaOp::kLeft : DeltaOp::kChanged;
  }
  if (d.op != DeltaOp::kChanged) return d == CubeDelta{d.op};  // canonical: nothing unsent is set
  std::int32_t offset = d.moves - age;
  if (!SerializeResidual(stream, offset, kMaxMovesOffset, 0)) return false;
  if constexpr (Stream::kReading) {
    d.moves = age + offset;
    if (d.moves < 0) return false;
  }
  if (!SerializeTurns(stream, d.turns, d.moves, turn_budget)) return false;
  bool pushed = d.hold_x || d.hold_y || d.dx != 0 || d.dy != 0 || d.dvx != 0 || d.dvy != 0;
  if (!SerializeBool(stream, pushed)) return false;
  // Canonical: a change that changes nothing is a prediction.
  if (!pushed && d.turns.empty() && d.moves == age) return false;
  if (!pushed) return true;
  if (!SerializeBool(stream, d.hold_x) || !SerializeBool(stream, d.hold_y) ||
      !SerializeResidual(stream, d.dx, kMaxPositionResidual, position_order) ||
      !SerializeResidual(stream, d.dy, kMaxPositionResidual, position_order) ||
      !SerializeResidual(stream, d.dvx, kMaxVelocityResidual, velocity_order) ||
      !SerializeResidual(stream, d.dvy, kMaxVelocityResidual, velocity_order)) {
    return false;
  }
  // Canonical: a push says something.
  return d.hold_x || d.hold_y || d.dx != 0 || d.dy != 0 || d.dvx != 0 || d.dvy != 0;
}

// A departure's Moves a tick (never one: that is the usual): `1` for none, `01` for two, else `00` and
// int[3, kMaxMovesPerTick].
template <class Stream>
bool SerializeDepartureMoves(Stream& stream, int& moves) {
  for (const int common : {0, 2}) {
    bool is = moves == common;
    if (!SerializeBool(stream, is)) return false;
    if (is) {
      moves = common;
      return true;
    }
  }
  return SerializeInt(stream, moves, 3, kMaxMovesPerTick);
}

// Appends `run` to a path's runs (read) or checks it is the next one (written), keeping them canonical:
// two runs in a row differ, and a tick of no Move then a tick of two is a late, not two departures.
template <class Stream>
bool NextRun(CubePath& path, std::size_t& k, const MoveRun& run, bool late_pair_allowed) {
  if (run.ticks < 1) return false;
  if (k > 0) {
    const MoveRun& before = path.runs[k - 1];
    if (before.moves == run.moves) return false;
    if (!late_pair_allowed && before == MoveRun{1, 0} && run == MoveRun{1, 2}) return false;
  }
  if constexpr (Stream::kReading) {
    if (!path.runs.push_back(run)) return false;  // more runs than a path names
  } else {
    if (k >= path.runs.size() || !(path.runs[k] == run)) return false;
  }
  ++k;
  return true;
}

// A described path's runs (SerializeCubePath): its departures from one Move a tick, then `0`. `k` counts the
// runs done and `moves` the Moves they make.
template <class Stream>
bool SerializeDepartures(Stream& stream, CubePath& path, int age, int* widths_kept, std::size_t& k,
                         int& moves) {
  int left = age;
  while (true) {
    int gap = 0;  // the ticks of one Move before the next departure
    bool more = false;
    if constexpr (Stream::kWriting) {
      if (k < path.runs.size() && path.runs[k].moves == 1) gap = path.runs[k].ticks;
      more = k + (gap > 0 ? 1 : 0) < path.runs.size();
    }
    if (!SerializeBool(stream, more)) return false;
    if (!more) {
      if (left > 0 && !NextRun<Stream>(path, k, MoveRun{left, 1}, false)) return false;
      moves += left;
      return true;
    }
    if (left < 1 || !SerializeInt(stream, gap, 0, left - 1)) return false;
    KeepWidth<Stream>(widths_kept, 0, left - 1);
    if (gap > 0 && !NextRun<Stream>(path, k, MoveRun{gap, 1}, false)) return false;
    left -= gap;
    moves += gap;
    bool late = false;
    if constexpr (Stream::kWriting) {
      late = k + 1 < path.runs.size() && path.runs[k] == MoveRun{1, 0} && path.runs[k + 1] == MoveRun{1, 2};
    }
    if (!SerializeBool(stream, late)) return false;
    if (late) {
      if (left < 2 || !NextRun<Stream>(path, k, MoveRun{1, 0}, false) ||
          !NextRun<Stream>(path, k, MoveRun{1, 2}, true)) {
        return false;
      }
      left -= 2;
      moves += 2;
      continue;
    }
    MoveRun run{1, 0};
    if constexpr (Stream::kWriting) {
      if (k >= path.runs.size()) return false;
      run = path.runs[k];
    }
    bool one_tick = run.ticks == 1;
    if (!SerializeDepartureMoves(stream, run.moves) || !SerializeBool(stream, one_tick)) return false;
    if (one_tick) {
      run.ticks = 1;
    } else if (left < 2 || !SerializeInt(stream, run.ticks, 2, left)) {
      return false;
    } else {
      KeepWidth<Stream>(widths_kept, 2, left);
    }
    if (run.ticks > left || !NextRun<Stream>(path, k, run, false)) return false;
    left -= run.ticks;
    moves += run.moves * run.ticks;
  }
}

// A replay's baseline cube: `0` when it made no Move; `10` when it made one at every tick and did not turn
// (the usual); else `11`, its departures from one Move a tick, and its turns (as a change's, with n its
// Moves). Each departure is `1`, the ticks of one Move before it (int[0, ticks left - 1]), then `1` for a
// late (no Move at a tick, two at the next: an input that came a tick late) or `0`, its Moves a tick and
// `1` for one tick or `0` and its ticks (int[2, ticks left]); `0` ends them, the ticks left making one
// Move each. In memory the path is its runs: ticks with the same Moves a tick, ones included.
// Canonical: two runs in a row differ, a late is not sent as two departures, a cube that moved made a
// Move, and `11` is not the usual.
// `widths_kept`, when given to a writer, is lowered to the ticks this code stays as written while the path
// only grows by ticks of one Move at its end (or of none, when it names no Move): the fields whose range
// grows with the age keep their widths that long, and nothing else changes.
template <class Stream>
bool SerializeCubePath(Stream& stream, CubePath& path, int age, int* widths_kept = nullptr) {
  bool moved = !path.runs.empty();
  if (!SerializeBool(stream, moved)) return false;
  if constexpr (Stream::kReading) {
    path.runs.clear();
    path.turns.clear();
  }
  if (!moved) return path.turns.empty();
  const bool usual_path =
      path.runs.size() == 1 && path.runs[0].moves == 1 && path.runs[0].ticks == age && path.turns.empty();
  bool described = !usual_path;
  if (!SerializeBool(stream, described)) return false;
  if (!described) {
    if constexpr (Stream::kReading) path.runs.push_back(MoveRun{age, 1});
    return true;
  }
  std::size_t k = 0;  // runs done
  int moves = 0;
  if (!SerializeDepartures(stream, path, age, widths_kept, k, moves)) return false;
  int turn_budget = kMaxPathTurns;  // a path's turns are bounded by their own count alone
  if (k != path.runs.size() || moves == 0 ||
      !SerializeTurns(stream, path.turns, moves, turn_budget, widths_kept))
    return false;
  if (path.runs.size() == 1 && path.runs[0].moves == 1 && path.turns.empty())
    return false;  // the usual: `10`
  return path.turns.empty() || path.turns.back().at < moves;
}

}  // namespace netcube::protocol::delta_wire
