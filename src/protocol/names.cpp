// The names of the protocol's values, for logs and refusals, and the rule for a player's name.
#include <array>
#include <string>

#include "netcube/protocol/messages.h"
#include "netcube/protocol/rules.h"

namespace netcube::protocol {

const char* ToString(MessageType type) noexcept {
  static constexpr std::array<const char*, kMessageTypeCount> kNames = {"connect_request",
                                                                        "connect_refused",
                                                                        "welcome",
                                                                        "input",
                                                                        "snapshot",
                                                                        "player_joined",
                                                                        "player_left",
                                                                        "time_echo",
                                                                        "tag",
                                                                        "tag_result",
                                                                        "delta_snapshot",
                                                                        "snapshot_ack",
                                                                        "challenge",
                                                                        "challenge_response",
                                                                        "snapshot_rate",
                                                                        "interest_snapshot",
                                                                        "snapshot_budget",
                                                                        "viewpoint"};
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
    case RefuseReason::kNoSpectatorSeat:
      return "no spectator seat free";
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

}  // namespace netcube::protocol
