#pragma once
// The server's room for the tick: when ticks are due (skipping those hopelessly late), each tick's inputs
// taken from every player's queue, the world stepped, and the history of worlds it leaves behind (delta
// baselines, lag compensation).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "input_queue.h"
#include "netcube/server/server_stats.h"
#include "netcube/sim/world.h"
#include "players.h"
#include "tick_schedule.h"
#include "tuning.h"
#include "world_history.h"

namespace netcube::server {

class Simulation {
 public:
  Simulation(Micros start, int tick_rate) : schedule_(start, tick_rate) {
    arrivals_.reserve(protocol::kMaxPlayers);
  }

  // The newest tick due at `now`. A server more than kMaxTickLag late skips the missed ticks but keeps its
  // tick number following the clock, so that clients' estimates of server time stay valid.
  std::uint64_t LastDue(Micros now) noexcept;
  // One tick: every player's inputs for it applied to the world, collisions resolved, the world recorded.
  void Step(Players& players, bool collisions, const sim::Arena& arena);
  // Ticks after the current one follow `tick_rate`, from the current one's time.
  void SetRate(int tick_rate) noexcept { schedule_.Rebase(tick_, tick_rate); }

  std::uint64_t tick() const noexcept { return tick_; }
  int rate() const noexcept { return schedule_.rate(); }
  Micros TimeOf(std::uint64_t tick) const noexcept { return schedule_.TimeOf(tick); }
  const WorldHistory& history() const noexcept { return history_; }
  // The last tick's steps: each player's inputs that moved its cube.
  std::span<const sim::PlayerStep> steps() const noexcept { return steps_; }
  // The cubes that came before the last tick's step (not in the tick before's world, or of another
  // player), as they were put in.
  std::span<const sim::PlayerCube> arrivals() const noexcept { return arrivals_; }
  const TickCounters& counters() const noexcept { return counters_; }

 private:
  void RecordArrivals(const Players& players);

  TickSchedule schedule_;
  std::uint64_t tick_ = 0;
  TickCounters counters_;
  // Reused every tick, so that the steady state allocates nothing here.
  std::array<sim::Input, protocol::kMaxPlayers * InputQueue::kMaxPerTick> inputs_{};
  std::vector<sim::PlayerStep> steps_;
  std::vector<sim::PlayerCube> arrivals_;  // capacity kMaxPlayers, reserved
  sim::OverlapResolver resolver_;
  WorldHistory history_;
};

}  // namespace netcube::server
