#pragma once
// Valid messages of every type with edge values, shared by the round-trip and robustness tests.
#include <string>
#include <vector>

#include "netcube/protocol/delta.h"
#include "netcube/protocol/messages.h"
#include "netcube/sim/move.h"

namespace netcube::protocol::testing {

struct NamedMessage {
  std::string name;
  Message message;
};

std::vector<NamedMessage> SampleMessages();

// The largest snapshot: every player id 0..255, positions and velocities spread over their whole range.
Snapshot FullSnapshot();

// A changed baseline cube: `moves` Moves and these residuals; Turned adds a turn to `buttons` after `at`.
CubeDelta Changed(int moves, std::int32_t dx, std::int32_t dy, std::int32_t dvx, std::int32_t dvy);
// Appends a turn to `choice` (ButtonsOfChoice) after `at` Moves.
CubeDelta Turned(CubeDelta d, std::uint8_t choice, int at);

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

// Encodes a message that must be valid; an empty result means it was not.
std::vector<std::uint8_t> EncodeToVector(const Message& message);

}  // namespace netcube::protocol::testing
