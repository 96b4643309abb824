#pragma once
// Valid messages of every type with edge values, shared by the round-trip and robustness tests.
#include <initializer_list>
#include <string>
#include <vector>

#include "netcube/protocol/messages.h"
#include "netcube/sim/move.h"

namespace netcube::protocol::testing {

struct NamedMessage {
  std::string name;
  Message message;
};

std::vector<NamedMessage> SampleMessages();

// The highest player id (10 bits on the wire).
inline constexpr sim::PlayerId kLastPlayerId = kMaxPlayers - 1;

// The largest snapshot: kMaxWholeWorldCubes cubes, their ids spread from 0 to kLastPlayerId, positions and
// velocities over their whole range.
Snapshot FullSnapshot(const sim::Arena& arena = sim::kStandardArena);

// The keys `netcube-bot --script random` picks from: none, or one of the eight directions.
inline constexpr std::uint8_t kBotChoices[] = {0,
                                               sim::kRight,
                                               sim::kRight | sim::kDown,
                                               sim::kDown,
                                               sim::kDown | sim::kLeft,
                                               sim::kLeft,
                                               sim::kLeft | sim::kUp,
                                               sim::kUp,
                                               sim::kUp | sim::kRight};

// A PlayerJoined of these players.
PlayerJoined Joined(std::initializer_list<JoinedPlayer> players);
// The largest PlayerJoined: kMaxJoinedPerMessage players of the highest ids, each with the longest name.
PlayerJoined LargestJoined();

// Encodes a message that must be valid; an empty result means it was not.
std::vector<std::uint8_t> EncodeToVector(const Message& message);

}  // namespace netcube::protocol::testing
