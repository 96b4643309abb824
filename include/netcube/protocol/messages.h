#pragma once
// Every message of the netcube wire protocol, and the one Serialize function per message that the
// writer, the reader and the measurer all run. docs/PROTOCOL.md describes the same layout byte for byte.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "netcube/protocol/bitstream.h"
#include "netcube/protocol/channel.h"
#include "netcube/protocol/fixed_vector.h"
#include "netcube/sim/move.h"
#include "netcube/sim/ray.h"
#include "netcube/sim/world.h"

namespace netcube::protocol {

inline constexpr std::uint16_t kProtocolVersion = 19;
// A snapshot's input_lead, int[kMinInputLead, kMaxInputLead] on the wire (6 bits); the server clamps to it.
inline constexpr int kMinInputLead = -32;
inline constexpr int kMaxInputLead = 31;
inline constexpr std::uint32_t kProtocolMagic = 0x4E435542;  // "NCUB": cheap rejection of stray traffic
inline constexpr std::size_t kMaxPlayers =
    sim::kMaxPlayerIds;  // every sim::PlayerId: int[0, kMaxPlayers - 1] on the wire
// The most cubes a whole-world snapshot (Snapshot, DeltaSnapshot) holds. A world of 1,024 would not fit a
// packet (495 cubes do in the standard arena); 256 keeps a full snapshot, a delta's paths and a client's
// held baselines the size they were, and a larger world reaches every client in InterestSnapshots.
inline constexpr std::size_t kMaxWholeWorldCubes = 256;
inline constexpr std::size_t kMaxInputsPerPacket = 64;   // the client's redundancy cap
inline constexpr std::size_t kMaxNameLength = 15;        // fits std::string's inline buffer
inline constexpr std::size_t kMaxJoinedPerMessage = 64;  // a PlayerJoined's players: < 1 kB, one datagram
inline constexpr int kMaxRate = 240;                     // tick and snapshot rates, per second
// A ConnectRequest of this version is zero-padded to this size, so that nothing the server sends an
// address before it has proved itself (a Challenge, or a refusal) outweighs what came from it.
inline constexpr std::size_t kConnectRequestBytes = 256;
inline constexpr std::size_t kMinSnapshotBudget = 128;  // the fewest bytes SnapshotBudget may ask for

enum class MessageType : std::uint8_t {
  kConnectRequest = 0,
  kConnectRefused = 1,
  kWelcome = 2,
  kInput = 3,
  kSnapshot = 4,
  kPlayerJoined = 5,
  kPlayerLeft = 6,
  kTimeEcho = 7,
  kTag = 8,
  kTagResult = 9,
  kDeltaSnapshot = 10,
  kSnapshotAck = 11,
  kChallenge = 12,
  kChallengeResponse = 13,
  kSnapshotRate = 14,
  kInterestSnapshot = 15,
  kSnapshotBudget = 16,
  kViewpoint = 17,
};
inline constexpr int kMessageTypeCount = 18;
// The type field: 3 bits name types 0..6; their 7 is followed by 3 bits naming 7..13, whose 7 by 6 bits
// naming 14..77. ConnectRequest's 3-bit type keeps its magic and version where every version reads them.
inline constexpr int kShortTypeBits = 3;
inline constexpr int kTypeEscape = 7;
inline constexpr int kExtendedTypeBits = 3;
inline constexpr int kLongTypeEscape = kTypeEscape + (1 << kExtendedTypeBits) - 1;  // 14
inline constexpr int kLongTypeBits = 6;
inline constexpr int kMaxMessageTypes = kLongTypeEscape + (1 << kLongTypeBits);  // 78
static_assert(kMessageTypeCount <= kMaxMessageTypes);
inline constexpr int kRenderFractionSteps = 256;  // fractions of a tick in a Tag's render time
inline constexpr int kMaxTagDelayMs = 1000;  // the longest interpolation delay and rewind the wire states

// kNoSpectatorSeat: a spectator asked to watch, and every spectator seat is taken (or there are none).
enum class RefuseReason : std::uint8_t { kVersionMismatch, kServerFull, kMalformedRequest, kNoSpectatorSeat };
inline constexpr int kRefuseReasonCount = 4;
const char* ToString(RefuseReason reason) noexcept;

enum class LeaveReason : std::uint8_t { kDisconnected = 0, kTimedOut = 1 };
inline constexpr int kLeaveReasonCount = 2;
const char* ToString(LeaveReason reason) noexcept;

// Why the server closed a connection: the value its ENet disconnect carries (section 1 of PROTOCOL.md).
enum class DisconnectReason : std::uint32_t { kNone = 0, kMalformed = 1, kFlooding = 2, kSilent = 3 };
const char* ToString(DisconnectReason reason) noexcept;

// Client -> server, reliable, once after the ENet connection is up. Padded to kConnectRequestBytes when
// `version` is kProtocolVersion; any other version decodes whatever follows the name, so it can be refused.
struct ConnectRequest {
  std::uint32_t magic = kProtocolMagic;
  std::uint16_t version = kProtocolVersion;
  std::string name;       // printable ASCII, at most kMaxNameLength
  bool spectate = false;  // to watch, without a cube of its own
  friend bool operator==(const ConnectRequest&, const ConnectRequest&) = default;
};

// What is wrong with `name` as a player's name, empty when nothing: 1..kMaxNameLength printable ASCII
// characters (32..126), as a ConnectRequest carries it and the server accepts it.
std::string NameProblem(std::string_view name);

// Server -> client, reliable, followed by a disconnect.
struct ConnectRefused {
  RefuseReason reason = RefuseReason::kServerFull;
  std::uint16_t server_version = kProtocolVersion;
  friend bool operator==(const ConnectRefused&, const ConnectRefused&) = default;
};

// Server -> client, reliable, in answer to an accepted ConnectRequest.
struct Welcome {
  sim::PlayerId player_id = 0;
  std::uint8_t tick_rate = 60;
  std::uint8_t snapshot_rate = 20;
  std::uint16_t max_players = 32;
  bool collisions = true;
  sim::Arena arena;
  std::uint32_t server_tick = 0;
  // The most snapshots a second any client may ask for (SnapshotRate): the operator's cap, at most tick_rate.
  std::uint8_t max_snapshot_rate = 60;
  // Seated as a spectator: no cube of its own (player_id is 0 and names none); it sends no inputs or tags.
  bool spectator = false;
  friend bool operator==(const Welcome&, const Welcome&) = default;
};

// Client -> server, unreliable: the newest unacknowledged inputs, oldest first, consecutive sequence
// numbers, so one lost packet loses no input; and the newest snapshot the client holds (its delta baseline).
struct InputMessage {
  FixedVector<sim::Input, kMaxInputsPerPacket> inputs;
  std::uint16_t seen_tick = 0;  // the low 16 bits of that snapshot's server_tick
  friend bool operator==(const InputMessage&, const InputMessage&) = default;
};

// Server -> client, unreliable: the whole world at `server_tick` (its arena, the Welcome's, and the players
// in it in increasing id order), and the last input of the receiving client the server has applied (its
// cube's last_input).
struct Snapshot {
  std::uint32_t server_tick = 0;
  sim::Arena arena;
  FixedVector<sim::PlayerCube, kMaxPlayers> players;
  bool has_ack = false;  // false until the server has applied one of this client's inputs
  sim::Seq ack = 0;
  // has_ack only: the client's inputs waiting in the server's queue after this tick, minus the number the
  // server wants waiting (its input buffer's target): > 0 they arrive early, < 0 late (section 7).
  std::int8_t input_lead = 0;
  friend bool operator==(const Snapshot& a, const Snapshot& b) noexcept;
};

// Server -> clients, reliable: announcements. A new client is told of everyone already present, up to
// kMaxJoinedPerMessage players a message in increasing id; the others of the newcomer alone.
struct JoinedPlayer {
  sim::PlayerId player_id = 0;
  std::string name;
  friend bool operator==(const JoinedPlayer&, const JoinedPlayer&) = default;
};
struct PlayerJoined {
  FixedVector<JoinedPlayer, kMaxJoinedPerMessage> players;  // 1 or more, ids strictly increasing
  friend bool operator==(const PlayerJoined&, const PlayerJoined&) = default;
};
struct PlayerLeft {
  sim::PlayerId player_id = 0;
  LeaveReason reason = LeaveReason::kDisconnected;
  friend bool operator==(const PlayerLeft&, const PlayerLeft&) = default;
};

// Unreliable. The client sends its clock (request); the server returns it unchanged at once with its
// current tick (reply). Round-trip time is measured above the link conditioner, so it includes it.
struct TimeEcho {
  bool reply = false;
  std::uint32_t client_time_us = 0;
  std::uint32_t server_tick = 0;
  friend bool operator==(const TimeEcho&, const TimeEcho&) = default;
};

// Client -> server, reliable: a tag (an instant ray), judged against the world as its client drew it.
struct Tag {
  std::uint8_t shot = 0;              // the client's own count of tags, mod 256: TagResult names it
  sim::Seq seq = 0;                   // the newest input applied to the shooter's prediction when it fired
  std::uint32_t render_tick = 0;      // the render time of remote cubes when it fired, whole server ticks
  std::uint16_t render_fraction = 0;  // and the fraction of a tick, in 1/kRenderFractionSteps
  std::uint32_t seen_tick = 0;        // the newest snapshot it had received
  std::uint16_t delay_ms = 0;         // the interpolation delay it was using, [0, kMaxTagDelayMs]
  sim::Aim aim = 0;                   // the ray's direction from the shooter's cube
  friend bool operator==(const Tag&, const Tag&) = default;
};

enum class TagOutcome : std::uint8_t { kMiss = 0, kHit = 1, kRefused = 2 };
inline constexpr int kTagOutcomeCount = 3;
const char* ToString(TagOutcome outcome) noexcept;

// Server -> every client, reliable: how a tag was judged.
struct TagResult {
  sim::PlayerId shooter = 0;
  std::uint8_t shot = 0;  // the Tag's
  TagOutcome outcome = TagOutcome::kMiss;
  std::uint16_t rewind_ms = 0;    // how far back the server judged it, [0, kMaxTagDelayMs]
  sim::PlayerId target = 0;       // kHit only
  bool target_has_input = false;  // kHit only: the target's cube had applied an input at the judged time
  sim::Seq target_seq = 0;        // and the last one (so the target can tell how long ago that was)
  friend bool operator==(const TagResult&, const TagResult&) = default;
};

// Delta snapshots: the world at server_tick as a change from a snapshot the client said it holds (the
// baseline, `age` ticks older): how many Moves each cube made each tick (runs of ticks alike), when its
// buttons changed, which cubes came (whole, before a tick's step) and went (before one). The receiver runs
// the server's step again (exits out, arrivals in, each cube's Moves, then sim::ResolveOverlaps when the
// server resolves collisions) and has the server's world bit for bit, pushes included: a replay.
inline constexpr int kMaxDeltaAge = 256;  // ticks from the baseline; an older one gets a full snapshot
// A client keeps the worlds of at least its last kHeldBaselines snapshots: the server may send a delta
// against any of them it was told of, not only the newest (clients on one server share a few baselines).
inline constexpr int kHeldBaselines = 64;
// A turn of a cube's buttons since the baseline: after `at` Moves (counted from the baseline) it held the
// buttons `choice` names (ButtonsOfChoice: one of the 15 others than those it held before).
struct Turn {
  std::uint16_t at = 0;     // [0, moves), and later than the turn before
  std::uint8_t choice = 0;  // [0, kTurnChoices - 1]
  friend bool operator==(const Turn&, const Turn&) = default;
};
inline constexpr int kTurnChoices = 15;
// Narrow: writing a delta costs reading its paths (144 bytes a path with these fields, 272 with ints).
struct MoveRun {
  std::uint16_t ticks = 1;                                      // [1, age]
  std::uint8_t moves = 1;                                       // a tick, [0, kMaxMovesPerTick]
  static constexpr MoveRun Of(int ticks, int moves) noexcept {  // each in its range
    return {static_cast<std::uint16_t>(ticks), static_cast<std::uint8_t>(moves)};
  }
  friend bool operator==(const MoveRun&, const MoveRun&) = default;
};
// The most inputs a server applies to one cube in one tick (its lowest tick rate, catching up), and the
// most runs and turns one cube's path names (a cube that changes its rhythm more often is not replayed).
// A replay is bounded by these and by kMaxPacketBytes, not a count of its own: when every input comes late
// at once (a stalled host), every path gains runs, and a replay no longer than the full one is still sent.
inline constexpr int kMaxMovesPerTick = 3 * sim::kTicksPerSecond;
inline constexpr int kMaxPathRuns = 16;
inline constexpr int kMaxPathTurns = 16;
// What one baseline cube did since the baseline: its Moves (no runs: none at all), the input sequence
// numbers following its baseline last_input one by one, and its turns (Turn::at counts its Moves from the
// baseline; every turn is at a Move, so at < the Moves made).
struct CubePath {
  FixedVector<MoveRun, kMaxPathRuns> runs;
  FixedVector<Turn, kMaxPathTurns> turns;
  friend bool operator==(const CubePath&, const CubePath&) = default;
};
// A cube that came into the world since the baseline: put in before the step of tick `at` (1 for the
// first tick after the baseline, up to the age), in this state; its path follows from that tick.
struct Arrival {
  int at = 1;
  sim::PlayerCube cube{};  // compared as the wire carries it (DeltaSnapshot's ==)
};
// A cube that went: taken out before the step of tick `at` (a baseline cube's path, or a cube that came
// since), its path ending at the tick before.
struct Exit {
  std::size_t path = 0;  // the index of its path: the baseline's cubes first, then the arrivals'
  int at = 1;
  friend bool operator==(const Exit&, const Exit&) = default;
};
// The most cubes a replay lets come (none past it is made): 1 in 100 a second is 3 in a second's replay.
inline constexpr std::size_t kMaxArrivals = 64;
inline constexpr std::size_t kMaxReplayPaths = kMaxWholeWorldCubes + kMaxArrivals;

// Server -> client, unreliable: the world at server_tick against the baseline at server_tick - age.
struct DeltaSnapshot {
  std::uint32_t server_tick = 0;
  int age = 1;             // [1, kMaxDeltaAge]
  bool collisions = true;  // the server resolved overlaps at each tick
  // One path per baseline cube, in its order, then one per arrival, in its order (increasing `at`, then
  // id); the exits in increasing path order.
  FixedVector<CubePath, kMaxReplayPaths> paths;
  FixedVector<Arrival, kMaxArrivals> arrivals;
  FixedVector<Exit, kMaxReplayPaths> exits;
  bool has_ack = false;  // as in Snapshot
  sim::Seq ack = 0;
  std::int8_t input_lead = 0;
  friend bool operator==(const DeltaSnapshot& a, const DeltaSnapshot& b) noexcept;
};

// Client -> server, unreliable: the newest snapshot the client holds, sent at the snapshot rate while
// it sends no inputs (inputs carry the same field).
struct SnapshotAck {
  std::uint16_t seen_tick = 0;  // the low 16 bits of its server_tick
  friend bool operator==(const SnapshotAck&, const SnapshotAck&) = default;
};

// Server -> client, reliable, the only answer to a ConnectRequest before the client has echoed it: a
// random number the client can only know if it receives what is sent to its address.
struct Challenge {
  std::uint64_t nonce = 0;
  friend bool operator==(const Challenge&, const Challenge&) = default;
};

// Client -> server, reliable: the Challenge's nonce, unchanged. Only then is the client a player.
struct ChallengeResponse {
  std::uint64_t nonce = 0;
  friend bool operator==(const ChallengeResponse&, const ChallengeResponse&) = default;
};

// Client -> server, reliable: send me snapshots at this rate from now on, instead of the Welcome's
// snapshot_rate (at most its max_snapshot_rate). Each snapshot lost or late costs the client a snapshot
// interval of view delay: more, closer snapshots make each one cheaper.
struct SnapshotRate {
  std::uint8_t rate = 20;  // [1, kMaxRate] per second
  friend bool operator==(const SnapshotRate&, const SnapshotRate&) = default;
};

// Server -> client, unreliable, in place of a Snapshot or DeltaSnapshot to a client to which not every
// cube is relevant: its relevant set at server_tick by increasing id, each member's state whole,
// predicted (Move run predicted_age times under its buttons from the state of that cube the client holds
// at server_tick - predicted_age: PROTOCOL.md) or not carried; a cube held that is not a member has left.
inline constexpr int kMaxPredictedAge = kHeldBaselines;
inline constexpr std::size_t kInterestHeldStates = 8;
struct InterestMember {
  sim::PlayerCube cube{};  // its id always; its state when has_state and whole
  bool has_state = false;
  int predicted_age = 0;  // has_state only: 0 for a whole state, else [1, kMaxPredictedAge]
};
struct InterestSnapshot {
  std::uint32_t server_tick = 0;
  sim::Arena arena;
  FixedVector<InterestMember, kMaxPlayers> members;
  bool has_ack = false;  // as in Snapshot
  sim::Seq ack = 0;
  std::int8_t input_lead = 0;
  friend bool operator==(const InterestSnapshot& a, const InterestSnapshot& b) noexcept;
};

// Client -> server, reliable: keep my InterestSnapshots within this many bytes (a slow link's share), when
// less than the server's budget. Whole-world snapshots are not bound by it.
struct SnapshotBudget {
  std::uint16_t bytes = 1200;  // [kMinSnapshotBudget, kMaxPacketBytes]
  friend bool operator==(const SnapshotBudget&, const SnapshotBudget&) = default;
};

// Client -> server, reliable, a spectator's only: its camera (following a player's cube, or a point in whole
// units), its relevant set's centre. A spectator that never sends one watches from the arena's centre.
struct Viewpoint {
  bool follow = false;
  sim::PlayerId player_id = 0;   // follow only
  int x_units = 0, y_units = 0;  // !follow only: [0, kMaxArenaUnits - 1]; off the server's arena is refused
  friend bool operator==(const Viewpoint&, const Viewpoint&) = default;
};

using Message = std::variant<ConnectRequest, ConnectRefused, Welcome, InputMessage, Snapshot, PlayerJoined,
                             PlayerLeft, TimeEcho, Tag, TagResult, DeltaSnapshot, SnapshotAck, Challenge,
                             ChallengeResponse, SnapshotRate, InterestSnapshot, SnapshotBudget, Viewpoint>;

namespace detail {
template <class M, class... Ts>
constexpr std::size_t IndexIn(const std::variant<Ts...>*) noexcept {
  constexpr std::array<bool, sizeof...(Ts)> kMatch = {std::is_same_v<M, Ts>...};
  for (std::size_t i = 0; i < kMatch.size(); ++i) {
    if (kMatch[i]) return i;
  }
  return kMatch.size();
}
}  // namespace detail

// One of the message structs (not the Message variant itself).
template <class M>
concept OneMessage = detail::IndexIn<M>(static_cast<const Message*>(nullptr))
< std::variant_size_v<Message>;
template <OneMessage M>
inline constexpr auto kTypeOf =
    static_cast<MessageType>(detail::IndexIn<M>(static_cast<const Message*>(nullptr)));

MessageType TypeOf(const Message& message) noexcept;
constexpr Channel ChannelOf(MessageType type) noexcept {
  switch (type) {
    case MessageType::kInput:
    case MessageType::kSnapshot:
    case MessageType::kTimeEcho:
    case MessageType::kDeltaSnapshot:
    case MessageType::kSnapshotAck:
    case MessageType::kInterestSnapshot:
      return Channel::kUnreliable;
    default:  // control messages, and tags with their results: rare, and none may be lost
      return Channel::kReliable;
  }
}
const char* ToString(MessageType type) noexcept;

enum class DecodeError : std::uint8_t {
  kNone = 0,
  kEmpty,         // no bytes
  kTooLarge,      // more than kMaxPacketBytes
  kMalformed,     // truncated, out of range, inconsistent (unordered ids, bad magic, ...)
  kTrailingData,  // a valid message followed by more bytes or non-zero padding
};
const char* ToString(DecodeError error) noexcept;

// Writes `message` into `out`; returns the byte count, or 0 if the message is invalid (a value out of its
// range) or does not fit. The form for one message struct encodes it without building a Message.
std::size_t Encode(const Message& message, std::span<std::uint8_t> out) noexcept;
template <OneMessage M>
std::size_t Encode(const M& message, std::span<std::uint8_t> out) noexcept;
// Exact encoded size of a valid message.
std::size_t MeasureBytes(const Message& message) noexcept;
// Reads one message from a whole packet straight into `out`, reusing the message it holds when the type is
// the same (no temporary, no copy). On failure `out` holds a message of unspecified content.
DecodeError Decode(std::span<const std::uint8_t> packet, Message& out) noexcept;

}  // namespace netcube::protocol
