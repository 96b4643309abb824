#include "sample_messages.h"

#include <array>

namespace netcube::protocol::testing {

PlayerJoined Joined(std::initializer_list<JoinedPlayer> players) {
  PlayerJoined joined;
  for (const JoinedPlayer& player : players) joined.players.push_back(player);
  return joined;
}

PlayerJoined LargestJoined() {
  PlayerJoined joined;
  for (std::size_t k = 0; k < kMaxJoinedPerMessage; ++k) {
    const auto id = static_cast<sim::PlayerId>(kMaxPlayers - kMaxJoinedPerMessage + k);
    joined.players.push_back({id, std::string(kMaxNameLength, '~')});
  }
  return joined;
}

Snapshot FullSnapshot(const sim::Arena& arena) {
  Snapshot s;
  s.server_tick = 0xFFFFFFFFu;
  s.arena = arena;
  s.has_ack = true;
  s.ack = 65535;
  s.input_lead = kMaxInputLead;
  constexpr int kCubes = static_cast<int>(kMaxWholeWorldCubes);
  for (int k = 0; k < kCubes; ++k) {
    sim::PlayerCube p;
    // Ids spread over the whole id range, 0 and kLastPlayerId included (steps of 4 or 5).
    p.id = static_cast<sim::PlayerId>(k * int{kLastPlayerId} / (kCubes - 1));
    // Cycle through the extremes and some values between them.
    p.state.x = arena.min_x() + (arena.max_x() - arena.min_x()) / 4 * (k % 5);
    p.state.y = arena.min_y() + (arena.max_y() - arena.min_y()) / 6 * (k % 7);
    p.state.vx = -sim::kMaxSpeed + 2 * sim::kMaxSpeed * (k % 3) / 2;
    p.state.vy = sim::kMaxSpeed - (k * 37) % (2 * sim::kMaxSpeed + 1);
    p.state.buttons = static_cast<std::uint8_t>(k % (sim::kButtonMask + 1));
    s.players.push_back(p);
  }
  return s;
}

std::vector<NamedMessage> SampleMessages() {
  std::vector<NamedMessage> out;

  out.push_back({"connect_request", ConnectRequest{kProtocolMagic, kProtocolVersion, "alice"}});
  out.push_back({"connect_request_empty_name", ConnectRequest{kProtocolMagic, 0, ""}});
  out.push_back({"connect_request_spectate", ConnectRequest{kProtocolMagic, kProtocolVersion, "eve", true}});
  out.push_back({"connect_request_15_chars", ConnectRequest{kProtocolMagic, 65535, " ~azAZ09!@#$%^&"}});

  out.push_back({"refused_version", ConnectRefused{RefuseReason::kVersionMismatch, 0}});
  out.push_back({"refused_full", ConnectRefused{RefuseReason::kServerFull, kProtocolVersion}});
  out.push_back({"refused_malformed", ConnectRefused{RefuseReason::kMalformedRequest, 65535}});
  out.push_back(
      {"refused_no_spectator_seat", ConnectRefused{RefuseReason::kNoSpectatorSeat, kProtocolVersion}});

  out.push_back({"welcome_default", Welcome{}});
  const sim::Arena smallest = sim::Arena::OfUnits(sim::kMinArenaUnits, sim::kMinArenaUnits);
  out.push_back({"welcome_min", Welcome{0, 1, 1, 1, false, smallest, 0, 1}});
  out.push_back({"welcome_max", Welcome{kLastPlayerId, kMaxRate, kMaxRate, kMaxPlayers, true,
                                        sim::kLargestArena, 0xFFFFFFFFu, kMaxRate}});
  out.push_back({"welcome_spectator", Welcome{0, 60, 20, 32, true, sim::kStandardArena, 1200, 30, true}});

  InputMessage one;
  one.inputs.push_back({7, sim::kRight});
  out.push_back({"input_one", one});
  InputMessage wrapping;
  // 64 inputs whose sequence numbers wrap from 65503 through 65535 to 30.
  for (int i = 0; i < static_cast<int>(kMaxInputsPerPacket); ++i) {
    wrapping.inputs.push_back({static_cast<sim::Seq>(65503 + i), static_cast<std::uint8_t>(i % 16)});
  }
  wrapping.seen_tick = 65535;
  out.push_back({"input_64_wrapping", wrapping});

  out.push_back({"snapshot_empty_no_ack", Snapshot{}});
  Snapshot small;
  small.server_tick = 1234;
  small.players.push_back(
      {3, {sim::kStandardArena.min_x(), sim::kStandardArena.max_y(), -sim::kMaxSpeed, sim::kMaxSpeed, 0}});
  small.players.push_back({1000, {sim::kStandardArena.max_x(), sim::kStandardArena.min_y(), 0, -1, 0}});
  small.has_ack = true;
  small.ack = 0;
  small.input_lead = -1;
  out.push_back({"snapshot_two", small});
  out.push_back({"snapshot_full", FullSnapshot()});
  out.push_back({"snapshot_full_largest_arena", FullSnapshot(sim::kLargestArena)});
  Snapshot narrow = small;
  narrow.arena = sim::Arena::OfUnits(32, 400);
  narrow.players[0].state.y = narrow.arena.max_y();
  narrow.players[1].state.x = narrow.arena.max_x();
  out.push_back({"snapshot_narrow_arena", narrow});

  out.push_back({"interest_empty_no_ack", InterestSnapshot{}});
  InterestSnapshot interest;
  interest.server_tick = 0xFFFFFFFFu;
  interest.arena = sim::Arena::OfUnits(1024, 576);
  interest.members.push_back(
      {{0, {interest.arena.min_x(), interest.arena.max_y(), sim::kMaxSpeed, 0, 15}}, true});
  interest.members.push_back({{7, {}}, false});
  interest.members.push_back({{8, {}}, true, 1});  // predicted: the youngest age and the oldest
  interest.members.push_back({{9, {}}, true, kMaxPredictedAge});
  interest.members.push_back(  // the last id: its gap, 1015, is the longest code of this sample (19 bits)
      {{kLastPlayerId, {interest.arena.max_x(), interest.arena.min_y(), 0, -sim::kMaxSpeed, 0}}, true});
  interest.has_ack = true;
  interest.ack = 65535;
  interest.input_lead = kMaxInputLead;
  out.push_back({"interest_three_large_arena", interest});
  // Every id a member, none with its state: the most members, each named in 2 bits (gap 0 and its flag).
  InterestSnapshot every_id;
  every_id.server_tick = 1;
  for (std::size_t id = 0; id < kMaxPlayers; ++id) {
    every_id.members.push_back({{static_cast<sim::PlayerId>(id), {}}, false});
  }
  every_id.has_ack = true;
  every_id.ack = 1;
  out.push_back({"interest_every_id_named", every_id});

  out.push_back({"joined", Joined({{0, "bot-1"}})});
  out.push_back({"joined_unnamed", Joined({{kLastPlayerId, ""}})});
  out.push_back({"joined_roster", Joined({{0, "ann"}, {1, "bob"}, {7, "cy"}})});
  out.push_back({"joined_max", LargestJoined()});
  out.push_back({"left_disconnected", PlayerLeft{1, LeaveReason::kDisconnected}});
  out.push_back({"left_timed_out", PlayerLeft{kLastPlayerId, LeaveReason::kTimedOut}});

  out.push_back({"challenge", Challenge{0x0123456789ABCDEFull}});
  out.push_back({"challenge_response_max", ChallengeResponse{0xFFFFFFFFFFFFFFFFull}});
  out.push_back({"snapshot_rate_min", SnapshotRate{1}});
  out.push_back({"snapshot_rate_max", SnapshotRate{kMaxRate}});
  out.push_back({"snapshot_budget_min", SnapshotBudget{kMinSnapshotBudget}});
  out.push_back({"snapshot_budget_max", SnapshotBudget{kMaxPacketBytes}});
  out.push_back({"viewpoint_follow", Viewpoint{true, kLastPlayerId, 0, 0}});
  out.push_back({"viewpoint_point", Viewpoint{false, 0, 100, 50}});
  out.push_back(
      {"viewpoint_far_corner", Viewpoint{false, 0, sim::kMaxArenaUnits - 1, sim::kMaxArenaUnits - 1}});

  out.push_back({"time_request", TimeEcho{false, 123456789, 0}});
  out.push_back({"time_reply_max", TimeEcho{true, 0xFFFFFFFFu, 0xFFFFFFFFu}});

  out.push_back({"tag_zero", Tag{}});
  out.push_back({"tag_max",
                 Tag{255, 65535, 0xFFFFFFFFu, kRenderFractionSteps - 1, 0xFFFFFFFFu, kMaxTagDelayMs, 65535}});
  out.push_back({"tag_result_miss", TagResult{0, 0, TagOutcome::kMiss, 0, 0, false, 0}});
  out.push_back({"tag_result_refused",
                 TagResult{kLastPlayerId, 255, TagOutcome::kRefused, kMaxTagDelayMs, 0, false, 0}});
  out.push_back({"tag_result_hit", TagResult{1, 2, TagOutcome::kHit, 183, kLastPlayerId, false, 0}});
  out.push_back({"tag_result_hit_seq", TagResult{1, 2, TagOutcome::kHit, 183, 0, true, 65535}});

  out.push_back({"delta_empty", DeltaSnapshot{}});
  DeltaSnapshot replay;
  replay.server_tick = 77;
  replay.age = 40;
  replay.collisions = false;
  replay.paths.resize(4);  // the first made no Move
  replay.paths[1].runs.push_back({40, 1});
  replay.paths[2].runs.push_back({12, 1});
  replay.paths[2].runs.push_back({3, 0});
  replay.paths[2].runs.push_back({1, 2});
  replay.paths[2].runs.push_back({24, kMaxMovesPerTick});
  for (int k = 0; k < kMaxPathTurns; ++k) {
    replay.paths[2].turns.push_back(
        {static_cast<std::uint16_t>(3 * k), static_cast<std::uint8_t>(k % kTurnChoices)});
  }
  replay.paths[3].runs.push_back({39, 0});
  replay.paths[3].runs.push_back({1, 1});
  replay.paths[3].turns.push_back({0, kTurnChoices - 1});
  replay.has_ack = true;
  replay.ack = 9;
  out.push_back({"replay_mixed", replay});
  // The same ticks with players leaving and joining: the second and the third left (the third at the last
  // tick), two came, one of them with the second's id, and the other left again.
  DeltaSnapshot churned = replay;
  churned.paths[1].runs[0].ticks = 9;
  churned.exits.push_back({1, 10});
  churned.exits.push_back({2, 40});
  churned.paths[2].runs.back().ticks = 23;
  sim::PlayerCube came{1, {}};
  came.state.x = sim::kLargestArena.max_x();  // an arrival's position is coded within the largest arena
  came.state.y = sim::kStandardArena.min_y();
  came.state.vx = -sim::kMaxSpeed;
  came.state.buttons = sim::kLeft;
  churned.arrivals.push_back({10, came});
  came.id = kLastPlayerId;
  churned.arrivals.push_back({10, came});
  churned.exits.push_back({5, 12});
  CubePath stayed;
  stayed.runs.push_back({31, 1});
  CubePath left_again;
  left_again.runs.push_back({2, 1});
  churned.paths.push_back(stayed);
  churned.paths.push_back(left_again);
  out.push_back({"replay_churned", churned});
  // Every cube of the largest world with two runs and three turns, all at their longest: near the packet's
  // limit (a replay has no count of its own; its paths' limits and the packet bound it).
  DeltaSnapshot longest_replay;
  longest_replay.age = kMaxDeltaAge;
  for (std::size_t i = 0; i < kMaxWholeWorldCubes; ++i) {
    CubePath path;
    path.runs.push_back({kMaxDeltaAge - 1, kMaxMovesPerTick - 1});
    path.runs.push_back({1, kMaxMovesPerTick});
    const int moves = (kMaxDeltaAge - 1) * (kMaxMovesPerTick - 1) + kMaxMovesPerTick;
    for (int k = 3; k >= 1; --k)
      path.turns.push_back({static_cast<std::uint16_t>(moves - k), kTurnChoices - 1});
    longest_replay.paths.push_back(path);
  }
  longest_replay.has_ack = true;
  longest_replay.input_lead = kMaxInputLead;
  out.push_back({"replay_longest", longest_replay});
  out.push_back({"snapshot_ack", SnapshotAck{0}});
  out.push_back({"snapshot_ack_max", SnapshotAck{65535}});
  return out;
}

std::vector<std::uint8_t> EncodeToVector(const Message& message) {
  std::array<std::uint8_t, kMaxPacketBytes> buffer{};
  const std::size_t size = Encode(message, buffer);
  return {buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(size)};
}

}  // namespace netcube::protocol::testing
