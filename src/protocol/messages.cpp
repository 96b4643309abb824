#include "netcube/protocol/messages.h"

#include <algorithm>
#include <array>
#include <type_traits>

namespace netcube::protocol {
namespace {

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
  return SerializeUnsigned(stream, m.version) && SerializeName(stream, m.name);
}

template <class Stream>
bool Serialize(Stream& stream, ConnectRefused& m) {
  return SerializeInt(stream, m.reason, 0, kRefuseReasonCount - 1) &&
         SerializeUnsigned(stream, m.server_version);
}

template <class Stream>
bool Serialize(Stream& stream, Welcome& m) {
  return SerializeUnsigned(stream, m.player_id) && SerializeInt(stream, m.tick_rate, 1, kMaxRate) &&
         SerializeInt(stream, m.snapshot_rate, 1, kMaxRate) &&
         SerializeInt(stream, m.max_players, 1, kMaxPlayers) && SerializeBool(stream, m.collisions) &&
         SerializeInt(stream, m.arena_width, 1, 1 << 24) && SerializeInt(stream, m.arena_height, 1, 1 << 24) &&
         SerializeUnsigned(stream, m.server_tick);
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
  return true;
}

template <class Stream>
bool SerializeCube(Stream& stream, sim::CubeState& s) {
  return SerializeInt(stream, s.x, sim::kMinX, sim::kMaxX) && SerializeInt(stream, s.y, sim::kMinY, sim::kMaxY) &&
         SerializeInt(stream, s.vx, -sim::kMaxSpeed, sim::kMaxSpeed) &&
         SerializeInt(stream, s.vy, -sim::kMaxSpeed, sim::kMaxSpeed);
}

// The part of a snapshot every receiver shares: the tick and the cubes. `players` is the Snapshot's own
// list when reading or measuring, and the server's world as it lies when the SnapshotWriter writes.
template <class Stream, class Players>
bool SerializeWorld(Stream& stream, std::uint32_t& server_tick, Players& players) {
  if (!SerializeUnsigned(stream, server_tick)) return false;
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

// The per-receiver part, last on the wire so that the SnapshotWriter can rewrite it in place.
template <class Stream>
bool SerializeAck(Stream& stream, bool& has_ack, sim::Seq& ack) {
  if (!SerializeBool(stream, has_ack)) return false;
  if (has_ack && !SerializeUnsigned(stream, ack)) return false;
  if constexpr (Stream::kReading) {
    if (!has_ack) ack = 0;
  }
  return true;
}

template <class Stream>
bool Serialize(Stream& stream, Snapshot& m) {
  return SerializeWorld(stream, m.server_tick, m.players) && SerializeAck(stream, m.has_ack, m.ack);
}

template <class Stream>
bool Serialize(Stream& stream, PlayerJoined& m) {
  return SerializeUnsigned(stream, m.player_id) && SerializeName(stream, m.name);
}

template <class Stream>
bool Serialize(Stream& stream, PlayerLeft& m) {
  return SerializeUnsigned(stream, m.player_id) && SerializeInt(stream, m.reason, 0, kLeaveReasonCount - 1);
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
  if (!SerializeUnsigned(stream, m.shooter) || !SerializeUnsigned(stream, m.shot) ||
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
  if (!SerializeUnsigned(stream, m.target) || !SerializeBool(stream, m.target_has_input)) return false;
  if (m.target_has_input) return SerializeUnsigned(stream, m.target_seq);
  if constexpr (Stream::kReading) m.target_seq = 0;
  return true;
}

// The packet: the message type (3 bits, or 3 + 3 from kTypeEscape on), the message, zero padding to the
// byte.
template <class Stream>
bool SerializeType(Stream& stream, std::size_t& type) {
  std::size_t head = std::min<std::size_t>(type, kTypeEscape);
  if (!SerializeInt(stream, head, 0, (1 << kShortTypeBits) - 1)) return false;
  if (head < kTypeEscape) {
    type = head;
    return true;
  }
  std::size_t extension = type - kTypeEscape;
  if (!SerializeInt(stream, extension, 0, (1 << kExtendedTypeBits) - 1)) return false;
  type = kTypeEscape + extension;
  return type < kMessageTypeCount;  // the extension values past the last type are unused
}

// Writing only: the type of a message known at compile time.
template <class Stream>
bool SerializeType(Stream& stream, MessageType type) {
  auto value = static_cast<std::size_t>(type);
  return SerializeType(stream, value);
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
  if (a.server_tick != b.server_tick || a.has_ack != b.has_ack || a.ack != b.ack) return false;
  if (a.players.size() != b.players.size()) return false;
  for (std::size_t i = 0; i < a.players.size(); ++i) {
    if (a.players[i].id != b.players[i].id || !sim::SamePhysics(a.players[i].state, b.players[i].state)) {
      return false;
    }
  }
  return true;
}

MessageType TypeOf(const Message& message) noexcept { return static_cast<MessageType>(message.index()); }

const char* ToString(MessageType type) noexcept {
  static constexpr std::array<const char*, kMessageTypeCount> kNames = {
      "connect_request", "connect_refused", "welcome", "input", "snapshot", "player_joined", "player_left",
      "time_echo", "tag", "tag_result"};
  const auto i = static_cast<std::size_t>(type);
  return i < kNames.size() ? kNames[i] : "unknown";
}

const char* ToString(RefuseReason reason) noexcept {
  switch (reason) {
    case RefuseReason::kVersionMismatch:
      return "protocol version mismatch";
    case RefuseReason::kServerFull:
      return "server full";
    case RefuseReason::kMalformedRequest:
      return "malformed connect request";
  }
  return "unknown reason";
}

const char* ToString(TagOutcome outcome) noexcept {
  switch (outcome) {
    case TagOutcome::kMiss:
      return "miss";
    case TagOutcome::kHit:
      return "hit";
    case TagOutcome::kRefused:
      return "refused";
  }
  return "unknown outcome";
}

const char* ToString(DisconnectReason reason) noexcept {
  switch (reason) {
    case DisconnectReason::kNone:
      return "closed";
    case DisconnectReason::kMalformed:
      return "kicked for malformed messages";
    case DisconnectReason::kFlooding:
      return "kicked for flooding";
    case DisconnectReason::kSilent:
      return "dropped for silence";
  }
  return "unknown reason";
}

const char* ToString(LeaveReason reason) noexcept {
  switch (reason) {
    case LeaveReason::kDisconnected:
      return "left";
    case LeaveReason::kTimedOut:
      return "timed out";
  }
  return "unknown reason";
}

const char* ToString(DecodeError error) noexcept {
  switch (error) {
    case DecodeError::kNone:
      return "none";
    case DecodeError::kEmpty:
      return "empty packet";
    case DecodeError::kTooLarge:
      return "packet too large";
    case DecodeError::kMalformed:
      return "malformed message";
    case DecodeError::kTrailingData:
      return "trailing data";
  }
  return "unknown error";
}

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

bool SnapshotWriter::Prepare(std::uint32_t server_tick, std::span<const sim::PlayerCube> players) noexcept {
  BitWriter writer(buffer_);
  if (!SerializeType(writer, MessageType::kSnapshot) || !SerializeWorld(writer, server_tick, players)) {
    shared_bits_ = 0;
    return false;
  }
  shared_bits_ = writer.BitsWritten();
  return true;
}

std::span<const std::uint8_t> SnapshotWriter::PacketFor(std::optional<sim::Seq> ack) noexcept {
  if (shared_bits_ == 0) return {};
  BitWriter writer(buffer_, shared_bits_);
  bool has_ack = ack.has_value();
  sim::Seq value = ack.value_or(0);
  // The largest snapshot with an ack fits kMaxPacketBytes, so this cannot fail.
  static_cast<void>(SerializeAck(writer, has_ack, value));
  return {buffer_.data(), writer.BytesWritten()};
}

}  // namespace netcube::protocol
