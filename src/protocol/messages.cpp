#include "netcube/protocol/messages.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <type_traits>

#include "netcube/protocol/rules.h"
#include "snapshot_wire.h"

namespace netcube::protocol {
namespace {

using snapshot_wire::SameOnWire;
using snapshot_wire::SerializeAck;
using snapshot_wire::SerializeArena;
using snapshot_wire::SerializeCube;
using snapshot_wire::SerializeDeltaBody;
using snapshot_wire::SerializePlayerId;
using snapshot_wire::SerializeType;
using snapshot_wire::SerializeWorld;

template <class Stream>
bool SerializeName(Stream& stream, std::string& name) {
  return SerializeText(stream, name, kMaxNameLength);
}

template <class Stream>
bool Serialize(Stream& stream, ConnectRequest& m) {
  // Magic and version come first and must never move, so any version can be refused with a reason.
  if (!SerializeUnsigned(stream, m.magic)) return false;
  if constexpr (Stream::kReading) {
    if (m.magic != kProtocolMagic) return false;
  }
  if (!SerializeUnsigned(stream, m.version) || !SerializeName(stream, m.name)) return false;
  // Another version's request is read only so far: enough to refuse it with a reason.
  if (m.version != kProtocolVersion) {
    if constexpr (Stream::kReading) stream.SkipToEnd();
    return true;
  }
  return SerializeBool(stream, m.spectate) && SerializeZeroPaddingTo(stream, kConnectRequestBytes);
}

template <class Stream>
bool Serialize(Stream& stream, Challenge& m) {
  return SerializeUnsigned64(stream, m.nonce);
}

template <class Stream>
bool Serialize(Stream& stream, ChallengeResponse& m) {
  return SerializeUnsigned64(stream, m.nonce);
}

template <class Stream>
bool Serialize(Stream& stream, SnapshotRate& m) {
  return SerializeInt(stream, m.rate, 1, kMaxRate);
}

template <class Stream>
bool Serialize(Stream& stream, SnapshotBudget& m) {
  return SerializeInt(stream, m.bytes, kMinSnapshotBudget, kMaxPacketBytes);
}

template <class Stream>
bool Serialize(Stream& stream, ConnectRefused& m) {
  return SerializeInt(stream, m.reason, 0, kRefuseReasonCount - 1) &&
         SerializeUnsigned(stream, m.server_version);
}

template <class Stream>
bool Serialize(Stream& stream, Welcome& m) {
  return SerializePlayerId(stream, m.player_id) && SerializeInt(stream, m.tick_rate, 1, kMaxRate) &&
         SerializeInt(stream, m.snapshot_rate, 1, kMaxRate) &&
         SerializeInt(stream, m.max_players, 1, kMaxPlayers) && SerializeBool(stream, m.collisions) &&
         SerializeArena(stream, m.arena) && SerializeUnsigned(stream, m.server_tick) &&
         SerializeInt(stream, m.max_snapshot_rate, 1, kMaxRate) && SerializeBool(stream, m.spectator);
}

template <class Stream>
bool Serialize(Stream& stream, Viewpoint& m) {
  if (!SerializeBool(stream, m.follow)) return false;
  if (m.follow) {
    if constexpr (Stream::kReading) m.x_units = m.y_units = 0;
    return SerializePlayerId(stream, m.player_id);
  }
  if constexpr (Stream::kReading) m.player_id = 0;
  return SerializeInt(stream, m.x_units, 0, sim::kMaxArenaUnits - 1) &&
         SerializeInt(stream, m.y_units, 0, sim::kMaxArenaUnits - 1);
}

template <class Stream>
bool Serialize(Stream& stream, InputMessage& m) {
  // On the wire: the newest sequence, the count, then each input's buttons oldest first; the other
  // sequence numbers follow from the newest because they are consecutive.
  std::size_t count = m.inputs.size();
  sim::Seq newest = count > 0 ? m.inputs.back().seq : 0;
  if constexpr (Stream::kWriting) {
    for (std::size_t i = 0; i < count; ++i) {
      if (m.inputs[i].seq != static_cast<sim::Seq>(newest - (count - 1 - i))) return false;
    }
  }
  if (!SerializeUnsigned(stream, newest)) return false;
  if (!SerializeInt(stream, count, 1, kMaxInputsPerPacket)) return false;
  if constexpr (Stream::kReading) m.inputs.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (!SerializeInt(stream, m.inputs[i].buttons, 0, sim::kButtonMask)) return false;
    if constexpr (Stream::kReading) m.inputs[i].seq = static_cast<sim::Seq>(newest - (count - 1 - i));
  }
  return SerializeUnsigned(stream, m.seen_tick);
}

template <class Stream>
bool Serialize(Stream& stream, Snapshot& m) {
  return SerializeWorld(stream, m.server_tick, m.arena, m.players) &&
         SerializeAck(stream, m.has_ack, m.ack, m.input_lead);
}

template <class Stream>
bool Serialize(Stream& stream, DeltaSnapshot& m) {
  return SerializeDeltaBody(stream, m) && SerializeAck(stream, m.has_ack, m.ack, m.input_lead);
}

// A member's state: `1` and its age (int[1, kMaxPredictedAge]) when predicted, else `0` and the state.
template <class Stream>
bool SerializeMemberState(Stream& stream, InterestMember& member, const sim::Arena& arena) {
  bool predicted = member.predicted_age > 0;
  if (!SerializeBool(stream, predicted)) return false;
  if (predicted) return SerializeInt(stream, member.predicted_age, 1, kMaxPredictedAge);
  member.predicted_age = 0;
  return SerializeCube(stream, member.cube.state, arena);
}

template <class Stream>
bool Serialize(Stream& stream, InterestSnapshot& m) {
  std::size_t count = m.members.size();
  if (!SerializeUnsigned(stream, m.server_tick) || !SerializeArena(stream, m.arena) ||
      !SerializeInt(stream, count, 0, kMaxPlayers)) {
    return false;
  }
  if constexpr (Stream::kReading) m.members.resize(count);
  std::uint32_t lowest = 0;  // the lowest id the next member may have
  for (std::size_t i = 0; i < count; ++i) {
    InterestMember& member = m.members[i];
    // Ids strictly increase: each is coded as its gap after the one before (0: the next id).
    std::uint32_t gap = member.cube.id - lowest;
    if (lowest >= kMaxPlayers || (Stream::kWriting && member.cube.id < lowest) ||
        !SerializeGamma(stream, gap, static_cast<std::uint32_t>(kMaxPlayers - 1 - lowest))) {
      return false;
    }
    if constexpr (Stream::kReading) member.cube.id = static_cast<sim::PlayerId>(lowest + gap);
    lowest = member.cube.id + 1u;
    if (!SerializeBool(stream, member.has_state)) return false;
    if (member.has_state && !SerializeMemberState(stream, member, m.arena)) return false;
    if constexpr (Stream::kReading) {
      if (!member.has_state) member.predicted_age = 0;
      if (!member.has_state || member.predicted_age > 0) member.cube.state = {};
    }
  }
  return SerializeAck(stream, m.has_ack, m.ack, m.input_lead);
}

template <class Stream>
bool Serialize(Stream& stream, SnapshotAck& m) {
  return SerializeUnsigned(stream, m.seen_tick);
}

template <class Stream>
bool Serialize(Stream& stream, PlayerJoined& m) {
  // Each player is followed by a bit, 1 when another follows: a join told to everyone (one player) costs
  // one bit, not a count.
  if (Stream::kWriting && m.players.empty()) return false;
  for (std::size_t i = 0; i < kMaxJoinedPerMessage; ++i) {
    if constexpr (Stream::kReading) m.players.resize(i + 1);
    JoinedPlayer& player = m.players[i];
    if (!SerializePlayerId(stream, player.player_id) || !SerializeName(stream, player.name)) return false;
    if (i > 0 && player.player_id <= m.players[i - 1].player_id) return false;  // one order: increasing
    bool more = i + 1 < m.players.size();
    if (!SerializeBool(stream, more)) return false;
    if (!more) return true;
  }
  return false;  // a 65th player
}

template <class Stream>
bool Serialize(Stream& stream, PlayerLeft& m) {
  return SerializePlayerId(stream, m.player_id) && SerializeInt(stream, m.reason, 0, kLeaveReasonCount - 1);
}

template <class Stream>
bool Serialize(Stream& stream, TimeEcho& m) {
  return SerializeBool(stream, m.reply) && SerializeUnsigned(stream, m.client_time_us) &&
         SerializeUnsigned(stream, m.server_tick);
}

template <class Stream>
bool Serialize(Stream& stream, Tag& m) {
  return SerializeUnsigned(stream, m.shot) && SerializeUnsigned(stream, m.seq) &&
         SerializeUnsigned(stream, m.render_tick) &&
         SerializeInt(stream, m.render_fraction, 0, kRenderFractionSteps - 1) &&
         SerializeUnsigned(stream, m.seen_tick) && SerializeInt(stream, m.delay_ms, 0, kMaxTagDelayMs) &&
         SerializeUnsigned(stream, m.aim);
}

template <class Stream>
bool Serialize(Stream& stream, TagResult& m) {
  if (!SerializePlayerId(stream, m.shooter) || !SerializeUnsigned(stream, m.shot) ||
      !SerializeInt(stream, m.outcome, 0, kTagOutcomeCount - 1) ||
      !SerializeInt(stream, m.rewind_ms, 0, kMaxTagDelayMs)) {
    return false;
  }
  if (m.outcome != TagOutcome::kHit) {
    // Nothing else is sent, so a reader leaves the rest at its canonical zero.
    if constexpr (Stream::kReading) {
      m.target = 0;
      m.target_has_input = false;
      m.target_seq = 0;
    }
    return true;
  }
  if (!SerializePlayerId(stream, m.target) || !SerializeBool(stream, m.target_has_input)) return false;
  if (m.target_has_input) return SerializeUnsigned(stream, m.target_seq);
  if constexpr (Stream::kReading) m.target_seq = 0;
  return true;
}

template <class Stream, class M>
bool SerializeMessage(Stream& stream, M& message) {
  return SerializeType(stream, kTypeOf<M>) && Serialize(stream, message);
}

template <class Stream>
bool SerializeMessage(Stream& stream, Message& message) {
  return std::visit([&stream](auto& m) { return SerializeMessage(stream, m); }, message);
}

template <std::size_t... I>
void EmplaceByIndex(Message& message, std::size_t index, std::index_sequence<I...>) {
  static_cast<void>(((index == I ? (message.emplace<I>(), true) : false) || ...));
}

}  // namespace

static_assert(std::variant_size_v<Message> == kMessageTypeCount);

bool operator==(const Snapshot& a, const Snapshot& b) noexcept {
  if (a.server_tick != b.server_tick || a.arena != b.arena || a.has_ack != b.has_ack || a.ack != b.ack ||
      a.input_lead != b.input_lead)
    return false;
  if (a.players.size() != b.players.size()) return false;
  for (std::size_t i = 0; i < a.players.size(); ++i) {
    if (!SameOnWire(a.players[i], b.players[i])) return false;
  }
  return true;
}

bool operator==(const DeltaSnapshot& a, const DeltaSnapshot& b) noexcept {
  if (a.server_tick != b.server_tick || a.age != b.age || a.has_ack != b.has_ack || a.ack != b.ack ||
      a.input_lead != b.input_lead || a.collisions != b.collisions || !(a.paths == b.paths) ||
      !(a.exits == b.exits) || a.arrivals.size() != b.arrivals.size())
    return false;
  for (std::size_t i = 0; i < a.arrivals.size(); ++i) {
    if (a.arrivals[i].at != b.arrivals[i].at || !SameOnWire(a.arrivals[i].cube, b.arrivals[i].cube))
      return false;
  }
  return true;
}

bool operator==(const InterestSnapshot& a, const InterestSnapshot& b) noexcept {
  if (a.server_tick != b.server_tick || a.arena != b.arena || a.has_ack != b.has_ack || a.ack != b.ack ||
      a.input_lead != b.input_lead || a.members.size() != b.members.size())
    return false;
  for (std::size_t i = 0; i < a.members.size(); ++i) {
    const InterestMember& x = a.members[i];
    const InterestMember& y = b.members[i];
    if (x.cube.id != y.cube.id || x.has_state != y.has_state) return false;
    if (!x.has_state) continue;
    if (x.predicted_age != y.predicted_age || (x.predicted_age == 0 && !SameOnWire(x.cube, y.cube)))
      return false;
  }
  return true;
}

MessageType TypeOf(const Message& message) noexcept { return static_cast<MessageType>(message.index()); }

std::size_t Encode(const Message& message, std::span<std::uint8_t> out) noexcept {
  return std::visit([out](const auto& m) { return Encode(m, out); }, message);
}

template <OneMessage M>
std::size_t Encode(const M& message, std::span<std::uint8_t> out) noexcept {
  BitWriter writer(out);
  // Serialize takes the message by reference for the reader's sake; the writer only reads it.
  if (!SerializeMessage(writer, const_cast<M&>(message))) return 0;
  return writer.BytesWritten();
}

template std::size_t Encode(const ConnectRequest&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const ConnectRefused&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const Welcome&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const InputMessage&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const Snapshot&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const PlayerJoined&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const PlayerLeft&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const TimeEcho&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const Tag&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const TagResult&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const DeltaSnapshot&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const SnapshotAck&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const Challenge&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const ChallengeResponse&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const SnapshotRate&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const InterestSnapshot&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const SnapshotBudget&, std::span<std::uint8_t>) noexcept;
template std::size_t Encode(const Viewpoint&, std::span<std::uint8_t>) noexcept;

std::size_t MeasureBytes(const Message& message) noexcept {
  BitMeasurer measurer;
  if (!SerializeMessage(measurer, const_cast<Message&>(message))) return 0;
  return measurer.Bytes();
}

DecodeError Decode(std::span<const std::uint8_t> packet, Message& out) noexcept {
  if (packet.empty()) return DecodeError::kEmpty;
  if (packet.size() > kMaxPacketBytes) return DecodeError::kTooLarge;
  BitReader reader(packet);
  std::size_t type = 0;
  if (!SerializeType(reader, type)) return DecodeError::kMalformed;
  // The reader assigns every field, so a message of the same type is reused as it is.
  if (out.index() != type) EmplaceByIndex(out, type, std::make_index_sequence<kMessageTypeCount>{});
  const bool ok = std::visit([&reader](auto& m) { return Serialize(reader, m); }, out);
  if (!ok) return DecodeError::kMalformed;
  if (!reader.AtCleanEnd()) return DecodeError::kTrailingData;
  return DecodeError::kNone;
}

}  // namespace netcube::protocol
