#pragma once
// The server's recent past, for lag compensation and delta snapshots' baselines: a ring of world states, one
// slot per tick (slot = tick % kSlots, the tick stored in the slot so a stale one is never read), and the
// world at any fractional tick in it, interpolated as a client interpolates between snapshots.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "netcube/protocol/messages.h"
#include "netcube/sim/time.h"
#include "netcube/sim/world.h"

namespace netcube::server {

// A cube as it was: its centre in sub-units, and the last input its owner had had applied.
struct PastCube {
  sim::PlayerId id = 0;
  double x = 0.0;
  double y = 0.0;
  bool has_input = false;
  sim::Seq last_input = 0;
};

class WorldHistory {
 public:
  // More than a second at the highest tick rate (kMaxRate): the longest rewind the wire can ask for.
  static constexpr std::size_t kSlots = 256;
  static_assert(kSlots > protocol::kMaxRate * protocol::kMaxTagDelayMs / 1000 + 1);

  WorldHistory();

  // Stores the world after `tick`, which ran at `time`; has_input(i) tells whether world[i] has had an
  // input applied, generation(i) which player owns it (ids are reused). Ticks are recorded in increasing
  // order; recording one overwrites the tick kSlots older.
  template <class HasInput, class Generation>
  void Record(std::uint64_t tick, Micros time, std::span<const sim::PlayerCube> world, HasInput&& has_input,
              Generation&& generation) {
    Slot& slot = slots_[tick % kSlots];
    slot.tick = tick;
    slot.time = time;
    slot.count = world.size();
    for (std::size_t i = 0; i < world.size(); ++i) {
      slot.cubes[i] = world[i];
      slot.has_input[i] = has_input(i);
      slot.generation[i] = generation(i);
    }
    newest_ = tick;
    if (recorded_ < kSlots) ++recorded_;
  }

  // The world after `tick` exactly as recorded, with each cube's generation: a delta snapshot's
  // baseline. False when the tick is not held.
  bool WorldOf(std::uint64_t tick, std::span<const sim::PlayerCube>& cubes,
               std::span<const std::uint32_t>& generations) const noexcept;

  bool empty() const noexcept { return recorded_ == 0; }
  // The oldest and newest ticks held (meaningful when not empty).
  std::uint64_t oldest() const noexcept { return newest_ + 1 - recorded_; }
  std::uint64_t newest() const noexcept { return newest_; }

  // When the (fractional) tick `at`, within [oldest(), newest()], ran.
  Micros TimeAt(double at) const noexcept;
  // Every cube at `at`, within [oldest(), newest()], in increasing id order: between the two ticks
  // around it a cube present at both is interpolated; one present at one of them only is taken from it.
  // The input is the one of the nearer tick.
  void WorldAt(double at, std::vector<PastCube>& out) const;

 private:
  struct Slot {
    std::uint64_t tick = 0;
    Micros time{0};
    std::size_t count = 0;
    std::array<sim::PlayerCube, protocol::kMaxPlayers> cubes{};
    std::array<bool, protocol::kMaxPlayers> has_input{};
    std::array<std::uint32_t, protocol::kMaxPlayers> generation{};
  };
  const Slot& SlotOf(std::uint64_t tick) const noexcept { return slots_[tick % kSlots]; }

  std::vector<Slot> slots_;  // kSlots, allocated once
  std::uint64_t newest_ = 0;
  std::size_t recorded_ = 0;
};

}  // namespace netcube::server
