#pragma once
// The wire grammar of a snapshot (docs/PROTOCOL.md, "Snapshot" and "DeltaSnapshot") and of the message type
// that leads every packet, each written once for the writer, the reader and the measurer. Private to the
// protocol library: messages.cpp's Encode and Decode run it, and the SnapshotWriter writes a snapshot's
// shared part with it once for all its receivers.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "delta_wire.h"
#include "netcube/protocol/bitstream.h"
#include "netcube/protocol/messages.h"

namespace netcube::protocol::snapshot_wire {

using delta_wire::SerializeCubePath;

// The packet: the message type (3 bits; 3 + 3 from kTypeEscape on; 3 + 3 + 6 from kLongTypeEscape on), the
// message, zero padding to the byte.
template <class Stream>
bool SerializeType(Stream& stream, std::size_t& type) {
  std::size_t head = std::min<std::size_t>(type, kTypeEscape);
  if (!SerializeInt(stream, head, 0, (1 << kShortTypeBits) - 1)) return false;
  if (head < kTypeEscape) {
    type = head;
    return true;
  }
  std::size_t middle = std::min<std::size_t>(type, kLongTypeEscape) - kTypeEscape;
  if (!SerializeInt(stream, middle, 0, (1 << kExtendedTypeBits) - 1)) return false;
  std::size_t tail = type >= kLongTypeEscape ? type - kLongTypeEscape : 0;
  if (kTypeEscape + middle == kLongTypeEscape && !SerializeInt(stream, tail, 0, (1 << kLongTypeBits) - 1)) {
    return false;
  }
  type = kTypeEscape + middle + tail;
  return type < kMessageTypeCount;  // the values past the last type are unused
}

// Writing only: the type of a message known at compile time.
template <class Stream>
bool SerializeType(Stream& stream, MessageType type) {
  auto value = static_cast<std::size_t>(type);
  return SerializeType(stream, value);
}

// An arena's sides in whole units, each int[kMinArenaUnits, kMaxArenaUnits].
template <class Stream>
bool SerializeArena(Stream& stream, sim::Arena& arena) {
  std::int32_t width = arena.width_units();
  std::int32_t height = arena.height_units();
  if (!SerializeInt(stream, width, sim::kMinArenaUnits, sim::kMaxArenaUnits) ||
      !SerializeInt(stream, height, sim::kMinArenaUnits, sim::kMaxArenaUnits)) {
    return false;
  }
  arena = sim::Arena::OfUnits(width, height);
  return true;
}

// A player's id: int[0, kMaxPlayers - 1] (10 bits).
template <class Stream>
bool SerializePlayerId(Stream& stream, sim::PlayerId& id) {
  return SerializeInt(stream, id, 0, kMaxPlayers - 1);
}

// A cube's state: its position within `arena`, its velocity and its held buttons.
template <class Stream>
bool SerializeCube(Stream& stream, sim::CubeState& s, const sim::Arena& arena) {
  return SerializeInt(stream, s.x, arena.min_x(), arena.max_x()) &&
         SerializeInt(stream, s.y, arena.min_y(), arena.max_y()) &&
         SerializeInt(stream, s.vx, -sim::kMaxSpeed, sim::kMaxSpeed) &&
         SerializeInt(stream, s.vy, -sim::kMaxSpeed, sim::kMaxSpeed) &&
         SerializeInt(stream, s.buttons, 0, sim::kButtonMask);
}

// A cube's state as the wire carries it: physics and held buttons, no bookkeeping.
inline bool SameOnWire(const sim::PlayerCube& a, const sim::PlayerCube& b) noexcept {
  return a.id == b.id && sim::SameCarried(a.state, b.state);
}

// A list of whole cubes: the count, then each id (strictly increasing) and state. `players` is a message's
// own list when reading or measuring, and the server's world as it lies when the SnapshotWriter writes.
template <class Stream, class Players>
bool SerializePlayers(Stream& stream, Players& players, const sim::Arena& arena) {
  std::size_t count = players.size();
  if (!SerializeInt(stream, count, 0, kMaxWholeWorldCubes)) return false;
  if constexpr (Stream::kReading) players.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    sim::PlayerCube p = players[i];
    if (!SerializePlayerId(stream, p.id)) return false;
    if (i > 0 && p.id <= players[i - 1].id) return false;  // strictly increasing: no duplicates
    if (!SerializeCube(stream, p.state, arena)) return false;
    if constexpr (Stream::kReading) players[i] = p;
  }
  return true;
}

// The part of a snapshot every receiver shares: the tick, the arena and the cubes in it.
template <class Stream, class Players>
bool SerializeWorld(Stream& stream, std::uint32_t& server_tick, sim::Arena& arena, Players& players) {
  return SerializeUnsigned(stream, server_tick) && SerializeArena(stream, arena) &&
         SerializePlayers(stream, players, arena);
}

// A delta's tick and age.
template <class Stream>
bool SerializeDeltaHead(Stream& stream, DeltaSnapshot& m) {
  return SerializeUnsigned(stream, m.server_tick) && SerializeInt(stream, m.age, 1, kMaxDeltaAge);
}

// The tick before which a replay's path leaves the world: its exit's, else the one after the delta's.
inline int EndOf(const DeltaSnapshot& m, std::size_t path) noexcept {
  const auto* it = std::lower_bound(m.exits.begin(), m.exits.end(), path,
                                    [](const Exit& d, std::size_t p) { return d.path < p; });
  return it != m.exits.end() && it->path == path ? it->at : m.age + 1;
}

// A replay's part before its paths: its collisions bit, how many baseline paths follow (`count`, read),
// and whether cubes came or went: then how many came, how many went, and each exit (its path,
// increasing, and its tick).
template <class Stream>
bool SerializeReplayHead(Stream& stream, DeltaSnapshot& m, std::size_t& count) {
  if (m.paths.size() < m.arrivals.size()) return false;
  count = m.paths.size() - m.arrivals.size();
  bool changed = !m.arrivals.empty() || !m.exits.empty();
  if (!SerializeBool(stream, m.collisions) || !SerializeInt(stream, count, 0, kMaxWholeWorldCubes) ||
      !SerializeBool(stream, changed)) {
    return false;
  }
  std::size_t arrivals = m.arrivals.size();
  std::size_t exits = m.exits.size();
  if (changed && (!SerializeInt(stream, arrivals, 0, kMaxArrivals) ||
                  !SerializeInt(stream, exits, 0, static_cast<std::int64_t>(count + arrivals)) ||
                  arrivals + exits == 0)) {
    return false;
  }
  const auto paths = static_cast<std::int64_t>(count + arrivals);
  if constexpr (Stream::kReading) {
    if (!changed) arrivals = exits = 0;
    m.arrivals.resize(arrivals);
    m.exits.resize(exits);
    m.paths.resize(count + arrivals);
  }
  std::int64_t first = 0;  // the lowest path the next exit may name
  for (Exit& d : m.exits) {
    if (first >= paths || !SerializeInt(stream, d.path, first, paths - 1) ||
        !SerializeInt(stream, d.at, 1, m.age)) {
      return false;
    }
    first = static_cast<std::int64_t>(d.path) + 1;
  }
  return true;
}

// A replay's path `i`, over the ticks its cube was in the world (from `from`, the tick it came at).
template <class Stream>
bool SerializeReplayPath(Stream& stream, DeltaSnapshot& m, std::size_t i, int from) {
  const int ticks = EndOf(m, i) - from;
  return ticks >= 0 && SerializeCubePath(stream, m.paths[i], ticks) && (ticks > 0 || m.paths[i].runs.empty());
}

// A replay's arrivals after its `count` baseline paths: each one's tick (not before the last's), id (above
// the last's at the same tick), state and path. A cube that came went at a later tick, if at all. A delta
// does not say its arena (its baseline's is the receiver's), so an arrival's position is coded within the
// largest, and the replay refuses one outside its baseline's arena.
template <class Stream>
bool SerializeArrivals(Stream& stream, DeltaSnapshot& m, std::size_t count) {
  for (std::size_t k = 0; k < m.arrivals.size(); ++k) {
    Arrival& a = m.arrivals[k];
    const int first = k == 0 ? 1 : m.arrivals[k - 1].at;
    if (!SerializeInt(stream, a.at, first, m.age) || !SerializePlayerId(stream, a.cube.id) ||
        !SerializeCube(stream, a.cube.state, sim::kLargestArena)) {
      return false;
    }
    if (k > 0 && a.at == m.arrivals[k - 1].at && a.cube.id <= m.arrivals[k - 1].cube.id) return false;
    if (EndOf(m, count + k) <= a.at || !SerializeReplayPath(stream, m, count + k, a.at)) return false;
  }
  return true;
}

// The shared part of a delta: tick, age, collisions bit, one path per baseline cube, the arrivals.
template <class Stream>
bool SerializeDeltaBody(Stream& stream, DeltaSnapshot& m) {
  std::size_t count = 0;
  if (!SerializeDeltaHead(stream, m) || !SerializeReplayHead(stream, m, count)) return false;
  for (std::size_t i = 0; i < count; ++i) {
    if (!SerializeReplayPath(stream, m, i, 1)) return false;
  }
  return SerializeArrivals(stream, m, count);
}

// The per-receiver part, last on the wire so that the SnapshotWriter can rewrite it in place.
template <class Stream>
bool SerializeAck(Stream& stream, bool& has_ack, sim::Seq& ack, std::int8_t& input_lead) {
  if (!SerializeBool(stream, has_ack)) return false;
  if (has_ack &&
      (!SerializeUnsigned(stream, ack) || !SerializeInt(stream, input_lead, kMinInputLead, kMaxInputLead)))
    return false;
  if constexpr (Stream::kReading) {
    if (!has_ack) {
      ack = 0;
      input_lead = 0;
    }
  }
  return true;
}

}  // namespace netcube::protocol::snapshot_wire
