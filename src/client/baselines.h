#pragma once
// The client's room for delta baselines: the worlds of the newest snapshots it has rebuilt, by server
// tick, so that a delta snapshot against any of them can be applied. A delta against one no longer here
// is dropped (and counted) by the caller; the next snapshot, against a newer acknowledged one, recovers.
#include <array>
#include <cstddef>
#include <span>

#include "netcube/client/interpolation_buffer.h"
#include "netcube/protocol/messages.h"

namespace netcube::client {

class Baselines {
 public:
  // Over half a second of snapshots at 60 Hz: the server uses the newest one the client acknowledged,
  // at most a round trip old, so an older one is only ever named after a long loss of acknowledgements.
  static constexpr std::size_t kSlots = 32;

  void Reset() noexcept;
  // The world at `tick`, or nullptr when it is not held.
  const protocol::FixedVector<sim::PlayerCube, protocol::kMaxPlayers>* Find(Tick tick) const noexcept;
  // Keeps the world at `tick` in place of the oldest held (unless `tick` is older still, or held).
  void Store(Tick tick, std::span<const sim::PlayerCube> world) noexcept;

 private:
  struct Slot {
    bool used = false;
    Tick tick = 0;
    protocol::FixedVector<sim::PlayerCube, protocol::kMaxPlayers> world;
  };
  std::array<Slot, kSlots> slots_{};
};

}  // namespace netcube::client
