#pragma once
// The client's room for delta baselines: the worlds of the newest snapshots it has rebuilt, by server
// tick, and the world a delta snapshot against any of them rebuilds (a replay from the newest world held
// since its baseline; a prediction continuing the last delta's when it names the same baseline). A delta
// against one no longer here is dropped (and counted) by the caller; the next snapshot, against a newer
// acknowledged one, recovers.
#include <array>
#include <cstddef>
#include <span>

#include "netcube/client/interpolation_buffer.h"
#include "netcube/protocol/baseline_prediction.h"
#include "netcube/protocol/messages.h"

namespace netcube::client {

class Baselines {
 public:
  // Over a second of snapshots at 60 Hz: the server uses the newest one the client acknowledged, about a
  // round trip old when its delta arrives, so a round trip of up to a second finds it still here (32 lost
  // every delta past 530 ms); an older one is only named after a long loss of acknowledgements.
  static constexpr std::size_t kSlots = protocol::kHeldBaselines;

  void Reset() noexcept;
  // The world at `tick`, or nullptr when it is not held.
  const protocol::FixedVector<sim::PlayerCube, protocol::kMaxPlayers>* Find(Tick tick) const noexcept;
  // The world `delta` rebuilds from the held world at `baseline`, or nullptr when it does not fit it (or
  // that world is not held). Valid until the next Rebuild.
  const protocol::Snapshot* Rebuild(Tick baseline, const protocol::DeltaSnapshot& delta) noexcept;
  // Keeps the world at `tick` in place of the oldest held (unless `tick` is older still, or held).
  void Store(Tick tick, std::span<const sim::PlayerCube> world) noexcept;

 private:
  struct Slot {
    bool used = false;
    Tick tick = 0;
    protocol::FixedVector<sim::PlayerCube, protocol::kMaxPlayers> world;
  };
  std::array<Slot, kSlots> slots_{};
  protocol::Snapshot rebuilt_;             // a delta snapshot's world, rebuilt in place
  protocol::PredictionCache predictions_;  // the last delta's, continued by the next on its baseline
};

}  // namespace netcube::client
