#pragma once
// Replay deltas' two ends: the server's log of what every cube did at each tick (MoveLog), the delta that
// says it since a baseline (MakeReplay, or ReplayBuilder tick by tick), and the world the receiver rebuilds
// by running the server's step again (ApplyReplay). Exact by construction: the same Moves from the same
// world, in the same step.
#include <array>
#include <cstdint>
#include <span>

#include "netcube/protocol/messages.h"
#include "netcube/sim/world.h"

namespace netcube::protocol {

// The buttons a turn's choice names after `held`, and back: the 15 other values, the ones without
// opposite keys first (a player's usual turns get the 3-bit codes), each group in increasing order.
std::uint8_t ButtonsOfChoice(std::uint8_t held, std::uint8_t choice) noexcept;
std::uint8_t ChoiceOf(std::uint8_t held, std::uint8_t buttons) noexcept;  // buttons != held

class MoveLog {
 public:
  // The ticks kept: enough for any baseline a delta may name (kHeldBaselines) and the tick after it.
  static constexpr std::size_t kTicks = kHeldBaselines + 1;

  // Records the step of `tick`: the inputs `steps` applied to `world` (whose cubes the steps point into;
  // the world after the step, in increasing id order, with its players' generations), the cubes that
  // came before it (`arrivals`: as they were put in, increasing id; those of ids or generations the last
  // tick did not have) and whether overlaps were resolved. The cubes the last tick had and this one does
  // not went before the step.
  void Record(std::uint64_t tick, std::span<const sim::PlayerCube> world,
              std::span<const std::uint32_t> generations, std::span<const sim::PlayerCube> arrivals,
              std::span<const sim::PlayerStep> steps, bool collisions) noexcept;

 private:
  friend class ReplayBuilder;

  // One cube's inputs in one tick: `count` of them, the last numbered `last_seq`, holding `buttons[k]`
  // (the last of these for the rest); `plain` false when they were not (a change of buttons after the
  // first kLoggedButtons inputs of the tick, more than kMaxMovesPerTick). Input numbers may jump (inputs
  // lost on the way): a Move's number changes nothing but the cube's bookkeeping, which snapshots omit.
  static constexpr std::size_t kLoggedButtons = 4;
  struct Step {
    std::uint16_t count = 0;
    sim::Seq last_seq = 0;
    std::array<std::uint8_t, kLoggedButtons> buttons{};
    bool plain = true;
  };
  struct Tick {
    std::uint64_t tick = 0;  // 0: none recorded
    // Advanced whenever the collisions setting changes, or cubes come and go in ways a replay cannot say
    // (more than kMaxArrivals at once, or one whose state before the step is not known): a replay needs
    // the same at every tick since its baseline.
    std::uint64_t era = 0;
    bool collisions = true;
    FixedVector<sim::PlayerId, kMaxPlayers> exits;        // before the step, increasing id
    FixedVector<sim::PlayerCube, kMaxArrivals> arrivals;  // put in before the step, increasing id
    std::size_t cube_count = 0;
    std::array<Step, kMaxPlayers> cubes{};  // by the cube's index in the world
  };
  const Tick* Find(std::uint64_t tick) const noexcept;
  // Sets `slot`'s exits and arrivals from the members the last tick had to those of `world`; false
  // when a replay cannot say them.
  bool RecordMembers(Tick& slot, std::span<const sim::PlayerCube> world,
                     std::span<const std::uint32_t> generations,
                     std::span<const sim::PlayerCube> arrivals) noexcept;

  std::array<Tick, kTicks> ticks_{};
  std::uint64_t era_ = 0;
  bool collisions_ = true;
  std::size_t members_count_ = 0;
  std::array<std::pair<sim::PlayerId, std::uint32_t>, kMaxPlayers> members_{};
};

// A replay delta against one baseline, extended tick by tick: a server that encodes against a baseline at
// every tick adds each tick's steps once (work: its cubes) instead of going over every tick since the
// baseline again (its cubes times the age). The delta is written into the `out` the caller keeps with it.
class ReplayBuilder {
 public:
  // Starts `out` (its ack left as it is) as the replay from `baseline`, the world after `baseline_tick`
  // in increasing id order, with what `log` recorded of that tick. False when it cannot start (not
  // recorded, too many cubes).
  bool Start(std::uint64_t baseline_tick, std::span<const sim::PlayerCube> baseline, const MoveLog& log,
             DeltaSnapshot& out) noexcept;
  // Starts as Start does and extends as far as `older` reached, from what `older` made (in `older_out`):
  // a builder on an earlier baseline, extended past `baseline_tick`. Each path is the tail of the older
  // one, so no tick is replayed again: the work is the paths' runs and turns, not the cubes times the
  // ticks. False (and nothing started) when `older` cannot give it: not extended that far, gone bad,
  // other cubes, or this builder itself.
  bool StartFrom(const ReplayBuilder& older, const DeltaSnapshot& older_out, std::uint64_t baseline_tick,
                 std::span<const sim::PlayerCube> baseline, DeltaSnapshot& out) noexcept;
  // Adds what `log` recorded of every tick after the last one added, up to `tick`. False, from then on,
  // when they cannot be replayed: not all recorded, other cubes or another collisions setting, keys
  // changed after a tick's first kLoggedButtons inputs, more runs or turns than a path names,
  // older than kHeldBaselines.
  bool Extend(std::uint64_t tick, const MoveLog& log, DeltaSnapshot& out) noexcept;
  // Completes `out` as the delta of the world after the last tick added (`world`); false when the world
  // does not end where the log says (other cubes, other last inputs or buttons).
  bool Finish(std::span<const sim::PlayerCube> world, DeltaSnapshot& out) noexcept;

 private:
  struct Cursor {
    sim::Seq last_seq = 0;  // of the last input applied
    int moves = 0;
    int idle_ticks = 0;  // the ticks without a Move before the first Move: a run once one comes
    std::uint8_t held = 0;
  };
  bool ExtendOne(const MoveLog::Tick& step, DeltaSnapshot& out) noexcept;
  // The cubes that went and came before the step of `step`, which is `at` ticks after the baseline.
  bool ExtendMembers(const MoveLog::Tick& step, int at, DeltaSnapshot& out) noexcept;
  // Makes `out` a replay of count_ paths, each empty.
  void StartPaths(bool collisions, DeltaSnapshot& out) const noexcept;

  bool good_ = false;
  std::uint64_t baseline_tick_ = 0;
  std::uint64_t reached_ = 0;  // the last tick added
  std::uint64_t era_ = 0;
  std::size_t count_ = 0;  // paths: the baseline's cubes, then those that came
  std::array<Cursor, kMaxReplayPaths> cursors_{};
  std::array<sim::PlayerId, kMaxReplayPaths> ids_{};
  // The paths of the cubes in the world at reached_, in its order (increasing id).
  FixedVector<std::uint16_t, kMaxPlayers> present_;
};

// Builds `out` (its ack left as it is) as a replay delta: the world after `tick` (`world`) against
// the baseline world `age` ticks older, from what `log` recorded of the ticks between. False when those
// ticks cannot be replayed (see ReplayBuilder).
bool MakeReplay(std::uint64_t tick, int age, std::span<const sim::PlayerCube> baseline,
                std::span<const sim::PlayerCube> world, const MoveLog& log, DeltaSnapshot& out) noexcept;

// Whether each of a replay's paths covers the ticks its cube was in the world with runs of at least a tick
// and at most kMaxMovesPerTick Moves a tick (some Move if any run), and names its turns in order, at Moves
// it makes, each choice in range. The wire's grammar says no other path: every delta Decode accepts fits,
// and so does every one MakeReplay makes. ApplyReplay follows only such deltas.
bool PathsFit(const DeltaSnapshot& delta) noexcept;

// Rebuilds the world a replay delta describes into `out` (tick, arena and ack too), from `baseline`, the
// world it was made against in `arena`; or, which costs only the ticks after it, from `newer`, the world
// `newer_ticks` ticks after the baseline (the receiver rebuilt it from an earlier snapshot: the cubes the
// delta says were there then). The delta's paths fit (PathsFit: a decoded delta's do, so they are not
// checked again). False when the delta does not fit the worlds: another cube count, an exit of a cube not
// there, an arrival of an id there or outside the arena. Collisions are resolved with `resolver`, a
// receiver's own from replay to replay.
bool ApplyReplay(std::span<const sim::PlayerCube> baseline, const sim::Arena& arena,
                 const DeltaSnapshot& delta, Snapshot& out, sim::OverlapResolver& resolver,
                 std::span<const sim::PlayerCube> newer = {}, int newer_ticks = 0) noexcept;

}  // namespace netcube::protocol
