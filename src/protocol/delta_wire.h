#pragma once
// The wire form of a delta snapshot's paths (docs/PROTOCOL.md, "10 DeltaSnapshot"): what each cube did,
// its runs of Moves and its turns. Private to the protocol library: messages.cpp's Serialize of a
// DeltaSnapshot runs it for the writer, the reader and the measurer.
#include <algorithm>
#include <cstdint>

#include "netcube/protocol/bitstream.h"
#include "netcube/protocol/messages.h"

namespace netcube::protocol::delta_wire {

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

// A path's turns: `turned`, then each turn's choice and Move (int[first Move it may be, n]), each but the
// last followed by `1` and the last by `0`; no such bit after the kMaxPathTurns-th turn or a turn at Move n.
template <class Stream>
bool SerializeTurns(Stream& stream, FixedVector<Turn, kMaxPathTurns>& turns, int moves) {
  constexpr std::size_t kMost = kMaxPathTurns;
  bool more = !turns.empty();
  if (!SerializeBool(stream, more)) return false;
  if constexpr (Stream::kReading) turns.clear();
  int first = 0;
  for (std::size_t k = 0; more; ++k) {
    if constexpr (Stream::kReading) turns.push_back(Turn{});
    Turn& turn = turns[k];
    if (!SerializeChoice(stream, turn.choice) || !SerializeInt(stream, turn.at, first, moves)) return false;
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

// A departure's Moves a tick (never one: that is the usual): `1` for none, `01` for two, else `00` and
// int[3, kMaxMovesPerTick].
template <class Stream, class T>
bool SerializeDepartureMoves(Stream& stream, T& moves) {
  for (const int common : {0, 2}) {
    bool is = moves == common;
    if (!SerializeBool(stream, is)) return false;
    if (is) {
      moves = static_cast<T>(common);
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
bool SerializeDepartures(Stream& stream, CubePath& path, int age, std::size_t& k, int& moves) {
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
      if (left > 0 && !NextRun<Stream>(path, k, MoveRun::Of(left, 1), false)) return false;
      moves += left;
      return true;
    }
    if (left < 1 || !SerializeInt(stream, gap, 0, left - 1)) return false;
    if (gap > 0 && !NextRun<Stream>(path, k, MoveRun::Of(gap, 1), false)) return false;
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
    }
    if (run.ticks > left || !NextRun<Stream>(path, k, run, false)) return false;
    left -= run.ticks;
    moves += run.moves * run.ticks;
  }
}

// A cube's path: `0` when it made no Move; `10` when it made one at every tick and did not turn
// (the usual); else `11`, its departures from one Move a tick, and its turns (as a change's, with n its
// Moves). Each departure is `1`, the ticks of one Move before it (int[0, ticks left - 1]), then `1` for a
// late (no Move at a tick, two at the next: an input that came a tick late) or `0`, its Moves a tick and
// `1` for one tick or `0` and its ticks (int[2, ticks left]); `0` ends them, the ticks left making one
// Move each. In memory the path is its runs: ticks with the same Moves a tick, ones included.
// Canonical: two runs in a row differ, a late is not sent as two departures, a cube that moved made a
// Move, and `11` is not the usual.
template <class Stream>
bool SerializeCubePath(Stream& stream, CubePath& path, int age) {
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
    if constexpr (Stream::kReading) path.runs.push_back(MoveRun::Of(age, 1));
    return true;
  }
  std::size_t k = 0;  // runs done
  int moves = 0;
  if (!SerializeDepartures(stream, path, age, k, moves)) return false;
  if (k != path.runs.size() || moves == 0 || !SerializeTurns(stream, path.turns, moves)) return false;
  if (path.runs.size() == 1 && path.runs[0].moves == 1 && path.turns.empty())
    return false;  // the usual: `10`
  return path.turns.empty() || path.turns.back().at < moves;
}

}  // namespace netcube::protocol::delta_wire
