#include "netcube/protocol/messages.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <type_traits>

#include "delta_wire.h"
#include "netcube/protocol/rules.h"

namespace netcube::protocol {
namespace {

using delta_wire::SerializeCubeDelta;
using delta_wire::SerializeCubePath;

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
  return SerializeZeroPaddingTo(stream, kConnectRequestBytes);
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
bool Serialize(Stream& stream, ConnectRefused& m) {
  return SerializeInt(stream, m.reason, 0, kRefuseReasonCount - 1) &&
         SerializeUnsigned(stream, m.server_version);
}

template <class Stream>
bool Serialize(Stream& stream, Welcome& m) {
  return SerializeUnsigned(stream, m.player_id) && SerializeInt(stream, m.tick_rate, 1, kMaxRate) &&
         SerializeInt(stream, m.snapshot_rate, 1, kMaxRate) &&
         SerializeInt(stream, m.max_players, 1, kMaxPlayers) && SerializeBool(stream, m.collisions) &&
         SerializeInt(stream, m.arena_width, 1, 1 << 24) &&
         SerializeInt(stream, m.arena_height, 1, 1 << 24) && SerializeUnsigned(stream, m.server_tick) &&
         SerializeInt(stream, m.max_snapshot_rate, 1, kMaxRate);
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
bool SerializeCube(Stream& stream, sim::CubeState& s) {
  return SerializeInt(stream, s.x, sim::kMinX, sim::kMaxX) &&
         SerializeInt(stream, s.y, sim::kMinY, sim::kMaxY) &&
         SerializeInt(stream, s.vx, -sim::kMaxSpeed, sim::kMaxSpeed) &&
         SerializeInt(stream, s.vy, -sim::kMaxSpeed, sim::kMaxSpeed) &&
         SerializeInt(stream, s.buttons, 0, sim::kButtonMask);
}

// A cube's state as the wire carries it: physics and held buttons, no bookkeeping.
bool SameOnWire(const sim::PlayerCube& a, const sim::PlayerCube& b) noexcept {
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

template <class Stream>
bool Serialize(Stream& stream, Snapshot& m) {
  return SerializeWorld(stream, m.server_tick, m.players) &&
         SerializeAck(stream, m.has_ack, m.ack, m.input_lead);
}

template <class Stream>
bool Serialize(Stream& stream, DeltaSnapshot& m) {
  return SerializeDeltaBody(stream, m) && SerializeAck(stream, m.has_ack, m.ack, m.input_lead);
}

template <class Stream>
bool Serialize(Stream& stream, SnapshotAck& m) {
  return SerializeUnsigned(stream, m.seen_tick);
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
  if (a.server_tick != b.server_tick || a.has_ack != b.has_ack || a.ack != b.ack ||
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
      a.input_lead != b.input_lead || a.replay != b.replay || a.collisions != b.collisions ||
      !(a.paths == b.paths))
    return false;
  if (!(a.baseline == b.baseline) || a.joined.size() != b.joined.size()) return false;
  for (std::size_t i = 0; i < a.joined.size(); ++i) {
    if (!SameOnWire(a.joined[i], b.joined[i])) return false;
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

namespace {

// The bits of a snapshot's shared part before its cubes, of one cube, and of a delta's shared part with no
// cube: measured by the serializers themselves, so a change of the layout cannot leave them behind.
struct SharedPartBits {
  std::size_t full_header = 0;
  std::size_t full_cube = 0;
  std::size_t delta_header = 0;
  std::size_t replay_header = 0;
};

SharedPartBits MeasureSharedParts() noexcept {
  SharedPartBits out;
  std::uint32_t tick = 0;
  FixedVector<sim::PlayerCube, 1> cubes;
  BitMeasurer empty;
  SerializeType(empty, MessageType::kSnapshot);
  SerializeWorld(empty, tick, cubes);
  out.full_header = empty.BitsWritten();
  cubes.push_back({});
  BitMeasurer one;
  SerializeType(one, MessageType::kSnapshot);
  SerializeWorld(one, tick, cubes);
  out.full_cube = one.BitsWritten() - out.full_header;
  DeltaSnapshot delta;
  BitMeasurer delta_header;
  SerializeType(delta_header, MessageType::kDeltaSnapshot);
  SerializeDeltaBody(delta_header, delta);
  out.delta_header = delta_header.BitsWritten();
  delta.replay = true;
  BitMeasurer replay_header;
  SerializeType(replay_header, MessageType::kDeltaSnapshot);
  SerializeDeltaBody(replay_header, delta);
  out.replay_header = replay_header.BitsWritten();
  return out;
}

const SharedPartBits& SharedParts() noexcept {
  static const SharedPartBits kBits = MeasureSharedParts();
  return kBits;
}

}  // namespace

std::size_t ChangeBits(const CubeDelta& cube, const DeltaSnapshot& delta) noexcept {
  BitMeasurer measurer;
  int turn_budget = kMaxDeltaTurns;
  SerializeCubeDelta(measurer, const_cast<CubeDelta&>(cube), delta.age, delta.position_order,
                     delta.velocity_order, turn_budget);
  return measurer.BitsWritten();
}

std::size_t SnapshotWriter::FullSharedBits(std::size_t players) noexcept {
  return SharedParts().full_header + SharedParts().full_cube * players;
}

bool SnapshotWriter::Prepare(std::uint32_t server_tick, std::span<const sim::PlayerCube> players) noexcept {
  BitWriter writer(buffer_);
  if (!SerializeType(writer, MessageType::kSnapshot) || !SerializeWorld(writer, server_tick, players)) {
    shared_bits_ = cube_bits_ = 0;
    return false;
  }
  shared_bits_ = writer.BitsWritten();
  cube_bits_ = shared_bits_ - FullSharedBits(0);
  return true;
}

bool SnapshotWriter::Prepare(const DeltaSnapshot& delta) noexcept {
  BitWriter writer(buffer_);
  if (!SerializeType(writer, MessageType::kDeltaSnapshot) ||
      !SerializeDeltaBody(writer, const_cast<DeltaSnapshot&>(delta))) {
    shared_bits_ = cube_bits_ = 0;
    return false;
  }
  shared_bits_ = writer.BitsWritten();
  cube_bits_ = shared_bits_ - (delta.replay ? SharedParts().replay_header : SharedParts().delta_header);
  return true;
}

bool SnapshotWriter::Prepare(const DeltaSnapshot& delta, ReplayCodes& codes) noexcept {
  if (!delta.replay) {
    codes.Forget();
    return Prepare(delta);
  }
  auto& m = const_cast<DeltaSnapshot&>(delta);
  const auto baseline = delta.server_tick - static_cast<std::uint32_t>(delta.age);
  const bool same_replay = codes.held_ && codes.baseline_ == baseline && codes.age_ <= delta.age &&
                           codes.count_ == delta.paths.size();
  codes.held_ = false;  // until this encode is whole
  codes.copied_ = 0;
  shared_bits_ = cube_bits_ = 0;
  BitWriter writer(buffer_);
  std::size_t count = 0;
  if (!SerializeType(writer, MessageType::kDeltaSnapshot) || !SerializeDeltaHead(writer, m) ||
      !SerializeReplayHead(writer, m, count)) {
    return false;
  }
  // Paths whose codes hold follow one another in the last encode too: each such stretch is copied at once.
  std::size_t copy_from = 0;
  std::size_t copy_bits = 0;
  const auto copy = [&] {
    const bool copied = writer.Copy(codes.bytes_, copy_from, copy_bits);
    copy_bits = 0;
    return copied;
  };
  for (std::size_t i = 0; i < count; ++i) {
    const CubePath& path = delta.paths[i];
    ReplayCodes::PathCode& code = codes.paths_[i];
    const std::size_t at = writer.BitsWritten() + copy_bits;
    if (same_replay && delta.age < code.until_age && code.runs == path.runs.size() &&
        code.turns == path.turns.size() && (path.runs.empty() || path.runs.back().moves == 1)) {
      if (copy_bits == 0) copy_from = code.first_bit;
      copy_bits += code.bits;
      ++codes.copied_;
      code.first_bit = static_cast<std::uint32_t>(at);
      continue;
    }
    if (copy_bits > 0 && !copy()) return false;
    int widths_kept = kMaxDeltaAge;  // longer than any replay lasts
    if (!SerializeCubePath(writer, m.paths[i], delta.age, &widths_kept)) return false;
    code = ReplayCodes::PathCode{static_cast<std::uint32_t>(at),
                                 static_cast<std::uint16_t>(writer.BitsWritten() - at),
                                 static_cast<std::uint8_t>(path.runs.size()),
                                 static_cast<std::uint8_t>(path.turns.size()), delta.age + widths_kept};
  }
  if (copy_bits > 0 && !copy()) return false;
  shared_bits_ = writer.BitsWritten();
  cube_bits_ = shared_bits_ - SharedParts().replay_header;
  std::copy_n(buffer_.begin(), writer.BytesWritten(), codes.bytes_.begin());
  codes.held_ = true;
  codes.baseline_ = baseline;
  codes.age_ = delta.age;
  codes.count_ = count;
  return true;
}

std::span<const std::uint8_t> SnapshotWriter::PacketFor(std::optional<ReceiverAck> ack) noexcept {
  if (shared_bits_ == 0) return {};
  BitWriter writer(buffer_, shared_bits_);
  bool has_ack = ack.has_value();
  sim::Seq value = ack ? ack->ack : sim::Seq{0};
  auto lead = static_cast<std::int8_t>(ack ? std::clamp(ack->input_lead, kMinInputLead, kMaxInputLead) : 0);
  [[maybe_unused]] const bool written = SerializeAck(writer, has_ack, value, lead);
  assert(written && "the largest snapshot with an ack fits kMaxPacketBytes");
  return {buffer_.data(), writer.BytesWritten()};
}

}  // namespace netcube::protocol
