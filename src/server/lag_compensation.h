#pragma once
// Judging a tag: the shooter's claimed render time, capped by what the server can believe, and the ray
// tested against the world at that time (lag compensation) and against the world now.
#include <cstdint>
#include <vector>

#include "interest.h"
#include "netcube/protocol/messages.h"
#include "netcube/server/server_stats.h"
#include "tuning.h"
#include "world_history.h"

namespace netcube::server {

// The rewind for `tag` judged after `now_tick` (the newest tick in `history`, not empty): the render
// time claimed, brought into the history and under the caps (see kRewindSlack).
struct Rewind {
  double at_tick = 0.0;
  double claimed_ms = 0.0;
  double applied_ms = 0.0;
  bool capped = false;
};
Rewind ComputeRewind(const WorldHistory& history, const protocol::Tag& tag, int max_rewind_ms) noexcept;

// Scratch space reused across judgements, so judging allocates nothing in the steady state.
struct JudgeScratch {
  std::vector<PastCube> then;
  std::vector<PastCube> now;
  std::vector<sim::RayTarget> targets;
};

// Judges `tag` from `shooter` (its cube now) against the history's newest world and the rewound one, with
// only the cubes of its relevant set (`sight`, when not every cube is relevant to it) as targets: none it
// was not sent. The outcome follows `lag_compensation`; the record keeps both verdicts. `victim` receives
// the hit cube as it was at the judged time (when the outcome is a hit).
TagRecord Judge(const WorldHistory& history, const sim::PlayerCube& shooter, const protocol::Tag& tag,
                bool lag_compensation, int max_rewind_ms, const InterestView* sight, JudgeScratch& scratch,
                PastCube& victim);

}  // namespace netcube::server
