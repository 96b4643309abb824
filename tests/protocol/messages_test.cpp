#include "netcube/protocol/messages.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "netcube/protocol/replay.h"
#include "netcube/protocol/snapshot_writer.h"
#include "sample_messages.h"

namespace netcube::protocol {
namespace {

using testing::EncodeToVector;
using testing::Joined;
using testing::LargestJoined;
using testing::SampleMessages;

using Fields = std::vector<std::pair<std::uint32_t, int>>;

// Packs (value, bits) fields MSB first, exactly as docs/PROTOCOL.md lays them out, independently of
// the Serialize functions, so these tests also pin the documented layout.
std::vector<std::uint8_t> Pack(const Fields& fields) {
  std::vector<std::uint8_t> bytes(kMaxPacketBytes);
  BitWriter writer(bytes);
  for (const auto& [value, bits] : fields) EXPECT_TRUE(writer.Bits(value, bits)) << value << " in " << bits;
  bytes.resize(writer.BytesWritten());
  return bytes;
}

Fields Concat(Fields a, const Fields& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

DecodeError DecodeBytes(const std::vector<std::uint8_t>& bytes) {
  Message out;
  return Decode(bytes, out);
}

TEST(Messages, EverySampleRoundTrips) {
  for (const auto& [name, message] : SampleMessages()) {
    SCOPED_TRACE(name);
    const std::vector<std::uint8_t> bytes = EncodeToVector(message);
    ASSERT_FALSE(bytes.empty());
    EXPECT_EQ(MeasureBytes(message), bytes.size());
    Message decoded = TimeEcho{true, 1, 2};
    ASSERT_EQ(Decode(bytes, decoded), DecodeError::kNone);
    EXPECT_EQ(TypeOf(decoded), TypeOf(message));
    EXPECT_TRUE(decoded == message);
    EXPECT_EQ(EncodeToVector(decoded), bytes);
  }
}

struct SizedMessage {
  const char* name;
  Message message;
  std::size_t bits;  // the type (3 bits, 6 from type 7 on) + the fields listed in docs/PROTOCOL.md
};

// A replay of three cubes that made no Move (they may still have been pushed).
DeltaSnapshot ReplayAtRest() {
  DeltaSnapshot d;
  d.paths.resize(3);
  d.has_ack = true;
  return d;
}

// A replay at the age of a 20 Hz snapshot: one cube walking (a Move a tick), one that skipped its first
// tick, made two Moves in the second and one in the third, turning at its third Move.
DeltaSnapshot ReplayWalking() {
  DeltaSnapshot d;
  d.age = 3;
  CubePath walking;
  walking.runs.push_back({3, 1});
  d.paths.push_back(walking);
  CubePath uneven;
  uneven.runs.push_back({1, 0});
  uneven.runs.push_back({1, 2});
  uneven.runs.push_back({1, 1});
  uneven.turns.push_back({2, 2});
  d.paths.push_back(uneven);
  d.has_ack = true;
  return d;
}

// A replay of two ticks: the baseline's one cube went at the second, when another came, at rest, and stayed.
DeltaSnapshot ReplayChurned() {
  DeltaSnapshot d;
  d.age = 2;
  d.paths.resize(2);
  d.exits.push_back({0, 2});
  sim::PlayerCube newcomer{7, {}};
  newcomer.state.x = sim::kStandardArena.min_x();
  newcomer.state.y = sim::kStandardArena.min_y();
  d.arrivals.push_back({2, newcomer});
  return d;
}

// An InterestSnapshot of three members in the standard arena, the second without its state, with an ack:
// ids 1, 4 and 200, coded as the gaps 1, 2 and 195 after the ids before (3, 3 and 15 bits).
InterestSnapshot InterestTwoOfThree() {
  InterestSnapshot s;
  s.members.push_back({{1, {sim::kStandardArena.min_x(), sim::kStandardArena.min_y(), 0, 0, 0}}, true});
  s.members.push_back({{4, {}}, false});
  s.members.push_back({{200, {sim::kStandardArena.max_x(), sim::kStandardArena.max_y(), 0, 0, 0}}, true});
  s.has_ack = true;
  return s;
}

// Members 3 and 4 predicted, 1 tick old and kMaxPredictedAge, 9 whole, no ack.
InterestSnapshot InterestPredicted() {
  InterestSnapshot s;
  s.members.push_back({{3, {}}, true, 1});
  s.members.push_back({{4, {}}, true, kMaxPredictedAge});
  s.members.push_back({{9, {sim::kStandardArena.min_x(), sim::kStandardArena.min_y(), 0, 0, 0}}, true});
  return s;
}

// Members 0, 2, 6, 14 and 1023, none with its state, no ack: gaps 0, 1, 3, 7 and 1008, codes of 1, 3, 5, 7
// and 19 bits (Elias gamma: 2n + 1 bits for a gap below 2^(n+1) - 1).
InterestSnapshot InterestGammaLengths() {
  InterestSnapshot s;
  for (const int id : {0, 2, 6, 14, 1023}) s.members.push_back({{static_cast<sim::PlayerId>(id), {}}, false});
  return s;
}

// Every id a member, none with its state, with an ack: the most naming the members takes.
InterestSnapshot InterestEveryIdNamed() {
  InterestSnapshot s;
  for (std::size_t id = 0; id < kMaxPlayers; ++id)
    s.members.push_back({{static_cast<sim::PlayerId>(id), {}}, false});
  s.has_ack = true;
  return s;
}

// The ids of a snapshot's cubes or an InterestSnapshot's members, in their order.
std::vector<sim::PlayerId> IdsOf(const Snapshot& snapshot) {
  std::vector<sim::PlayerId> ids;
  for (const sim::PlayerCube& cube : snapshot.players) ids.push_back(cube.id);
  return ids;
}

// The InterestSnapshot of every cube of a full snapshot, each with its state.
InterestSnapshot InterestOfAll(const Snapshot& full) {
  InterestSnapshot s;
  s.server_tick = full.server_tick;
  s.arena = full.arena;
  for (const sim::PlayerCube& cube : full.players) s.members.push_back({cube, true});
  s.has_ack = full.has_ack;
  s.ack = full.ack;
  s.input_lead = full.input_lead;
  return s;
}

std::vector<SizedMessage> DocumentedSizes() {
  InputMessage one;
  one.inputs.push_back({1, 0});
  InputMessage full;
  for (int i = 0; i < 64; ++i) full.inputs.push_back({static_cast<sim::Seq>(i), 0});
  Snapshot acked;
  acked.has_ack = true;
  return {
      {"connect_request", ConnectRequest{kProtocolMagic, kProtocolVersion, "alice"},
       kConnectRequestBytes * 8},
      {"connect_request_version_1", ConnectRequest{kProtocolMagic, 1, "alice"}, 3 + 32 + 16 + 4 + 5 * 7},
      {"connect_refused", ConnectRefused{}, 3 + 2 + 16},
      {"welcome", Welcome{}, 3 + 10 + 8 + 8 + 10 + 1 + 12 + 12 + 32 + 8 + 1},
      {"input_1", one, 3 + 16 + 6 + 4 + 16},
      {"input_64", full, 3 + 16 + 6 + 64 * 4 + 16},
      {"snapshot_empty", Snapshot{}, 3 + 32 + 12 + 12 + 9 + 1},
      {"snapshot_empty_acked", acked, 3 + 32 + 12 + 12 + 9 + 1 + 16 + 6},
      {"snapshot_256", testing::FullSnapshot(),
       3 + 32 + 12 + 12 + 9 + 256 * (10 + 16 + 16 + 10 + 10 + 4) + 1 + 16 + 6},
      {"snapshot_256_largest_arena", testing::FullSnapshot(sim::kLargestArena),
       3 + 32 + 12 + 12 + 9 + 256 * (10 + 22 + 22 + 10 + 10 + 4) + 1 + 16 + 6},
      {"player_joined", Joined({{1, "bot-1"}}), 3 + 10 + 4 + 5 * 7 + 1},
      {"player_joined_largest", LargestJoined(),
       3 + kMaxJoinedPerMessage * (10 + 4 + kMaxNameLength * 7 + 1)},
      {"player_left", PlayerLeft{}, 3 + 10 + 1},
      {"time_echo", TimeEcho{}, 6 + 1 + 32 + 32},
      {"tag", Tag{}, 6 + 8 + 16 + 32 + 8 + 32 + 10 + 16},
      {"tag_result_miss", TagResult{}, 6 + 10 + 8 + 2 + 10},
      {"tag_result_hit", TagResult{1, 2, TagOutcome::kHit, 3, 4, false, 0}, 6 + 10 + 8 + 2 + 10 + 10 + 1},
      {"tag_result_hit_seq", TagResult{1, 2, TagOutcome::kHit, 3, 4, true, 5},
       6 + 10 + 8 + 2 + 10 + 10 + 1 + 16},
      {"delta_empty", DeltaSnapshot{}, 6 + 32 + 8 + 1 + 9 + 1 + 1},
      {"replay_at_rest", ReplayAtRest(), 6 + 32 + 8 + 1 + 9 + 1 + 3 + 1 + 16 + 6},
      {"replay_walking", ReplayWalking(),
       6 + 32 + 8 + 1 + 9 + 1 + (1 + 1) + (1 + 1 + (1 + 2 + 1) + 1 + (1 + 3 + 2 + 1)) + 1 + 16 + 6},
      // changed, arrivals int[0, 64], exits int[0, 2]; the exit: path int[0, 1], at int[1, 2];
      // the baseline path; the arrival: at int[1, 2], id, state, path.
      {"replay_churned", ReplayChurned(),
       6 + 32 + 8 + 1 + 9 + 1 + 7 + 2 + (1 + 1) + 1 + (1 + 10 + 22 + 22 + 10 + 10 + 4 + 1) + 1},
      {"snapshot_ack", SnapshotAck{}, 6 + 16},
      {"challenge", Challenge{}, 6 + 64},
      {"challenge_response", ChallengeResponse{}, 6 + 64},
      {"snapshot_rate", SnapshotRate{}, 6 + 6 + 8},
      {"snapshot_budget", SnapshotBudget{}, 6 + 6 + 12},
      {"viewpoint_follow", Viewpoint{true, 3, 0, 0}, 6 + 6 + 1 + 10},
      {"viewpoint_point", Viewpoint{false, 0, 10, 20}, 6 + 6 + 1 + 12 + 12},
      {"interest_empty", InterestSnapshot{}, 12 + 32 + 12 + 12 + 11 + 1},
      // per member its id's code and has_state, and a state when it has one: `0` and the state (x, y, vx,
      // vy, buttons), or `1` and its age (6 bits)
      {"interest_two_of_three", InterestTwoOfThree(),
       12 + 32 + 12 + 12 + 11 + (3 + 1 + 1 + 16 + 16 + 10 + 10 + 4) + (3 + 1) +
           (15 + 1 + 1 + 16 + 16 + 10 + 10 + 4) + 1 + 16 + 6},
      {"interest_predicted", InterestPredicted(),
       12 + 32 + 12 + 12 + 11 + (5 + 1 + 1 + 6) + (1 + 1 + 1 + 6) + (7 + 1 + 1 + 16 + 16 + 10 + 10 + 4) + 1},
      {"interest_gamma_lengths", InterestGammaLengths(),
       12 + 32 + 12 + 12 + 11 + (1 + 1) + (3 + 1) + (5 + 1) + (7 + 1) + (19 + 1) + 1},
      {"interest_every_id_named", InterestEveryIdNamed(),
       12 + 32 + 12 + 12 + 11 + 1024 * (1 + 1) + 1 + 16 + 6},
  };
}

TEST(Messages, EncodedSizesMatchTheDocumentedLayout) {
  for (const SizedMessage& m : DocumentedSizes()) {
    EXPECT_EQ(MeasureBytes(m.message), (m.bits + 7) / 8) << m.name;
  }
  // The largest full snapshot (kMaxWholeWorldCubes cubes with an ack): ⌈(68 + 66 × 256 + 23) / 8⌉ in the
  // standard arena, ⌈(68 + 78 × 256 + 23) / 8⌉ in the largest.
  EXPECT_EQ(testing::FullSnapshot().players.size(), kMaxWholeWorldCubes);
  EXPECT_EQ(MeasureBytes(testing::FullSnapshot()), 2124u);
  EXPECT_EQ(MeasureBytes(testing::FullSnapshot(sim::kLargestArena)), 2508u);
  // A cube more does not fit a whole-world snapshot: such a world goes in InterestSnapshots.
  Snapshot too_many = testing::FullSnapshot();
  too_many.players.push_back({testing::kLastPlayerId, {}});
  too_many.players[kMaxWholeWorldCubes - 1].id = testing::kLastPlayerId - 1;
  too_many.players.back().state = too_many.players[0].state;
  EXPECT_EQ(MeasureBytes(too_many), 0u);

  // InterestSnapshots name their members by the gaps between ids: with every id a member each takes 2 bits
  // (a gap of 0 and its flag), the most naming the members can take: ⌈(80 + 2 × 1024 + 22) / 8⌉ = 269
  // bytes with an ack. 130 whole states of the standard arena (57 bits each) fit the default budget beside
  // them, or a predicted state (7 bits) of every member.
  std::vector<sim::PlayerId> all(kMaxPlayers);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<sim::PlayerId>(i);
  const InterestBits every_id = CountInterestBits(sim::kStandardArena, all, true);
  EXPECT_EQ(every_id.named, 2150u);
  EXPECT_EQ(every_id.whole, 57u);
  EXPECT_EQ(every_id.predicted, 7u);
  EXPECT_EQ(every_id.Bytes(0), 269u);
  EXPECT_EQ(MeasureBytes(InterestEveryIdNamed()), 269u);
  EXPECT_EQ(every_id.Bytes(130), 1195u);
  EXPECT_EQ(every_id.Bytes(131), 1203u);
  EXPECT_EQ(every_id.Bytes(0, kMaxPlayers), 1165u);
  // The members of a full snapshot with their states: ids 0 .. 1023 in steps of 4 or 5, so a first gap of
  // 0 (1 bit) and 255 gaps of 3 or 4 (5 bits).
  const Snapshot full = testing::FullSnapshot();
  EXPECT_EQ(MeasureBytes(InterestOfAll(full)), (79u + 1 + 255 * 5 + 256 * (1 + 1 + 56) + 23 + 7) / 8);
  EXPECT_EQ(CountInterestBits(sim::kStandardArena, IdsOf(full), true).Bytes(256),
            MeasureBytes(InterestOfAll(full)));
  const Snapshot full_largest = testing::FullSnapshot(sim::kLargestArena);
  EXPECT_EQ(MeasureBytes(InterestOfAll(full_largest)), (79u + 1 + 255 * 5 + 256 * (1 + 1 + 68) + 23 + 7) / 8);
  EXPECT_EQ(CountInterestBits(sim::kLargestArena, IdsOf(full_largest), true).Bytes(256),
            MeasureBytes(InterestOfAll(full_largest)));
  for (const auto& [name, message] : SampleMessages()) {
    if (name == "delta_longest") {
      EXPECT_EQ(MeasureBytes(message), 4076u);  // the largest valid message
    }
    if (name == "replay_longest") {
      EXPECT_LE(MeasureBytes(message), kMaxPacketBytes);  // a replay near the packet's limit
    }
  }
}

// What a server sizes an InterestSnapshot by is what the encoder writes, for any set of ids (gaps of every
// code length) and states, whole and predicted.
TEST(Messages, InterestSnapshotBytesCountWhatTheEncoderWrites) {
  std::mt19937 rng(16);
  for (int trial = 0; trial < 300; ++trial) {
    const sim::Arena arena = trial % 2 == 0 ? sim::kStandardArena : sim::kLargestArena;
    InterestSnapshot s;
    s.arena = arena;
    s.has_ack = trial % 3 != 0;
    // Each id a member with a chance from all to almost none, so gaps run from 0 to hundreds.
    const std::uint32_t one_in = 1u << (rng() % 9);
    std::vector<sim::PlayerId> ids;
    std::size_t wholes = 0;
    std::size_t predictions = 0;
    for (std::size_t id = 0; id < kMaxPlayers; ++id) {
      if (rng() % one_in != 0) continue;
      InterestMember member{{static_cast<sim::PlayerId>(id), {}}, rng() % 4 == 0};
      if (member.has_state && rng() % 2 == 0) {
        member.predicted_age = static_cast<int>(1 + rng() % kMaxPredictedAge);
        ++predictions;
      } else if (member.has_state) {
        member.cube.state = {arena.max_x(), arena.min_y(), -sim::kMaxSpeed, 3, 0, sim::kUp};
        ++wholes;
      }
      s.members.push_back(member);
      ids.push_back(member.cube.id);
    }
    SCOPED_TRACE(::testing::Message() << "trial " << trial << ", " << ids.size() << " members");
    EXPECT_EQ(MeasureBytes(s), CountInterestBits(arena, ids, s.has_ack).Bytes(wholes, predictions));
  }
}

TEST(Messages, LayoutMatchesTheDocumentByteForByte) {
  // Every player id is int[0, 1023]: 10 bits.
  EXPECT_EQ(EncodeToVector(PlayerLeft{5, LeaveReason::kTimedOut}), Pack({{6, 3}, {5, 10}, {1, 1}}));
  EXPECT_EQ(EncodeToVector(PlayerLeft{1023, LeaveReason::kDisconnected}), Pack({{6, 3}, {1023, 10}, {0, 1}}));

  InputMessage inputs;
  inputs.inputs.push_back({65535, sim::kUp | sim::kRight});
  inputs.inputs.push_back({0, 0});
  inputs.inputs.push_back({1, sim::kDown});
  // type 3, newest seq 1, count 3 sent as 3 - 1, then buttons oldest first.
  inputs.seen_tick = 0xABCD;
  EXPECT_EQ(EncodeToVector(inputs), Pack({{3, 3}, {1, 16}, {2, 6}, {9, 4}, {0, 4}, {2, 4}, {0xABCD, 16}}));

  Snapshot snapshot;
  snapshot.server_tick = 0x01020304;
  snapshot.players.push_back({7,
                              {sim::kStandardArena.min_x() + 5, sim::kStandardArena.min_y() + 6,
                               -sim::kMaxSpeed, sim::kMaxSpeed, 0}});
  snapshot.has_ack = true;
  snapshot.ack = 0xBEEF;
  snapshot.input_lead = -3;
  EXPECT_EQ(EncodeToVector(snapshot), Pack({{4, 3},
                                            {0x01020304, 32},
                                            {64 - sim::kMinArenaUnits, 12},
                                            {36 - sim::kMinArenaUnits, 12},
                                            {1, 9},
                                            {7, 10},
                                            {5, 16},
                                            {6, 16},
                                            {0, 10},
                                            {512, 10},
                                            {0, 4},
                                            {1, 1},
                                            {0xBEEF, 16},
                                            {-3 - kMinInputLead, 6}}));

  EXPECT_EQ(EncodeToVector(ConnectRequest{kProtocolMagic, 1, "A"}),
            Pack({{0, 3}, {kProtocolMagic, 32}, {1, 16}, {1, 4}, {'A' - 32, 7}}));
  // This version's request: zero bytes up to kConnectRequestBytes after the name.
  std::vector<std::uint8_t> padded =
      Pack({{0, 3}, {kProtocolMagic, 32}, {kProtocolVersion, 16}, {1, 4}, {'A' - 32, 7}});
  padded.resize(kConnectRequestBytes, 0);
  EXPECT_EQ(EncodeToVector(ConnectRequest{kProtocolMagic, kProtocolVersion, "A"}), padded);
  // A spectator's: its bit right after the name.
  std::vector<std::uint8_t> watching =
      Pack({{0, 3}, {kProtocolMagic, 32}, {kProtocolVersion, 16}, {1, 4}, {'A' - 32, 7}, {1, 1}});
  watching.resize(kConnectRequestBytes, 0);
  EXPECT_EQ(EncodeToVector(ConnectRequest{kProtocolMagic, kProtocolVersion, "A", true}), watching);
  EXPECT_EQ(EncodeToVector(Challenge{0x0123456789ABCDEFull}),
            Pack({{7, 3}, {5, 3}, {0x01234567, 32}, {0x89ABCDEF, 32}}));
  EXPECT_EQ(EncodeToVector(ChallengeResponse{0xFEDCBA9876543210ull}),
            Pack({{7, 3}, {6, 3}, {0xFEDCBA98, 32}, {0x76543210, 32}}));
  EXPECT_EQ(EncodeToVector(ConnectRefused{RefuseReason::kVersionMismatch, 2}),
            Pack({{1, 3}, {0, 2}, {2, 16}}));
  EXPECT_EQ(EncodeToVector(Welcome{9, 60, 20, 32, true, sim::kStandardArena, 77, 30}),
            Pack({{2, 3},
                  {9, 10},
                  {59, 8},
                  {19, 8},
                  {31, 10},
                  {1, 1},
                  {64 - sim::kMinArenaUnits, 12},
                  {36 - sim::kMinArenaUnits, 12},
                  {77, 32},
                  {29, 8},
                  {0, 1}}));
  // max_players int[1, 1024]: 1024 is sent as 1023 in 10 bits.
  EXPECT_EQ(EncodeToVector(Welcome{1023, 60, 20, 1024, false, sim::kStandardArena, 77, 30}),
            Pack({{2, 3},
                  {1023, 10},
                  {59, 8},
                  {19, 8},
                  {1023, 10},
                  {0, 1},
                  {64 - sim::kMinArenaUnits, 12},
                  {36 - sim::kMinArenaUnits, 12},
                  {77, 32},
                  {29, 8},
                  {0, 1}}));
  EXPECT_EQ(EncodeToVector(Joined({{4, "x"}})), Pack({{5, 3}, {4, 10}, {1, 4}, {'x' - 32, 7}, {0, 1}}));
  EXPECT_EQ(EncodeToVector(Joined({{2, ""}, {4, "x"}})),
            Pack({{5, 3}, {2, 10}, {0, 4}, {1, 1}, {4, 10}, {1, 4}, {'x' - 32, 7}, {0, 1}}));
  EXPECT_EQ(EncodeToVector(TimeEcho{true, 0xCAFEF00D, 42}),
            Pack({{7, 3}, {0, 3}, {1, 1}, {0xCAFEF00D, 32}, {42, 32}}));
  EXPECT_EQ(EncodeToVector(Tag{200, 0xBEEF, 0x01020304, 255, 0x01020305, kMaxTagDelayMs, 0x4000}),
            Pack({{7, 3},
                  {1, 3},
                  {200, 8},
                  {0xBEEF, 16},
                  {0x01020304, 32},
                  {255, 8},
                  {0x01020305, 32},
                  {1000, 10},
                  {0x4000, 16}}));
  EXPECT_EQ(EncodeToVector(TagResult{3, 9, TagOutcome::kRefused, 0, 0, false, 0}),
            Pack({{7, 3}, {2, 3}, {3, 10}, {9, 8}, {2, 2}, {0, 10}}));
  EXPECT_EQ(EncodeToVector(TagResult{3, 9, TagOutcome::kHit, 183, 1000, true, 0xFFFF}),
            Pack({{7, 3}, {2, 3}, {3, 10}, {9, 8}, {1, 2}, {183, 10}, {1000, 10}, {1, 1}, {0xFFFF, 16}}));
  // Viewpoint: type 17 in the long form (7, 7, then 17 - 14); following, the player's id.
  EXPECT_EQ(EncodeToVector(Viewpoint{true, 700, 0, 0}), Pack({{7, 3}, {7, 3}, {3, 6}, {1, 1}, {700, 10}}));
  EXPECT_EQ(EncodeToVector(SnapshotAck{0x1234}), Pack({{7, 3}, {4, 3}, {0x1234, 16}}));
  // type 15 in the long form (7, 7, then 15 - 14); the count in 11 bits; each member's id as the Elias gamma
  // code of its gap after the id before + 1 (n zeros, then gap + 1 in n + 1 bits: the same bits as gap + 1
  // in 2n + 1 bits), its has_state, and its state when it has one.
  const std::uint32_t width = sim::kStandardArena.max_x() - sim::kStandardArena.min_x();
  const std::uint32_t height = sim::kStandardArena.max_y() - sim::kStandardArena.min_y();
  const Fields head = {{7, 3}, {7, 3}, {1, 6}, {0, 32}, {32, 12}, {4, 12}, {3, 11}};
  // id 1: gap 1 after 0; id 4: gap 2 after 2, no state
  const Fields first = {{0b010, 3}, {1, 1}, {0, 1}, {0, 16}, {0, 16}, {256, 10}, {256, 10}, {0, 4}};
  const Fields second = {{0b011, 3}, {0, 1}};
  // id 200: gap 195 after 5, 7 zeros then 196 in 8 bits
  const Fields third = {{196, 15}, {1, 1}, {0, 1}, {width, 16}, {height, 16}, {256, 10}, {256, 10}, {0, 4}};
  const Fields ack = {{1, 1}, {0, 16}, {32, 6}};
  EXPECT_EQ(EncodeToVector(InterestTwoOfThree()),
            Pack(Concat(Concat(head, first), Concat(Concat(second, third), ack))));
  // Gaps of 0 cost one bit each: ids 0, 1, 2, then 1023 (gap 1020 after 3: 9 zeros, 1021 in 10 bits).
  InterestSnapshot dense;
  for (const int id : {0, 1, 2, 1023}) dense.members.push_back({{static_cast<sim::PlayerId>(id), {}}, false});
  EXPECT_EQ(EncodeToVector(dense), Pack({{7, 3},
                                         {7, 3},
                                         {1, 6},
                                         {0, 32},
                                         {32, 12},
                                         {4, 12},
                                         {4, 11},
                                         {1, 1},
                                         {0, 1},
                                         {1, 1},
                                         {0, 1},
                                         {1, 1},
                                         {0, 1},
                                         {0, 9},
                                         {1021, 10},
                                         {0, 1},
                                         {0, 1}}));
}

// The hex examples of docs/PROTOCOL.md section 5, byte for byte.
TEST(Messages, WorkedExamplesOfTheProtocolDocument) {
  sim::OverlapResolver resolver;
  InputMessage inputs;
  inputs.inputs.push_back({65535, sim::kUp | sim::kRight});
  inputs.inputs.push_back({0, 0});
  inputs.inputs.push_back({1, sim::kDown});
  inputs.seen_tick = 1200;
  EXPECT_EQ(EncodeToVector(inputs), (std::vector<std::uint8_t>{0x60, 0x00, 0x21, 0x48, 0x10, 0x25, 0x80}));

  Snapshot snapshot;
  snapshot.server_tick = 1200;
  snapshot.players.push_back(
      {0, {sim::kStandardArena.width / 2, sim::kStandardArena.height / 2, 256, -24, 1, sim::kRight}});
  snapshot.has_ack = true;
  snapshot.ack = 1;
  snapshot.input_lead = 1;
  EXPECT_EQ(EncodeToVector(snapshot),
            (std::vector<std::uint8_t>{0x80, 0x00, 0x00, 0x96, 0x00, 0x40, 0x00, 0x80, 0x10, 0x01,
                                       0xF0, 0x01, 0x10, 0x02, 0x00, 0x3A, 0x22, 0x00, 0x03, 0x08}));

  // The same tick in an arena of 1024 x 576 units, one player at rest, no ack.
  Snapshot large;
  large.server_tick = 1200;
  large.arena = sim::Arena::OfUnits(1024, 576);
  large.players.push_back({3, {500000, 300000, 0, 0, 0}});
  EXPECT_EQ(EncodeToVector(large),
            (std::vector<std::uint8_t>{0x80, 0x00, 0x00, 0x96, 0x07, 0xC0, 0x44, 0x00, 0x10, 0x0D, 0xE7, 0x48,
                                       0x12, 0x3F, 0x81, 0x00, 0x40, 0x00}));

  // The DeltaSnapshot example: player 0 of the Snapshot example and players 1 and 4, none joined or left,
  // stepped by the server (sim::StepWorld) and logged as it logs them; the replay rebuilds the world bit for
  // bit.
  std::vector<sim::PlayerCube> replayed = {
      snapshot.players[0], {1, {5000, 6000, 0, 0, 7}}, {4, {20000, 10000, 0, 48, 100, sim::kDown}}};
  const std::vector<sim::PlayerCube> replay_baseline = replayed;
  const std::vector<std::uint32_t> three_generations = {0, 1, 4};
  MoveLog move_log;
  move_log.Record(1200, replayed, three_generations, {}, {}, true);
  const std::vector<std::vector<std::vector<sim::Input>>> ticks = {
      {{{2, sim::kRight}}, {{8, 0}}, {}},
      {{{3, sim::kRight | sim::kDown}}, {{9, 0}}, {{101, sim::kDown}, {102, sim::kDown}}},
      {{{4, sim::kRight | sim::kDown}}, {{10, 0}}, {}}};
  for (std::size_t t = 0; t < ticks.size(); ++t) {
    std::vector<sim::PlayerStep> steps;
    for (std::size_t i = 0; i < replayed.size(); ++i) {
      if (!ticks[t][i].empty()) steps.push_back({&replayed[i], ticks[t][i]});
    }
    sim::StepWorld(replayed, steps, true, sim::kStandardArena, resolver);
    move_log.Record(1201 + t, replayed, three_generations, {}, steps, true);
  }
  EXPECT_TRUE(sim::SamePhysics(replayed[0].state, {33532, 18455, 254, 22}));
  EXPECT_TRUE(sim::SamePhysics(replayed[2].state, {20000, 10168, 0, 96}));
  DeltaSnapshot replay;
  ASSERT_TRUE(MakeReplay(1203, 3, replay_baseline, replayed, move_log, replay));
  replay.has_ack = true;
  replay.ack = 4;
  replay.input_lead = -1;
  const std::vector<std::uint8_t> replay_bytes = {0xEC, 0x00, 0x00, 0x12, 0xCC, 0x0A, 0x03,
                                                  0x6F, 0x0A, 0xE6, 0xC8, 0x00, 0x23, 0xE0};
  EXPECT_EQ(EncodeToVector(replay), replay_bytes);
  Message decoded;
  ASSERT_EQ(Decode(replay_bytes, decoded), DecodeError::kNone);
  Snapshot rebuilt;
  ASSERT_TRUE(
      ApplyReplay(replay_baseline, sim::kStandardArena, std::get<DeltaSnapshot>(decoded), rebuilt, resolver));
  Snapshot expected;
  expected.server_tick = 1203;
  expected.has_ack = true;
  expected.ack = 4;
  expected.input_lead = -1;
  for (const sim::PlayerCube& cube : replayed) expected.players.push_back(cube);
  EXPECT_EQ(rebuilt, expected);
  // The full snapshot of the same world: 69 + 66 × 3 + 22 bits.
  EXPECT_EQ(EncodeToVector(expected).size(), 37u);

  // The replay example with a player going and one coming: after the first tick, player 1 went and player 2
  // came (at rest at (40000, 20000), no key), and at the second it made one Move with Up.
  std::vector<sim::PlayerCube> churned = replay_baseline;
  MoveLog churn_log;
  churn_log.Record(1200, churned, three_generations, {}, {}, true);
  std::vector<sim::PlayerStep> first_steps = {{&churned[0], ticks[0][0]}, {&churned[1], ticks[0][1]}};
  sim::StepWorld(churned, first_steps, true, sim::kStandardArena, resolver);
  churn_log.Record(1201, churned, three_generations, {}, first_steps, true);
  sim::PlayerCube newcomer{2, {}};
  newcomer.state.x = 40000;
  newcomer.state.y = 20000;
  churned[1] = newcomer;
  const std::vector<sim::Input> up = {{1, sim::kUp}};
  std::vector<sim::PlayerStep> second_steps = {{&churned[0], ticks[1][0]}, {&churned[1], up}};
  sim::StepWorld(churned, second_steps, true, sim::kStandardArena, resolver);
  const std::vector<std::uint32_t> churned_generations = {0, 5, 4};
  churn_log.Record(1202, churned, churned_generations, std::vector<sim::PlayerCube>{newcomer}, second_steps,
                   true);
  DeltaSnapshot churn;
  ASSERT_TRUE(MakeReplay(1202, 2, replay_baseline, churned, churn_log, churn));
  ASSERT_EQ(churn.exits.size(), 1u);
  ASSERT_EQ(churn.arrivals.size(), 1u);
  const std::vector<std::uint8_t> churn_bytes = {0xEC, 0x00, 0x00, 0x12, 0xC8, 0x06, 0x03, 0x81,
                                                 0x2F, 0x78, 0x52, 0x01, 0x01, 0x30, 0x80, 0x02,
                                                 0x51, 0x02, 0x00, 0x80, 0x06, 0x80};
  EXPECT_EQ(EncodeToVector(churn), churn_bytes);
  ASSERT_EQ(Decode(EncodeToVector(churn), decoded), DecodeError::kNone);
  ASSERT_TRUE(
      ApplyReplay(replay_baseline, sim::kStandardArena, std::get<DeltaSnapshot>(decoded), rebuilt, resolver));
  expected.players.clear();
  expected.server_tick = 1202;
  expected.has_ack = false;
  expected.ack = 0;
  expected.input_lead = 0;
  for (const sim::PlayerCube& cube : churned) expected.players.push_back(cube);
  EXPECT_EQ(rebuilt, expected);

  // The InterestSnapshot example: tick 1234 in 1024 x 576 units, to player 2 (ack 700, input_lead 0); members
  // 2 (its state whole), 5 (without) and 9 (predicted from the state the client holds of tick 1231).
  InterestSnapshot interest;
  interest.server_tick = 1234;
  interest.arena = sim::Arena::OfUnits(1024, 576);
  interest.members.push_back({{2, {500000, 300000, 256, 0, 0, sim::kRight}}, true});
  interest.members.push_back({{5, {}}, false});
  interest.members.push_back({{9, {}}, true, 3});
  interest.has_ack = true;
  interest.ack = 700;
  interest.input_lead = 0;
  const std::vector<std::uint8_t> interest_bytes = {0xFC, 0x10, 0x00, 0x00, 0x4D, 0x23, 0xE0, 0x22,
                                                    0x00, 0x06, 0xE7, 0x9D, 0x20, 0x48, 0xFE, 0x08,
                                                    0x01, 0x00, 0x86, 0x26, 0x14, 0x0A, 0xF2, 0x00};
  EXPECT_EQ(EncodeToVector(interest), interest_bytes);
  const std::vector<sim::PlayerId> interest_ids = {2, 5, 9};
  EXPECT_EQ(CountInterestBits(interest.arena, interest_ids, true).Bytes(1, 1), interest_bytes.size());
  ASSERT_EQ(Decode(interest_bytes, decoded), DecodeError::kNone);
  ASSERT_TRUE(std::holds_alternative<InterestSnapshot>(decoded));
  EXPECT_EQ(std::get<InterestSnapshot>(decoded), interest);
  EXPECT_FALSE(std::get<InterestSnapshot>(decoded).members[1].has_state);
  EXPECT_EQ(std::get<InterestSnapshot>(decoded).members[1].cube.state, sim::CubeState{});  // a zero state
  // Player 9's state: Move three times from the one held of tick 1231, under its buttons (Up).
  sim::CubeState nine{510000, 305144, 0, -40, 0, sim::kUp};
  for (int k = 0; k < 3; ++k) nine = sim::Move(nine, sim::Input{0, nine.buttons}, interest.arena);
  EXPECT_TRUE(sim::SameCarried(nine, sim::CubeState{510000, 304880, 0, -112, 0, sim::kUp}))
      << nine.x << " " << nine.y << " " << nine.vx << " " << nine.vy;

  EXPECT_EQ(EncodeToVector(SnapshotAck{1203}), (std::vector<std::uint8_t>{0xF0, 0x12, 0xCC}));

  EXPECT_EQ(EncodeToVector(PlayerLeft{5, LeaveReason::kTimedOut}), (std::vector<std::uint8_t>{0xC0, 0x2C}));
  EXPECT_EQ(EncodeToVector(Joined({{2, "ann"}, {5, "bo"}})),
            (std::vector<std::uint8_t>{0xA0, 0x11, 0xC1, 0x9D, 0x3A, 0x02, 0x94, 0x29, 0xE0}));

  EXPECT_EQ(EncodeToVector(Tag{12, 1000, 4000, 128, 4005, 150, 0x4000}),
            (std::vector<std::uint8_t>{0xE4, 0x30, 0x0F, 0xA0, 0x00, 0x00, 0x3E, 0x82, 0x00, 0x00, 0x00, 0x3E,
                                       0x94, 0x96, 0x40, 0x00}));
  EXPECT_EQ(EncodeToVector(TagResult{1, 12, TagOutcome::kHit, 183, 0, true, 420}),
            (std::vector<std::uint8_t>{0xE8, 0x01, 0x0C, 0x4B, 0x70, 0x02, 0x03, 0x48}));

  std::vector<std::uint8_t> request{0x09, 0xC8, 0x6A, 0xA8, 0x40, 0x02, 0x6B, 0x06, 0x64, 0x98, 0x71, 0x40};
  request.resize(kConnectRequestBytes, 0);
  EXPECT_EQ(EncodeToVector(ConnectRequest{kProtocolMagic, kProtocolVersion, "alice"}), request);
  // A spectator's join: its request, its Welcome, and the refusal when no seat is free.
  std::vector<std::uint8_t> watching{0x09, 0xC8, 0x6A, 0xA8, 0x40, 0x02, 0x67, 0x16, 0xB4, 0x58};
  watching.resize(kConnectRequestBytes, 0);
  EXPECT_EQ(EncodeToVector(ConnectRequest{kProtocolMagic, kProtocolVersion, "eve", true}), watching);
  EXPECT_EQ(EncodeToVector(Welcome{0, 60, 20, 32, true, sim::kStandardArena, 1200, 30, true}),
            (std::vector<std::uint8_t>{0x40, 0x01, 0xD8, 0x98, 0x3F, 0x02, 0x00, 0x04, 0x00, 0x00, 0x04, 0xB0,
                                       0x1D, 0x80}));
  EXPECT_EQ(EncodeToVector(ConnectRefused{RefuseReason::kNoSpectatorSeat, kProtocolVersion}),
            (std::vector<std::uint8_t>{0x38, 0x00, 0x98}));
  EXPECT_EQ(EncodeToVector(Viewpoint{true, 7, 0, 0}), (std::vector<std::uint8_t>{0xFC, 0x38, 0x0E}));
  EXPECT_EQ(EncodeToVector(Viewpoint{false, 0, 100, 50}),
            (std::vector<std::uint8_t>{0xFC, 0x30, 0x32, 0x01, 0x90}));
  EXPECT_EQ(EncodeToVector(Challenge{0x0123456789ABCDEFull}),
            (std::vector<std::uint8_t>{0xF4, 0x04, 0x8D, 0x15, 0x9E, 0x26, 0xAF, 0x37, 0xBC}));
  EXPECT_EQ(EncodeToVector(ChallengeResponse{0x0123456789ABCDEFull}),
            (std::vector<std::uint8_t>{0xF8, 0x04, 0x8D, 0x15, 0x9E, 0x26, 0xAF, 0x37, 0xBC}));
  EXPECT_EQ(EncodeToVector(SnapshotRate{60}), (std::vector<std::uint8_t>{0xFC, 0x03, 0xB0}));
  EXPECT_EQ(EncodeToVector(SnapshotBudget{600}), (std::vector<std::uint8_t>{0xFC, 0x21, 0xD8}));
}

TEST(Messages, ChannelsFollowReliability) {
  for (const MessageType t :
       {MessageType::kConnectRequest, MessageType::kConnectRefused, MessageType::kWelcome,
        MessageType::kPlayerJoined, MessageType::kPlayerLeft, MessageType::kTag, MessageType::kTagResult}) {
    EXPECT_EQ(ChannelOf(t), Channel::kReliable) << ToString(t);
  }
  for (const MessageType t :
       {MessageType::kInput, MessageType::kSnapshot, MessageType::kTimeEcho, MessageType::kDeltaSnapshot,
        MessageType::kSnapshotAck, MessageType::kInterestSnapshot}) {
    EXPECT_EQ(ChannelOf(t), Channel::kUnreliable) << ToString(t);
  }
  EXPECT_EQ(static_cast<int>(Channel::kReliable), 0);
  EXPECT_EQ(static_cast<int>(Channel::kUnreliable), 1);
}

TEST(Messages, EveryEnumHasAName) {
  for (int t = 0; t < kMessageTypeCount; ++t) {
    EXPECT_STRNE(ToString(static_cast<MessageType>(t)), "unknown");
  }
  EXPECT_STREQ(ToString(static_cast<MessageType>(kMessageTypeCount)), "unknown");
  for (int r = 0; r < kRefuseReasonCount; ++r) {
    EXPECT_STRNE(ToString(static_cast<RefuseReason>(r)), "unknown reason");
  }
  for (int r = 0; r < kLeaveReasonCount; ++r)
    EXPECT_STRNE(ToString(static_cast<LeaveReason>(r)), "unknown reason");
  for (int o = 0; o < kTagOutcomeCount; ++o) {
    EXPECT_STRNE(ToString(static_cast<TagOutcome>(o)), "unknown outcome");
  }
  for (const DecodeError e : {DecodeError::kNone, DecodeError::kEmpty, DecodeError::kTooLarge,
                              DecodeError::kMalformed, DecodeError::kTrailingData}) {
    EXPECT_STRNE(ToString(e), "unknown error");
  }
}

// --- Encoding refuses invalid messages, so a sender bug never produces a packet a receiver would reject.

void ExpectUnencodable(const Message& message) {
  std::array<std::uint8_t, kMaxPacketBytes> buffer{};
  EXPECT_EQ(Encode(message, buffer), 0u);
  EXPECT_EQ(MeasureBytes(message), 0u);
}

TEST(Encode, RejectsBadNames) {
  ExpectUnencodable(ConnectRequest{kProtocolMagic, 1, std::string(16, 'a')});
  ExpectUnencodable(ConnectRequest{kProtocolMagic, 1, "tab\there"});
  ExpectUnencodable(ConnectRequest{kProtocolMagic, 1, std::string("nul\0", 4)});
  ExpectUnencodable(ConnectRequest{kProtocolMagic, 1, "\x7F"});
  ExpectUnencodable(ConnectRequest{kProtocolMagic, 1, "caf\xC3\xA9"});  // UTF-8 is not printable ASCII
  // docs/PROTOCOL.md's worked example.
  EXPECT_EQ(EncodeToVector(Welcome{9, 60, 20, 32, true, sim::kStandardArena, 1200, 30}),
            (std::vector<std::uint8_t>{0x40, 0x49, 0xD8, 0x98, 0x3F, 0x02, 0x00, 0x04, 0x00, 0x00, 0x04, 0xB0,
                                       0x1D, 0x00}));
  ExpectUnencodable(Joined({{1, std::string(16, 'b')}}));
  ExpectUnencodable(Joined({{1, "new\nline"}}));
}

TEST(Encode, RejectsOutOfRangeEnumsAndSettings) {
  ExpectUnencodable(ConnectRefused{static_cast<RefuseReason>(kRefuseReasonCount), 1});
  ExpectUnencodable(PlayerLeft{1, static_cast<LeaveReason>(kLeaveReasonCount)});
  Welcome w;
  w.tick_rate = 0;
  ExpectUnencodable(w);
  w = Welcome{};
  w.tick_rate = kMaxRate + 1;
  ExpectUnencodable(w);
  w = Welcome{};
  w.snapshot_rate = 0;
  ExpectUnencodable(w);
  w = Welcome{};
  w.max_players = 0;
  ExpectUnencodable(w);
  w = Welcome{};
  w.max_players = kMaxPlayers + 1;
  ExpectUnencodable(w);
  w = Welcome{};
  w.arena = sim::Arena::OfUnits(sim::kMinArenaUnits - 1, 36);
  ExpectUnencodable(w);
  w = Welcome{};
  w.arena = sim::Arena::OfUnits(64, sim::kMaxArenaUnits + 1);
  ExpectUnencodable(w);
  w = Welcome{};
  w.max_snapshot_rate = 0;
  ExpectUnencodable(w);
  w = Welcome{};
  w.max_snapshot_rate = kMaxRate + 1;
  ExpectUnencodable(w);
}

TEST(Encode, RejectsEmptyOrNonConsecutiveInputs) {
  ExpectUnencodable(InputMessage{});
  InputMessage gap;
  gap.inputs.push_back({5, 0});
  gap.inputs.push_back({7, 0});
  ExpectUnencodable(gap);
  InputMessage backwards;
  backwards.inputs.push_back({7, 0});
  backwards.inputs.push_back({6, 0});
  ExpectUnencodable(backwards);
  InputMessage bad_buttons;
  bad_buttons.inputs.push_back({1, 16});
  ExpectUnencodable(bad_buttons);
  InputMessage wraps;  // consecutive across the wrap is fine
  wraps.inputs.push_back({65535, 0});
  wraps.inputs.push_back({0, 0});
  EXPECT_EQ(MeasureBytes(wraps), 7u);  // 3+16+6+2*4+16 = 49 bits
}

TEST(Encode, RejectsOutOfRangeCubesAndUnorderedIds) {
  const sim::CubeState valid{sim::kStandardArena.min_x(), sim::kStandardArena.min_y(), 0, 0, 0};
  const auto with = [](sim::CubeState s, sim::PlayerId second_id) {
    Snapshot snap;
    snap.players.push_back({1, {sim::kStandardArena.max_x(), sim::kStandardArena.max_y(), 0, 0, 0}});
    snap.players.push_back({second_id, s});
    return snap;
  };
  EXPECT_GT(MeasureBytes(with(valid, 2)), 0u);
  sim::CubeState s = valid;
  s.x = sim::kStandardArena.min_x() - 1;
  ExpectUnencodable(with(s, 2));
  s = valid;
  s.x = sim::kStandardArena.max_x() + 1;
  ExpectUnencodable(with(s, 2));
  s = valid;
  s.y = sim::kStandardArena.max_y() + 1;
  ExpectUnencodable(with(s, 2));
  s = valid;
  s.vx = sim::kMaxSpeed + 1;
  ExpectUnencodable(with(s, 2));
  s = valid;
  s.vy = -sim::kMaxSpeed - 1;
  ExpectUnencodable(with(s, 2));
  ExpectUnencodable(with(valid, 1));  // duplicate id
  ExpectUnencodable(with(valid, 0));  // decreasing id
}

TEST(Encode, RejectsPlayerIdsBeyondTheLast) {
  // Ids are int[0, 1023]; sim::PlayerId holds more.
  constexpr sim::PlayerId kLast = testing::kLastPlayerId;
  constexpr sim::PlayerId kBeyond = kLast + 1;
  EXPECT_GT(MeasureBytes(Welcome{kLast, 60, 20, 32, true, sim::kStandardArena, 0, 30}), 0u);
  ExpectUnencodable(Welcome{kBeyond, 60, 20, 32, true, sim::kStandardArena, 0, 30});
  EXPECT_GT(MeasureBytes(Joined({{kLast, "a"}})), 0u);
  ExpectUnencodable(Joined({{kBeyond, "a"}}));
  EXPECT_GT(MeasureBytes(PlayerLeft{kLast, LeaveReason::kDisconnected}), 0u);
  ExpectUnencodable(PlayerLeft{kBeyond, LeaveReason::kDisconnected});
  EXPECT_GT(MeasureBytes(TagResult{kLast, 0, TagOutcome::kHit, 0, kLast, false, 0}), 0u);
  ExpectUnencodable(TagResult{kBeyond, 0, TagOutcome::kMiss, 0, 0, false, 0});
  ExpectUnencodable(TagResult{0, 0, TagOutcome::kHit, 0, kBeyond, false, 0});
  EXPECT_GT(MeasureBytes(Viewpoint{true, kLast, 0, 0}), 0u);
  ExpectUnencodable(Viewpoint{true, kBeyond, 0, 0});
  Snapshot snapshot;
  snapshot.players.push_back({kLast, {sim::kStandardArena.min_x(), sim::kStandardArena.min_y(), 0, 0, 0}});
  EXPECT_GT(MeasureBytes(snapshot), 0u);
  snapshot.players[0].id = kBeyond;
  ExpectUnencodable(snapshot);
  InterestSnapshot interest;
  interest.members.push_back({{kLast, {}}, false});
  EXPECT_GT(MeasureBytes(interest), 0u);
  interest.members[0].cube.id = kBeyond;
  ExpectUnencodable(interest);
  DeltaSnapshot delta;
  delta.age = 1;
  sim::PlayerCube arrival{kLast, {sim::kStandardArena.min_x(), sim::kStandardArena.min_y(), 0, 0, 0}};
  delta.arrivals.push_back({1, arrival});
  delta.paths.resize(1);
  EXPECT_GT(MeasureBytes(delta), 0u);
  delta.arrivals[0].cube.id = kBeyond;
  ExpectUnencodable(delta);
}

TEST(Encode, RejectsInterestMembersOutOfOrder) {
  // The gap code cannot say a non-increasing id, so the encoder refuses one rather than write another id.
  const auto members = [](std::initializer_list<int> ids) {
    InterestSnapshot s;
    for (const int id : ids) s.members.push_back({{static_cast<sim::PlayerId>(id), {}}, false});
    return s;
  };
  EXPECT_GT(MeasureBytes(members({3, 4, 1023})), 0u);
  ExpectUnencodable(members({3, 3}));
  ExpectUnencodable(members({4, 3}));
  ExpectUnencodable(members({1023, 1023}));
}

TEST(Encode, RejectsEmptyOrUnorderedJoined) {
  // One order for one set of players: ids strictly increase, on the way out and the way in.
  EXPECT_GT(MeasureBytes(Joined({{3, "a"}, {4, "b"}, {1023, ""}})), 0u);
  ExpectUnencodable(Joined({}));
  ExpectUnencodable(Joined({{3, "a"}, {3, "b"}}));
  ExpectUnencodable(Joined({{4, "a"}, {3, "b"}}));
  EXPECT_EQ(DecodeBytes(Pack({{5, 3}, {4, 10}, {0, 4}, {1, 1}, {4, 10}, {0, 4}, {0, 1}})),
            DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(Pack({{5, 3}, {4, 10}, {0, 4}, {1, 1}, {3, 10}, {0, 4}, {0, 1}})),
            DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(Pack({{5, 3}, {3, 10}, {0, 4}, {1, 1}, {4, 10}, {0, 4}, {0, 1}})),
            DecodeError::kNone);
  // At most kMaxJoinedPerMessage players: a `more` after the last is malformed.
  Fields most = {{5, 3}};
  for (std::uint32_t id = 0; id < kMaxJoinedPerMessage; ++id) {
    most.insert(most.end(), {{id, 10}, {0, 4}, {id + 1 < kMaxJoinedPerMessage ? 1u : 0u, 1}});
  }
  EXPECT_EQ(DecodeBytes(Pack(most)), DecodeError::kNone);
  most.back().first = 1;
  most.insert(most.end(), {{static_cast<std::uint32_t>(kMaxJoinedPerMessage), 10}, {0, 4}, {0, 1}});
  EXPECT_EQ(DecodeBytes(Pack(most)), DecodeError::kMalformed);
}

TEST(Encode, RejectsWholeWorldsOfMoreCubesThanASnapshotHolds) {
  // kMaxWholeWorldCubes (256) cubes at most in a Snapshot, and in a DeltaSnapshot's baseline; an
  // InterestSnapshot names up to kMaxPlayers members.
  Snapshot snapshot;
  for (std::size_t i = 0; i <= kMaxWholeWorldCubes; ++i) {
    snapshot.players.push_back(
        {static_cast<sim::PlayerId>(i), {sim::kStandardArena.min_x(), sim::kStandardArena.min_y(), 0, 0, 0}});
  }
  ExpectUnencodable(snapshot);
  snapshot.players.resize(kMaxWholeWorldCubes);
  EXPECT_GT(MeasureBytes(snapshot), 0u);
  DeltaSnapshot delta;
  delta.paths.resize(kMaxWholeWorldCubes + 1);
  ExpectUnencodable(delta);
  delta.paths.resize(kMaxWholeWorldCubes);
  EXPECT_GT(MeasureBytes(delta), 0u);
  InterestSnapshot every_id = InterestEveryIdNamed();
  EXPECT_EQ(every_id.members.size(), kMaxPlayers);
  EXPECT_GT(MeasureBytes(every_id), 0u);
}

TEST(Encode, RejectsOutOfRangeTags) {
  Tag tag;
  tag.render_fraction = kRenderFractionSteps;
  ExpectUnencodable(tag);
  tag = Tag{};
  tag.delay_ms = kMaxTagDelayMs + 1;
  ExpectUnencodable(tag);
  ExpectUnencodable(TagResult{0, 0, static_cast<TagOutcome>(kTagOutcomeCount), 0, 0, false, 0});
  ExpectUnencodable(TagResult{0, 0, TagOutcome::kMiss, kMaxTagDelayMs + 1, 0, false, 0});
}

TEST(Encode, ReturnsZeroWhenTheBufferIsTooSmall) {
  const Message m = testing::FullSnapshot();
  std::vector<std::uint8_t> buffer(MeasureBytes(m) - 1);
  EXPECT_EQ(Encode(m, buffer), 0u);
  buffer.resize(MeasureBytes(m));
  EXPECT_EQ(Encode(m, buffer), buffer.size());
}

// --- Decoding rejects what a valid sender could never have produced.

TEST(Decode, RejectsEmptyAndOversizedPackets) {
  EXPECT_EQ(DecodeBytes({}), DecodeError::kEmpty);
  std::vector<std::uint8_t> huge = EncodeToVector(PlayerLeft{});
  huge.resize(kMaxPacketBytes + 1, 0);
  EXPECT_EQ(DecodeBytes(huge), DecodeError::kTooLarge);
}

TEST(Decode, RejectsBadMagic) {
  EXPECT_EQ(DecodeBytes(Pack({{0, 3}, {kProtocolMagic, 32}, {1, 16}, {0, 4}})), DecodeError::kNone);
  EXPECT_EQ(DecodeBytes(Pack({{0, 3}, {kProtocolMagic ^ 1u, 32}, {1, 16}, {0, 4}})), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(Pack({{0, 3}, {0, 32}, {1, 16}, {0, 4}})), DecodeError::kMalformed);
}

TEST(Decode, AcceptsAnyVersionSoItCanBeRefusedWithAReason) {
  Message out;
  ASSERT_EQ(Decode(Pack({{0, 3}, {kProtocolMagic, 32}, {999, 16}, {0, 4}}), out), DecodeError::kNone);
  EXPECT_EQ(std::get<ConnectRequest>(out).version, 999);
}

TEST(Decode, ReadsAnotherVersionsRequestUpToItsNameWhateverFollows) {
  std::vector<std::uint8_t> bytes = Pack({{0, 3}, {kProtocolMagic, 32}, {2, 16}, {1, 4}, {'A' - 32, 7}});
  bytes.push_back(0xFF);
  Message out;
  ASSERT_EQ(Decode(bytes, out), DecodeError::kNone);
  EXPECT_EQ(std::get<ConnectRequest>(out), (ConnectRequest{kProtocolMagic, 2, "A"}));
}

TEST(Decode, RejectsThisVersionsRequestNotPaddedToItsSize) {
  std::vector<std::uint8_t> bytes = EncodeToVector(ConnectRequest{kProtocolMagic, kProtocolVersion, "alice"});
  ASSERT_EQ(bytes.size(), kConnectRequestBytes);
  EXPECT_EQ(DecodeBytes(bytes), DecodeError::kNone);
  bytes.back() = 1;
  EXPECT_EQ(DecodeBytes(bytes), DecodeError::kMalformed);
  bytes.pop_back();
  EXPECT_EQ(DecodeBytes(bytes), DecodeError::kMalformed);
  bytes.resize(kConnectRequestBytes + 1, 0);
  EXPECT_EQ(DecodeBytes(bytes), DecodeError::kTrailingData);
}

TEST(Messages, NameProblemSaysWhyANameCannotBeCarried) {
  EXPECT_EQ(NameProblem("a"), "");
  EXPECT_EQ(NameProblem(" ~0123456789abc"), "");  // 15 characters, the printable ends included
  EXPECT_NE(NameProblem(""), "");
  EXPECT_NE(NameProblem("0123456789abcdef").find("16 characters"), std::string::npos);
  EXPECT_NE(NameProblem("ab\x1f").find("character 3"), std::string::npos);
  EXPECT_NE(NameProblem("\x7f"), "");
  EXPECT_NE(NameProblem("\xc3\xa9"), "");
  // Exactly what a ConnectRequest can carry.
  EXPECT_EQ(EncodeToVector(ConnectRequest{kProtocolMagic, kProtocolVersion, "0123456789abcde"}).size(),
            kConnectRequestBytes);
}

TEST(Decode, RejectsNonPrintableNameCharacters) {
  // Characters are sent as c - 32 in 7 bits: 0..94 is ' '..'~'; 95..127 would be DEL and beyond.
  EXPECT_EQ(DecodeBytes(Pack({{5, 3}, {1, 10}, {1, 4}, {94, 7}, {0, 1}})), DecodeError::kNone);
  EXPECT_EQ(DecodeBytes(Pack({{5, 3}, {1, 10}, {1, 4}, {95, 7}, {0, 1}})), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(Pack({{5, 3}, {1, 10}, {2, 4}, {33, 7}, {127, 7}, {0, 1}})), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(Pack({{0, 3}, {kProtocolMagic, 32}, {1, 16}, {1, 4}, {100, 7}})),
            DecodeError::kMalformed);
}

TEST(Decode, RejectsBadEnumsAndSettings) {
  EXPECT_EQ(DecodeBytes(Pack({{1, 3}, {2, 2}, {1, 16}})), DecodeError::kNone);
  // Refuse reasons 0..3 fill their 2 bits (3, NoSpectatorSeat, since version 15).
  EXPECT_EQ(DecodeBytes(Pack({{1, 3}, {3, 2}, {1, 16}})), DecodeError::kNone);
  // Welcome rates are sent as rate - 1 in 8 bits: 240..255 would be 241..256 Hz. Arena sides are sent as
  // units - 32 in 12 bits: 4065..4095 would be 4097..4127 units.
  const auto welcome = [](std::uint32_t tick_offset, std::uint32_t players_offset, std::uint32_t width_offset,
                          std::uint32_t max_snapshot_offset = 59, std::uint32_t player_id = 0) {
    return Pack({{2, 3},
                 {player_id, 10},
                 {tick_offset, 8},
                 {19, 8},
                 {players_offset, 10},
                 {1, 1},
                 {width_offset, 12},
                 {100, 12},
                 {0, 32},
                 {max_snapshot_offset, 8},
                 {0, 1}});
  };
  EXPECT_EQ(DecodeBytes(welcome(239, 1023, 4064)), DecodeError::kNone);
  EXPECT_EQ(DecodeBytes(welcome(59, 31, 4065)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(welcome(59, 31, 4095)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(welcome(240, 31, 1000)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(welcome(59, 31, 1000, 239)), DecodeError::kNone);
  EXPECT_EQ(DecodeBytes(welcome(59, 31, 1000, 240)), DecodeError::kMalformed);
  // max_players 1..1024 is sent as n - 1 in 10 bits, and player_id 0..1023 as it is in 10 bits: every
  // pattern of those fields is valid.
  Message out;
  ASSERT_EQ(Decode(welcome(59, 1023, 1000, 59, 1023), out), DecodeError::kNone);
  EXPECT_EQ(std::get<Welcome>(out).player_id, 1023);
  EXPECT_EQ(std::get<Welcome>(out).max_players, 1024u);
}

TEST(Decode, RejectsUnusedTypesAndOutOfRangeTagFields) {
  // Type 7 is followed by 3 bits: 7 + 0..6 name TimeEcho, Tag, TagResult, DeltaSnapshot, SnapshotAck,
  // Challenge and ChallengeResponse; 7 is followed by 6 more bits, 14 + 0..63, of which 0 is SnapshotRate
  // (its rate 1..240 sent as 0..239 in 8 bits) and the rest are unused.
  EXPECT_EQ(DecodeBytes(Pack({{7, 3}, {2, 3}, {0, 10}, {0, 8}, {0, 2}, {0, 10}})), DecodeError::kNone);
  EXPECT_EQ(DecodeBytes(Pack({{7, 3}, {7, 3}, {0, 6}, {239, 8}})), DecodeError::kNone);
  EXPECT_EQ(DecodeBytes(Pack({{7, 3}, {7, 3}, {0, 6}, {240, 8}})), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(Pack({{7, 3}, {7, 3}, {1, 6}, {0, 8}})), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(Pack({{7, 3}, {7, 3}, {63, 6}, {0, 8}})), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(Pack({{7, 3}, {7, 3}, {0, 6}, {0, 32}, {0, 32}, {0, 8}})),
            DecodeError::kTrailingData);
  EXPECT_EQ(DecodeBytes(Pack({{7, 3}, {2, 3}, {0, 10}, {0, 8}, {3, 2}, {0, 10}})), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(Pack({{7, 3}, {2, 3}, {0, 10}, {0, 8}, {0, 2}, {1001, 10}})),
            DecodeError::kMalformed);
  const auto tag = [](std::uint32_t delay) {
    return Pack({{7, 3}, {1, 3}, {0, 8}, {0, 16}, {0, 32}, {0, 8}, {0, 32}, {delay, 10}, {0, 16}});
  };
  EXPECT_EQ(DecodeBytes(tag(1000)), DecodeError::kNone);
  EXPECT_EQ(DecodeBytes(tag(1001)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(tag(1023)), DecodeError::kMalformed);
}

TEST(Decode, RejectsOversizedPlayerCounts) {
  // The count is 9 bits for 0..256; 257..511 are invalid.
  EXPECT_EQ(DecodeBytes(Pack({{4, 3}, {0, 32}, {32, 12}, {4, 12}, {257, 9}, {0, 1}})),
            DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(Pack({{4, 3}, {0, 32}, {32, 12}, {4, 12}, {511, 9}, {0, 1}})),
            DecodeError::kMalformed);
  // A count that promises more players than the packet holds.
  EXPECT_EQ(DecodeBytes(Pack({{4, 3},
                              {0, 32},
                              {32, 12},
                              {4, 12},
                              {2, 9},
                              {1, 10},
                              {0, 16},
                              {0, 16},
                              {256, 10},
                              {256, 10},
                              {0, 4},
                              {0, 1}})),
            DecodeError::kMalformed);
  // A DeltaSnapshot's baseline count is int[0, 256] in 9 bits too.
  EXPECT_EQ(DecodeBytes(Pack({{7, 3}, {3, 3}, {0, 32}, {0, 8}, {1, 1}, {257, 9}, {0, 1}})),
            DecodeError::kMalformed);
  // An InterestSnapshot's count is int[0, 1024] in 11 bits: 1025..2047 are invalid.
  const auto interest_count = [](std::uint32_t count) {
    return Pack({{7, 3}, {7, 3}, {1, 6}, {0, 32}, {32, 12}, {4, 12}, {count, 11}, {0, 1}});
  };
  EXPECT_EQ(DecodeBytes(interest_count(0)), DecodeError::kNone);
  EXPECT_EQ(DecodeBytes(interest_count(1025)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(interest_count(2047)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(interest_count(1)), DecodeError::kMalformed);  // one promised, none there
}

TEST(Decode, RejectsInputCountsBeyondThePacket) {
  // The count 1..64 is sent as count - 1 in 6 bits, so 0 and 65+ cannot even be expressed; a count the
  // packet does not back with buttons is truncation.
  EXPECT_EQ(DecodeBytes(Pack({{3, 3}, {10, 16}, {63, 6}, {0, 4}, {0, 4}, {0, 16}})), DecodeError::kMalformed);
  std::vector<std::pair<std::uint32_t, int>> fields = {{3, 3}, {10, 16}, {63, 6}};
  for (std::uint32_t i = 0; i < 64; ++i) fields.emplace_back(i % 16, 4);
  fields.emplace_back(0, 16);
  Message out;
  ASSERT_EQ(Decode(Pack(fields), out), DecodeError::kNone);
  const auto& inputs = std::get<InputMessage>(out).inputs;
  ASSERT_EQ(inputs.size(), 64u);
  EXPECT_EQ(inputs[0].seq, static_cast<sim::Seq>(10 - 63));  // 65483: wrapped
  EXPECT_EQ(inputs.back().seq, 10);
}

TEST(Decode, RejectsPositionsOutsideTheArenaAndVelocitiesBeyondMax) {
  // One player in the standard arena: x, y as offsets from min_x()/min_y() in 16 bits, vx, vy as
  // v + kMaxSpeed in 10 bits, buttons.
  const auto snapshot = [](std::uint32_t x, std::uint32_t y, std::uint32_t vx, std::uint32_t vy) {
    return Pack({{4, 3},
                 {0, 32},
                 {32, 12},
                 {4, 12},
                 {1, 9},
                 {3, 10},
                 {x, 16},
                 {y, 16},
                 {vx, 10},
                 {vy, 10},
                 {15, 4},
                 {0, 1}});
  };
  constexpr auto kXRange =
      static_cast<std::uint32_t>(sim::kStandardArena.max_x() - sim::kStandardArena.min_x());
  constexpr auto kYRange =
      static_cast<std::uint32_t>(sim::kStandardArena.max_y() - sim::kStandardArena.min_y());
  constexpr auto kVRange = static_cast<std::uint32_t>(2 * sim::kMaxSpeed);
  EXPECT_EQ(DecodeBytes(snapshot(kXRange, kYRange, kVRange, 0)), DecodeError::kNone);
  EXPECT_EQ(DecodeBytes(snapshot(kXRange + 1, 0, 0, 0)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(snapshot(0xFFFF, 0, 0, 0)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(snapshot(0, kYRange + 1, 0, 0)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(snapshot(0, 0, kVRange + 1, 0)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(snapshot(0, 0, 0, 1023)), DecodeError::kMalformed);
  // In an arena of 1024 x 576 units the positions take 20 bits each, up to that arena's walls.
  const sim::Arena large = sim::Arena::OfUnits(1024, 576);
  const auto in_large = [](std::uint32_t x, std::uint32_t y) {
    return Pack({{4, 3},
                 {0, 32},
                 {1024 - 32, 12},
                 {576 - 32, 12},
                 {1, 9},
                 {3, 10},
                 {x, 20},
                 {y, 20},
                 {0, 10},
                 {0, 10},
                 {0, 4},
                 {0, 1}});
  };
  const auto large_x = static_cast<std::uint32_t>(large.max_x() - large.min_x());
  const auto large_y = static_cast<std::uint32_t>(large.max_y() - large.min_y());
  Message out;
  ASSERT_EQ(Decode(in_large(large_x, large_y), out), DecodeError::kNone);
  const auto& decoded = std::get<Snapshot>(out);
  EXPECT_EQ(decoded.arena, large);
  EXPECT_EQ(decoded.players[0].state.x, large.max_x());
  EXPECT_EQ(decoded.players[0].state.y, large.max_y());
  EXPECT_EQ(DecodeBytes(in_large(large_x, large_y + 1)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(in_large(large_x + 1, 0)), DecodeError::kMalformed);
}

TEST(Decode, RejectsNonIncreasingPlayerIds) {
  const auto two = [](std::uint32_t first, std::uint32_t second) {
    return Pack({{4, 3},
                 {0, 32},
                 {32, 12},
                 {4, 12},
                 {2, 9},
                 {first, 10},
                 {0, 16},
                 {0, 16},
                 {0, 10},
                 {0, 10},
                 {0, 4},
                 {second, 10},
                 {0, 16},
                 {0, 16},
                 {0, 10},
                 {0, 10},
                 {0, 4},
                 {0, 1}});
  };
  EXPECT_EQ(DecodeBytes(two(4, 5)), DecodeError::kNone);
  EXPECT_EQ(DecodeBytes(two(1022, 1023)), DecodeError::kNone);  // every 10-bit id is valid
  EXPECT_EQ(DecodeBytes(two(5, 5)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(two(5, 4)), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(two(1023, 0)), DecodeError::kMalformed);
}

// An InterestSnapshot of members without states and no ack, in the standard arena; each member's fields
// are its id's code, then has_state = 0.
std::vector<std::uint8_t> InterestOfCodes(std::uint32_t count, const Fields& codes) {
  Fields fields = {{7, 3}, {7, 3}, {1, 6}, {0, 32}, {32, 12}, {4, 12}, {count, 11}};
  for (const auto& code : codes) fields.insert(fields.end(), {code, {0, 1}});
  fields.emplace_back(0, 1);
  return Pack(fields);
}

TEST(Decode, InterestMemberIdsAreGapsThatIncreaseByConstruction) {
  // A gap of 0 is the id after the one before: there is no code for the same id or a lower one.
  Message out;
  ASSERT_EQ(Decode(InterestOfCodes(3, {{0b00101, 5}, {1, 1}, {0b011, 3}}), out), DecodeError::kNone);
  const auto& members = std::get<InterestSnapshot>(out).members;
  ASSERT_EQ(members.size(), 3u);
  EXPECT_EQ(members[0].cube.id, 4);  // gap 4 after 0
  EXPECT_EQ(members[1].cube.id, 5);  // gap 0 after 4
  EXPECT_EQ(members[2].cube.id, 8);  // gap 2 after 5
}

TEST(Decode, RejectsInterestMemberIdsPastTheLast) {
  // Id 1023 alone: gap 1023, 10 zeros and 1024 in 11 bits (21 bits), the longest code.
  EXPECT_EQ(DecodeBytes(InterestOfCodes(1, {{1024, 21}})), DecodeError::kNone);
  // After id 1023 there is no id left: any member more is refused, whatever its code.
  EXPECT_EQ(DecodeBytes(InterestOfCodes(2, {{1024, 21}, {1, 1}})), DecodeError::kMalformed);
  // After id 5 (gap 5: 00 110) the gap is at most 1017 (id 1023); 1018 would be id 1024. Both take 9 zeros.
  EXPECT_EQ(DecodeBytes(InterestOfCodes(2, {{6, 5}, {1018, 19}})), DecodeError::kNone);
  EXPECT_EQ(DecodeBytes(InterestOfCodes(2, {{6, 5}, {1019, 19}})), DecodeError::kMalformed);
  // A gap past 1023 at the first member: 1024 and 2046 take 10 zeros, as many as 1023 does.
  EXPECT_EQ(DecodeBytes(InterestOfCodes(1, {{1025, 21}})), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(InterestOfCodes(1, {{2047, 21}})), DecodeError::kMalformed);
  // More zeros than the largest gap needs: 11 before a first member (1023 needs 10), 1 after id 1022
  // (the only gap left, 0, needs none).
  EXPECT_EQ(DecodeBytes(InterestOfCodes(1, {{2048, 23}})), DecodeError::kMalformed);
  EXPECT_EQ(DecodeBytes(InterestOfCodes(2, {{1023, 19}, {1, 1}})), DecodeError::kNone);  // ids 1022, 1023
  EXPECT_EQ(DecodeBytes(InterestOfCodes(2, {{1023, 19}, {0b010, 3}})), DecodeError::kMalformed);
  // A packet of zeros after the count: no code ends, and the reader stops at the zeros' limit.
  EXPECT_EQ(DecodeBytes(InterestOfCodes(1, {{0, 32}})), DecodeError::kMalformed);
}

TEST(Decode, RejectsTrailingBytes) {
  for (const auto& [name, message] : SampleMessages()) {
    SCOPED_TRACE(name);
    const auto* request = std::get_if<ConnectRequest>(&message);
    if (request != nullptr && request->version != kProtocolVersion) continue;  // the next test
    std::vector<std::uint8_t> longer = EncodeToVector(message);
    longer.push_back(0);
    EXPECT_EQ(DecodeBytes(longer), DecodeError::kTrailingData);
    longer.back() = 0xFF;
    EXPECT_EQ(DecodeBytes(longer), DecodeError::kTrailingData);
  }
}

TEST(Decode, RejectsNonZeroPadding) {
  int padded = 0;
  for (const SizedMessage& m : DocumentedSizes()) {
    SCOPED_TRACE(m.name);
    const auto* request = std::get_if<ConnectRequest>(&m.message);
    if (request != nullptr && request->version != kProtocolVersion) continue;  // read up to its name only
    const std::vector<std::uint8_t> bytes = EncodeToVector(m.message);
    ASSERT_EQ(DecodeBytes(bytes), DecodeError::kNone);
    const std::size_t padding_bits = bytes.size() * 8 - m.bits;
    for (std::size_t bit = 0; bit < padding_bits; ++bit) {
      std::vector<std::uint8_t> dirty = bytes;
      dirty.back() = static_cast<std::uint8_t>(dirty.back() | (1u << bit));
      EXPECT_EQ(DecodeBytes(dirty), DecodeError::kTrailingData) << "padding bit " << bit;
      ++padded;
    }
  }
  EXPECT_GT(padded, 20);
}

TEST(Decode, WritesIntoTheHeldMessageAndLeavesNothingOfItBehind) {
  Message out = testing::FullSnapshot();
  ASSERT_EQ(Decode(Pack({{4, 3}, {9, 32}, {32, 12}, {4, 12}, {0, 9}, {0, 1}}), out), DecodeError::kNone);
  Snapshot empty;
  empty.server_tick = 9;
  EXPECT_EQ(out, Message(empty));
  // A failed decode leaves some message behind; the next good one replaces it whole.
  EXPECT_EQ(Decode(Pack({{1, 3}, {3, 2}, {1, 8}}), out), DecodeError::kMalformed);  // its version cut short
  const PlayerLeft left{42, LeaveReason::kTimedOut};
  ASSERT_EQ(Decode(testing::EncodeToVector(left), out), DecodeError::kNone);
  EXPECT_EQ(out, Message(left));
}

TEST(Decode, SnapshotWithoutAckReadsAckAsZero) {
  Message out;
  ASSERT_EQ(Decode(Pack({{4, 3}, {9, 32}, {32, 12}, {4, 12}, {0, 9}, {0, 1}}), out), DecodeError::kNone);
  const auto& s = std::get<Snapshot>(out);
  EXPECT_FALSE(s.has_ack);
  EXPECT_EQ(s.ack, 0);
  EXPECT_EQ(s.server_tick, 9u);
  EXPECT_TRUE(s.players.empty());
}

// A replay of one player at age 3 that moved and is described by `departures`, then no more, no turn, no ack.
std::vector<std::uint8_t> ReplayOfOnePath(const Fields& departures) {
  Fields fields = {{59, 6}, {1000, 32}, {2, 8}, {1, 1}, {1, 9}, {0, 1}, {1, 1}, {1, 1}};
  fields.insert(fields.end(), departures.begin(), departures.end());
  fields.insert(fields.end(), {{0, 1}, {0, 1}, {0, 1}});
  return Pack(fields);
}

TEST(Decode, AReplayPathHasOneCoding) {
  // Each departure: more, its gap (int[0, ticks left - 1]), late, then its Moves and `1` for one tick.
  const Fields late = {{1, 1}, {0, 2}, {1, 1}};
  const Fields none_first = {{1, 1}, {0, 2}, {0, 1}, {1, 1}, {1, 1}};
  const Fields two_next = {{1, 1}, {0, 1}, {0, 1}, {1, 2}, {1, 1}};
  const Fields none_next = {{1, 1}, {0, 1}, {0, 1}, {1, 1}, {1, 1}};
  EXPECT_EQ(DecodeBytes(ReplayOfOnePath(late)), DecodeError::kNone);
  const Fields three_next = {{1, 1}, {0, 1}, {0, 1}, {0, 2}, {0, 8}, {1, 1}};  // `00`, 3 in int[3, 180]
  EXPECT_EQ(DecodeBytes(ReplayOfOnePath(Concat(none_first, three_next))), DecodeError::kNone);
  // The same ticks as two departures, none for one tick then two for one tick: that is a late.
  EXPECT_EQ(DecodeBytes(ReplayOfOnePath(Concat(none_first, two_next))), DecodeError::kMalformed);
  // A late with one tick left (after a gap of 2).
  EXPECT_EQ(DecodeBytes(ReplayOfOnePath({{1, 1}, {2, 2}, {1, 1}})), DecodeError::kMalformed);
  // Two departures of none in a row: one run of two ticks.
  EXPECT_EQ(DecodeBytes(ReplayOfOnePath(Concat(none_first, none_next))), DecodeError::kMalformed);
}

// A replay of one player at age 3 whose cubes came or went as `members` say, its path `path`, no ack.
std::vector<std::uint8_t> ReplayWithMembers(const Fields& members, const Fields& path) {
  return Pack(
      Concat(Concat({{59, 6}, {1000, 32}, {2, 8}, {1, 1}, {1, 9}, {1, 1}}, members), Concat(path, {{0, 1}})));
}

TEST(Decode, AReplaysCubesThatCameAndWentHaveOneCoding) {
  // No arrival (int[0, 64]), one exit (int[0, 1]): path 0 (int[0, 0], no bits) went at tick 2 (int[1, 3]).
  const Fields went_at_2 = {{0, 7}, {1, 1}, {1, 2}};
  EXPECT_EQ(DecodeBytes(ReplayWithMembers(went_at_2, {{0, 1}})), DecodeError::kNone);
  // Its path covers the one tick it was there: the usual path, `10`, is one Move at that tick.
  EXPECT_EQ(DecodeBytes(ReplayWithMembers(went_at_2, {{1, 1}, {0, 1}})), DecodeError::kNone);
  // Went at tick 4 of a replay 3 ticks long.
  EXPECT_EQ(DecodeBytes(ReplayWithMembers({{0, 7}, {1, 1}, {3, 2}}, {{0, 1}})), DecodeError::kMalformed);
  // Said to have changed, and nothing came or went.
  EXPECT_EQ(DecodeBytes(ReplayWithMembers({{0, 7}, {0, 1}}, {{0, 1}})), DecodeError::kMalformed);
  // Went at tick 1: there at no tick, so its path cannot have moved.
  EXPECT_EQ(DecodeBytes(ReplayWithMembers({{0, 7}, {1, 1}, {0, 2}}, {{1, 1}, {0, 1}})),
            DecodeError::kMalformed);
}

}  // namespace
}  // namespace netcube::protocol
