#pragma once
// Valid messages of every type with edge values, shared by the round-trip and robustness tests.
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

// The largest snapshot: every player id 0..255, positions and velocities spread over their whole range.
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

// Encodes a message that must be valid; an empty result means it was not.
std::vector<std::uint8_t> EncodeToVector(const Message& message);

}  // namespace netcube::protocol::testing
