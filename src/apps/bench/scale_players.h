#pragma once
// The scale scenario's players, a Players per server: netcube-bot processes on the wall clock, or players
// in the bench's own process on a virtual clock.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "netcube/server/server.h"
#include "netcube/sim/time.h"
#include "netcube/transport/network.h"
#include "scale.h"
#include "scale_figures.h"

namespace netcube::bench {

inline constexpr Micros kMaxSleep{1000};         // the real-time loop's longest sleep
inline constexpr double kSettleTimeoutS = 20.0;  // the bots' own bound on settling after their script
// On real time each netcube-bot process joins its players ten at a time, this far apart
// (--join-interval-ms, at most eight tens joining at once): a join is told to every player and every
// player to the joiner, and a thousand joins at once held the server's updates for seconds (its
// handshakes timed out, the bots' backlog got them kicked as floods).
inline constexpr Micros kJoinInterval{250'000};

// Sleeps until `wakeup` on the wall clock, kMaxSleep at most.
void SleepUntil(Micros wakeup);

// The players' clock, and where their CPU time goes: real time, the players in netcube-bot processes over
// UDP; or virtual time, the players in this process over the in-memory network, everyone stepped 1 ms at a
// time, so that no player is ever late for want of a core (as if each had its own machine).
class Players {
 public:
  virtual ~Players() = default;
  virtual Micros Now() const = 0;
  // Updates the server (and, on virtual time, every player) to the next moment worth waking for.
  virtual void Step(server::Server& server) = 0;
  // What the players counted so far, when they are in this process (virtual time); nullopt otherwise.
  virtual std::optional<PlayerCounts> Counts() const = 0;
  // A player (not a churning one) stopped: lost, refused or done; or a churning player could not join.
  virtual bool AnyExited() = 0;
  virtual bool AllExited() = 0;
  // Ends what still runs; the reports of those that succeeded, and what went wrong with the others.
  virtual std::vector<nlohmann::json> Finish(std::string* problem) = 0;
  virtual std::string LogTails() = 0;
};

// How long the players' joins are spread over when each batch keeps its time (nothing on virtual time,
// where everyone joins at once): each bot process's batch k starts joining k intervals after its first,
// and plays that much less after its play starts, so that all play to about the same end.
Micros JoinRamp(const ScaleSettings& settings);

// The players of a run, playing for `play_s` (after the ramp) on the server at `port`: netcube-bot processes
// over UDP, or (settings.virtual_time) players in this process on `network`; nothing, with `error` set, when
// they cannot be started.
std::unique_ptr<Players> StartPlayers(const ScaleSettings& settings,
                                      std::shared_ptr<transport::Network> network, std::uint16_t port,
                                      double play_s, std::string* error);

}  // namespace netcube::bench
