#include "netcube/protocol/messages.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <type_traits>

#include "netcube/protocol/rules.h"

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
  return SerializeInt(stream, s.x, sim::kMinX, sim::kMaxX) && SerializeInt(stream, s.y, sim::kMinY, sim::kMaxY) &&
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

// A residual: zigzag-mapped (0, -1, 1, -2, 2 ... -> 0, 1, 2, 3, 4 ...) to z, then z + 1 as an Exp-Golomb
// code: as many zero bits as z + 1 has bits after its leading one, then z + 1 itself. Small residuals,
// the common ones, take 1, 3 or 5 bits; the largest the simulation can produce (|value| <= max_abs)
// bounds the code, so a reader never counts more zeros than that.
template <class Stream>
bool SerializeResidual(Stream& stream, std::int32_t& value, std::int32_t max_abs) {
  const int max_zeros = static_cast<int>(std::bit_width(static_cast<std::uint32_t>(2 * max_abs + 1))) - 1;
  if constexpr (Stream::kWriting) {
    if (value < -max_abs || value > max_abs) return false;
    const std::uint32_t z = value >= 0 ? 2u * static_cast<std::uint32_t>(value)
                                       : 2u * static_cast<std::uint32_t>(-value) - 1u;
    const int width = static_cast<int>(std::bit_width(z + 1));
    return stream.Bits(0, width - 1) && stream.Bits(z + 1, width);
  } else {
    int zeros = 0;
    std::uint32_t bit = 0;
    while (true) {
      if (!stream.Bits(bit, 1)) return false;
      if (bit != 0) break;
      if (++zeros > max_zeros) return false;
    }
    std::uint32_t rest = 0;
    if (!stream.Bits(rest, zeros)) return false;
    const std::uint32_t z = ((1u << zeros) | rest) - 1u;
    const auto half = static_cast<std::int64_t>((z + 1) / 2);
    const std::int64_t v = (z & 1u) != 0 ? -half : half;
    if (v < -max_abs || v > max_abs) return false;
    value = static_cast<std::int32_t>(v);
    return true;
  }
}

// One baseline cube's fate: `0` as predicted, `10` changed, `11` left. A change says how many Moves the
// cube made (as an offset from the age), whether and when its buttons changed, then `0` when the
// prediction is exact or `1` and the four residuals.
template <class Stream>
bool SerializeCubeDelta(Stream& stream, CubeDelta& d, int age) {
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
  if (!SerializeResidual(stream, offset, kMaxMovesOffset)) return false;
  if constexpr (Stream::kReading) {
    d.moves = age + offset;
    if (d.moves < 0) return false;
  }
  if (!SerializeBool(stream, d.turned)) return false;
  if (d.turned) {
    if (!SerializeInt(stream, d.buttons, 0, sim::kButtonMask) || !SerializeInt(stream, d.turn_at, 0, d.moves)) {
      return false;
    }
  } else if constexpr (Stream::kWriting) {
    if (d.buttons != 0 || d.turn_at != 0) return false;  // canonical: nothing unsent is set
  }
  bool off = d.dx != 0 || d.dy != 0 || d.dvx != 0 || d.dvy != 0;
  if (!SerializeBool(stream, off)) return false;
  // Canonical: a change that changes nothing is a prediction.
  if (!off && !d.turned && d.moves == age) return false;
  if (!off) return true;
  if (!SerializeResidual(stream, d.dx, kMaxPositionResidual) || !SerializeResidual(stream, d.dy, kMaxPositionResidual) ||
      !SerializeResidual(stream, d.dvx, kMaxVelocityResidual) ||
      !SerializeResidual(stream, d.dvy, kMaxVelocityResidual)) {
    return false;
  }
  // Canonical: residuals flagged are not all zero.
  return d.dx != 0 || d.dy != 0 || d.dvx != 0 || d.dvy != 0;
}

// The shared part of a delta: tick, age, one fate per baseline cube, the joined cubes.
template <class Stream>
bool SerializeDeltaBody(Stream& stream, DeltaSnapshot& m) {
  if (!SerializeUnsigned(stream, m.server_tick) || !SerializeInt(stream, m.age, 1, kMaxDeltaAge)) return false;
  std::size_t count = m.baseline.size();
  if (!SerializeInt(stream, count, 0, kMaxPlayers)) return false;
  if constexpr (Stream::kReading) m.baseline.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (!SerializeCubeDelta(stream, m.baseline[i], m.age)) return false;
  }
  return SerializePlayers(stream, m.joined);
}

// The per-receiver part, last on the wire so that the SnapshotWriter can rewrite it in place.
template <class Stream>
bool SerializeAck(Stream& stream, bool& has_ack, sim::Seq& ack, std::int8_t& input_lead) {
  if (!SerializeBool(stream, has_ack)) return false;
  if (has_ack && (!SerializeUnsigned(stream, ack) || !SerializeInt(stream, input_lead, kMinInputLead, kMaxInputLead)))
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
  return SerializeWorld(stream, m.server_tick, m.players) && SerializeAck(stream, m.has_ack, m.ack, m.input_lead);
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
  if (a.server_tick != b.server_tick || a.has_ack != b.has_ack || a.ack != b.ack || a.input_lead != b.input_lead)
    return false;
  if (a.players.size() != b.players.size()) return false;
  for (std::size_t i = 0; i < a.players.size(); ++i) {
    if (!SameOnWire(a.players[i], b.players[i])) return false;
  }
  return true;
}

bool operator==(const DeltaSnapshot& a, const DeltaSnapshot& b) noexcept {
  if (a.server_tick != b.server_tick || a.age != b.age || a.has_ack != b.has_ack || a.ack != b.ack ||
      a.input_lead != b.input_lead)
    return false;
  if (!(a.baseline == b.baseline) || a.joined.size() != b.joined.size()) return false;
  for (std::size_t i = 0; i < a.joined.size(); ++i) {
    if (!SameOnWire(a.joined[i], b.joined[i])) return false;
  }
  return true;
}

MessageType TypeOf(const Message& message) noexcept { return static_cast<MessageType>(message.index()); }

const char* ToString(MessageType type) noexcept {
  static constexpr std::array<const char*, kMessageTypeCount> kNames = {
      "connect_request", "connect_refused", "welcome", "input", "snapshot", "player_joined", "player_left",
      "time_echo", "tag", "tag_result", "delta_snapshot", "snapshot_ack", "challenge", "challenge_response",
      "snapshot_rate"};
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

std::string NameProblem(std::string_view name) {
  if (name.empty()) return "a name needs at least one character";
  if (name.size() > kMaxNameLength) {
    return "'" + std::string(name) + "' has " + std::to_string(name.size()) + " characters; at most " +
           std::to_string(kMaxNameLength);
  }
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!IsPrintable(name[i])) {
      return "character " + std::to_string(i + 1) + " of the name is not printable ASCII (32..126)";
    }
  }
  return {};
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
  constexpr std::size_t kHeaderBits = 6 + 32 + 8 + 9 + 9;  // type, tick, age, the two counts
  cube_bits_ = shared_bits_ - kHeaderBits;
  return true;
}

sim::CubeState PredictCube(const sim::CubeState& baseline, int moves, std::uint8_t buttons, int turn_at,
                           std::uint64_t* moves_stepped) noexcept {
  sim::CubeState out = sim::MoveRepeated(baseline, {0, baseline.buttons}, turn_at, moves_stepped);
  out = sim::MoveRepeated(out, {0, buttons}, moves - turn_at, moves_stepped);
  out.buttons = buttons;
  out.last_input = 0;
  out.held_since = 0;
  return out;
}

namespace {

bool ResidualsFit(const CubeDelta& d) noexcept {
  return std::abs(d.dx) <= kMaxPositionResidual && std::abs(d.dy) <= kMaxPositionResidual &&
         std::abs(d.dvx) <= kMaxVelocityResidual && std::abs(d.dvy) <= kMaxVelocityResidual;
}

// How `actual` differs from `base` `age` ticks later: the Moves it made and when its buttons changed,
// read from its bookkeeping, then what that prediction misses. False when it is beyond a delta's reach.
// `straight`, when made, is PredictCube(base, age): a change without a turn (a push, say) reuses it.
bool DescribeChange(const sim::CubeState& base, const sim::CubeState& actual, int age,
                    const sim::CubeState* straight, CubeDelta& d, std::uint64_t* moves_stepped) noexcept {
  d.op = DeltaOp::kChanged;
  d.moves = sim::SeqDiff(actual.last_input, base.last_input);
  if (d.moves < 0 || std::abs(d.moves - age) > kMaxMovesOffset) d.moves = age;  // e.g. a new sequence
  d.turned = actual.buttons != base.buttons;
  d.buttons = d.turned ? actual.buttons : 0;
  d.turn_at = d.turned ? std::clamp(sim::SeqDiff(actual.held_since, base.last_input) - 1, 0, d.moves) : 0;
  const sim::CubeState p =
      straight != nullptr && !d.turned && d.moves == age
          ? *straight
          : PredictCube(base, d.moves, actual.buttons, d.turned ? d.turn_at : d.moves, moves_stepped);
  d.dx = actual.x - p.x;
  d.dy = actual.y - p.y;
  d.dvx = actual.vx - p.vx;
  d.dvy = actual.vy - p.vy;
  return ResidualsFit(d);
}

}  // namespace

bool MakeDelta(std::uint32_t server_tick, std::span<const sim::PlayerCube> world,
               std::span<const std::uint32_t> world_generations, int age,
               std::span<const sim::PlayerCube> baseline, std::span<const std::uint32_t> baseline_generations,
               DeltaSnapshot& out, std::uint64_t* moves_stepped) noexcept {
  if (age < 1 || age > kMaxDeltaAge || world.size() != world_generations.size() ||
      baseline.size() != baseline_generations.size() || world.size() > kMaxPlayers || baseline.size() > kMaxPlayers) {
    return false;
  }
  out.server_tick = server_tick;
  out.age = age;
  out.baseline.clear();
  out.joined.clear();
  // Both lists are in increasing id order: merge them. A cube of the world not matched to a baseline cube of
  // the same player (same id and generation) joined; one the delta cannot describe is said to leave and
  // join again.
  std::size_t j = 0;
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    const sim::PlayerId id = baseline[i].id;
    while (j < world.size() && world[j].id < id) out.joined.push_back(world[j++]);
    CubeDelta d;
    if (j < world.size() && world[j].id == id && world_generations[j] == baseline_generations[i]) {
      const sim::CubeState& base = baseline[i].state;
      const sim::CubeState& actual = world[j].state;
      // A cube whose buttons changed turned: its straight prediction is of no use.
      std::optional<sim::CubeState> straight;
      if (actual.buttons == base.buttons) straight = PredictCube(base, age, moves_stepped);
      if (straight && sim::SamePhysics(*straight, actual)) {
        ++j;
      } else if (DescribeChange(base, actual, age, straight ? &*straight : nullptr, d, moves_stepped)) {
        ++j;
      } else {
        d = CubeDelta{DeltaOp::kLeft};
        out.joined.push_back(world[j++]);
      }
    } else {
      d.op = DeltaOp::kLeft;
    }
    out.baseline.push_back(d);
  }
  while (j < world.size()) out.joined.push_back(world[j++]);
  return true;
}

namespace {

bool InRange(const sim::CubeState& s) noexcept {
  return s.x >= sim::kMinX && s.x <= sim::kMaxX && s.y >= sim::kMinY && s.y <= sim::kMaxY &&
         std::abs(s.vx) <= sim::kMaxSpeed && std::abs(s.vy) <= sim::kMaxSpeed && s.buttons <= sim::kButtonMask;
}

bool AppendIncreasing(FixedVector<sim::PlayerCube, kMaxPlayers>& out, const sim::PlayerCube& cube) noexcept {
  if (!out.empty() && out.back().id >= cube.id) return false;
  return InRange(cube.state) && out.push_back(cube);
}

}  // namespace

bool ApplyDelta(std::span<const sim::PlayerCube> baseline, const DeltaSnapshot& delta, Snapshot& out) noexcept {
  if (baseline.size() != delta.baseline.size()) return false;
  out.server_tick = delta.server_tick;
  out.has_ack = delta.has_ack;
  out.ack = delta.ack;
  out.input_lead = delta.input_lead;
  out.players.clear();
  std::size_t j = 0;
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    const CubeDelta& d = delta.baseline[i];
    if (d.op == DeltaOp::kLeft) continue;
    const sim::CubeState& base = baseline[i].state;
    // A cube is predicted, or changed: only the prediction it needs is made.
    sim::PlayerCube cube{baseline[i].id, {}};
    if (d.op != DeltaOp::kChanged) {
      cube.state = PredictCube(base, delta.age);
    } else {
      // The decoder's ranges, for deltas that were not decoded; and a turn is to other buttons (the
      // serializer cannot know the baseline's).
      if (d.moves < 0 || std::abs(d.moves - delta.age) > kMaxMovesOffset || d.turn_at < 0 || d.turn_at > d.moves ||
          !ResidualsFit(d) || (d.turned && d.buttons == base.buttons)) {
        return false;
      }
      cube.state = PredictCube(base, d.moves, d.turned ? d.buttons : base.buttons, d.turned ? d.turn_at : d.moves);
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
