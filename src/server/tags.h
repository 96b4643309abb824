#pragma once
// The server's room for tags: the cooldown each player's tags must keep, a tag waiting for the input it was
// fired after, judging it (lag compensation) against the world history, the recent verdicts for the
// server's view, and telling each verdict after the tick, through the Outbox handed in, to the clients it
// concerns (the shooter, the target) and, within a budget, to the others (a hit's flash).
#include <array>
#include <cstdint>
#include <vector>

#include "lag_compensation.h"
#include "netcube/server/server_config.h"
#include "netcube/server/server_stats.h"
#include "outbox.h"
#include "players.h"
#include "tuning.h"
#include "world_history.h"

namespace netcube::server {

class Tags {
 public:
  Tags() { results_.reserve(protocol::kMaxPlayers); }

  // A tag from `player` (of `client`): waits for its input, or is refused (and told so) when it comes
  // before the cooldown allows or while another waits.
  void OnTag(Micros now, Player& player, Client& client, const protocol::Tag& tag, Outbox& outbox);
  // Judges each waiting tag whose input has been applied, or that waited kMaxTagWait.
  void JudgeDue(Micros now, Players& players, const WorldHistory& history, const ServerConfig& config);
  // The verdicts JudgeDue reached: each to its shooter and its target; other players' hits to every
  // client within its budget (kBystanderHitsPerSecond), taken in turns so no shooter's always come first;
  // other players' misses to none (a client draws nothing of them).
  void SendResults(Micros now, Players& players, Outbox& outbox);

  // The last kRecentTags judged tags, oldest first.
  std::vector<TagRecord> Recent() const;
  const TagCounters& counters() const noexcept { return counters_; }

 private:
  void Judge(std::size_t shooter, const protocol::Tag& tag, Players& players, const WorldHistory& history,
             const ServerConfig& config);

  JudgeScratch judge_scratch_;
  std::array<TagRecord, kRecentTags> recent_{};  // the last min(tags_judged, kRecentTags)
  // The tick's verdicts, told to every client after the tick: at most one pending tag per player.
  std::vector<protocol::TagResult> results_;
  std::size_t first_result_ = 0;  // where the next tick's round of results starts, for bystanders
  TagCounters counters_;
};

}  // namespace netcube::server
