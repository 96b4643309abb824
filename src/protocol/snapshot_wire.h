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

using delta_wire::SerializeCubeDelta;
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

template <class Stream>
bool SerializeCube(Stream& stream, sim::CubeState& s) {
  return SerializeInt(stream, s.x, sim::kMinX, sim::kMaxX) &&
         SerializeInt(stream, s.y, sim::kMinY, sim::kMaxY) &&
         SerializeInt(stream, s.vx, -sim::kMaxSpeed, sim::kMaxSpeed) &&
         SerializeInt(stream, s.vy, -sim::kMaxSpeed, sim::kMaxSpeed) &&
         SerializeInt(stream, s.buttons, 0, sim::kButtonMask);
}

// A cube's state as the wire carries it: physics and held buttons, no bookkeeping.
inline bool SameOnWire(const sim::PlayerCube& a, const sim::PlayerCube& b) noexcept {
  return a.id == b.id && sim::SamePhysics(a.state, b.state) && a.state.buttons == b.state.buttons;
}

// A list of whole cubes: the count, then each id (strictly increasing) and state. `players` is a message's
// own list when reading or measuring, and the server's world as it lies when the SnapshotWriter writes.
template <class Stream, class Players>
bool SerializePlayers(Stream& stream, Players& players) {
  std::size_t count = players.size();
  if (!SerializeInt(stream, count, 0, kMaxPlayers)) return false;
  if constexpr (Stream::kReading) players.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    sim::PlayerCube p = players[i];
    if (!SerializeUnsigned(stream, p.id)) return false;
    if (i > 0 && p.id <= players[i - 1].id) return false;  // strictly increasing: no duplicates
    if (!SerializeCube(stream, p.state)) return false;
    if constexpr (Stream::kReading) players[i] = p;
  }
  return true;
}

// The part of a snapshot every receiver shares: the tick and the cubes.
template <class Stream, class Players>
bool SerializeWorld(Stream& stream, std::uint32_t& server_tick, Players& players) {
  return SerializeUnsigned(stream, server_tick) && SerializePlayers(stream, players);
}

// A delta's tick, age and kind.
template <class Stream>
bool SerializeDeltaHead(Stream& stream, DeltaSnapshot& m) {
  return SerializeUnsigned(stream, m.server_tick) && SerializeInt(stream, m.age, 1, kMaxDeltaAge) &&
         SerializeBool(stream, m.replay);
}

// A replay's part before its paths: its collisions bit and how many paths follow (its count, read).
template <class Stream>
bool SerializeReplayHead(Stream& stream, DeltaSnapshot& m, std::size_t& count) {
  if constexpr (Stream::kWriting) {
    if (!m.baseline.empty() || !m.joined.empty()) return false;  // canonical: a replay names no fates
  } else {
    m.baseline.clear();
    m.joined.clear();
    m.position_order = m.velocity_order = 0;
  }
  count = m.paths.size();
  if (!SerializeBool(stream, m.collisions) || !SerializeInt(stream, count, 0, kMaxPlayers)) return false;
  if constexpr (Stream::kReading) m.paths.resize(count);
  return true;
}

// The shared part of a delta: tick, age, then a replay's collisions bit and one path per baseline cube,
// or a prediction's residual orders, one fate per baseline cube and the joined cubes.
template <class Stream>
bool SerializeDeltaBody(Stream& stream, DeltaSnapshot& m) {
  if (!SerializeDeltaHead(stream, m)) return false;
  if (m.replay) {
    std::size_t count = 0;
    if (!SerializeReplayHead(stream, m, count)) return false;
    for (std::size_t i = 0; i < count; ++i) {
      if (!SerializeCubePath(stream, m.paths[i], m.age)) return false;
    }
    return true;
  }
  if constexpr (Stream::kWriting) {
    if (!m.paths.empty()) return false;
  } else {
    m.paths.clear();
    m.collisions = true;
  }
  if (!SerializeInt(stream, m.position_order, 0, kMaxResidualOrder) ||
      !SerializeInt(stream, m.velocity_order, 0, kMaxResidualOrder)) {
    return false;
  }
  int turn_budget = kMaxDeltaTurns;
  std::size_t count = m.baseline.size();
  if (!SerializeInt(stream, count, 0, kMaxPlayers)) return false;
  if constexpr (Stream::kReading) m.baseline.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (!SerializeCubeDelta(stream, m.baseline[i], m.age, m.position_order, m.velocity_order, turn_budget)) {
      return false;
    }
  }
  return SerializePlayers(stream, m.joined);
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
