#pragma once
// The client's one decoder of snapshots: the worlds of the newest snapshots it has received, by server tick
// (the baselines a delta may name), the world a delta snapshot against any of them rebuilds (a replay from
// the newest world held since its baseline), each cube's newest states InterestSnapshots carried (the
// baselines of a predicted state), and which snapshots the server has not yet been told of. A delta, or an
// InterestSnapshot predicting from a state no longer here, is dropped (and counted) by the caller; the
// next snapshot, against a newer acknowledged one, recovers.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "netcube/client/interpolation_buffer.h"
#include "netcube/protocol/messages.h"
#include "netcube/protocol/recent_ticks.h"
#include "netcube/sim/world.h"

namespace netcube::client {

class SnapshotDecoder {
 public:
  // Over a second of snapshots at 60 Hz: the server uses the newest one the client acknowledged, about a
  // round trip old when its delta arrives, so a round trip of up to a second finds it still here (32 lost
  // every delta past 530 ms); an older one is only named after a long loss of acknowledgements.
  static constexpr std::size_t kSlots = protocol::kHeldBaselines;

  void Reset() noexcept;
  // The world at `tick`, or nullptr when it is not held.
  const protocol::FixedVector<sim::PlayerCube, protocol::kMaxWholeWorldCubes>* Find(Tick tick) const noexcept;
  // The world `delta` rebuilds from the held world at `baseline` (in `arena`, the session's), or nullptr
  // when it does not fit it (or that world is not held). Valid until the next Rebuild.
  const protocol::Snapshot* Rebuild(Tick baseline, const protocol::DeltaSnapshot& delta,
                                    const sim::Arena& arena) noexcept;
  // The states the InterestSnapshot of `tick` carries (in `arena`, the session's), its predicted ones run
  // from those held, as a Snapshot of those cubes (tick, arena and ack too), and its members without a
  // state (kept(): still relevant, drawn from their earlier states); nullptr when a state it predicts from
  // is not held. Valid until the next Rebuild or Unpack.
  const protocol::Snapshot* Unpack(Tick tick, const protocol::InterestSnapshot& interest,
                                   const sim::Arena& arena) noexcept;
  std::span<const sim::PlayerId> kept() const noexcept { return kept_.span(); }
  // A snapshot received (whole, or rebuilt): its world is kept in place of the oldest held (unless `tick` is
  // older still, or held), and it is among those to tell the server of.
  void Received(Tick tick, std::span<const sim::PlayerCube> world) noexcept;
  // An InterestSnapshot received (unpacked): each of its states is kept among its cube's newest, and it is
  // among those to tell the server of.
  void ReceivedStates(Tick tick, std::span<const sim::PlayerCube> states);

  // The snapshot to tell the server of next (an input's or a SnapshotAck's seen tick): the newest not yet
  // told, else the newest gap. The server encodes a delta once per baseline and hands it to every client
  // that told of that tick; telling only the newest at each send leaves a gap whenever two snapshots arrive
  // between sends (under cross-continent jitter, 40% of the ticks).
  std::optional<std::uint64_t> ToTell() const noexcept { return untold_.NewestHeld(); }
  void Told(std::uint64_t tick) noexcept { untold_.Erase(tick); }

 private:
  struct Slot {
    bool used = false;
    Tick tick = 0;
    protocol::FixedVector<sim::PlayerCube, protocol::kMaxWholeWorldCubes> world;  // whole worlds only
  };
  // A snapshot's cubes' records of carried states lie scattered over a client's memory, each a cache miss:
  // the ticks of the record kFetchAhead cubes on are asked of the cache while one is read.
  static constexpr std::size_t kFetchAhead = 4;
  void FetchCarried(sim::PlayerId id) const noexcept;
  // Keeps the world at `tick` in place of the oldest held (unless `tick` is older still, or held).
  void Store(Tick tick, std::span<const sim::PlayerCube> world) noexcept;
  // A cube's newest states InterestSnapshots carried, by tick, in no order; oldest replaced first. Twice
  // those the server predicts from: a late snapshot predicts from states the ones that overtook it pushed
  // out of the newest.
  static constexpr std::size_t kCarriedStates = 2 * protocol::kInterestHeldStates;
  static constexpr Tick kNoTick = std::numeric_limits<Tick>::min();  // an empty slot's, older than any
  // A record's ticks are the first two cache lines of its own (empty slots included, so no count
  // elsewhere): a state found or kept touches one line more.
  struct alignas(64) CarriedStates {
    std::array<Tick, kCarriedStates> ticks = EmptyTicks();
    std::array<sim::CubeState, kCarriedStates> states{};
    const sim::CubeState* Find(Tick tick) const noexcept;
    void Keep(Tick tick, const sim::CubeState& state) noexcept;
    static constexpr std::array<Tick, kCarriedStates> EmptyTicks() noexcept {
      std::array<Tick, kCarriedStates> ticks{};
      ticks.fill(kNoTick);
      return ticks;
    }
  };

  std::array<Slot, kSlots> slots_{};
  protocol::RecentTicks untold_;   // the snapshots received the server has not been told of
  sim::OverlapResolver resolver_;  // the replays' collisions, from one to the next
  protocol::Snapshot rebuilt_;     // a delta snapshot's world, rebuilt in place, or an interest one's states
  protocol::FixedVector<sim::PlayerId, protocol::kMaxPlayers> kept_;
  std::vector<CarriedStates> carried_;  // by id, up to the highest carried
};

}  // namespace netcube::client
