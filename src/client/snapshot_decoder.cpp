#include "netcube/client/snapshot_decoder.h"

#include "netcube/protocol/replay.h"

namespace netcube::client {

void SnapshotDecoder::Reset() noexcept {
  for (Slot& slot : slots_) slot.used = false;
  untold_ = {};
}

void SnapshotDecoder::Received(Tick tick, std::span<const sim::PlayerCube> world) noexcept {
  Store(tick, world);
  untold_.Insert(static_cast<std::uint64_t>(tick));
}

const protocol::FixedVector<sim::PlayerCube, protocol::kMaxWholeWorldCubes>* SnapshotDecoder::Find(
    Tick tick) const noexcept {
  for (const Slot& slot : slots_) {
    if (slot.used && slot.tick == tick) return &slot.world;
  }
  return nullptr;
}

const protocol::Snapshot* SnapshotDecoder::Rebuild(Tick baseline, const protocol::DeltaSnapshot& delta,
                                                   const sim::Arena& arena) noexcept {
  const auto* held = Find(baseline);
  if (held == nullptr) return nullptr;
  // A replay may start from any world held between the baseline and its tick: the newest costs least.
  const Slot* newer = nullptr;
  for (const Slot& slot : slots_) {
    if (slot.used && slot.tick > baseline && slot.tick < baseline + static_cast<Tick>(delta.age) &&
        (newer == nullptr || slot.tick > newer->tick)) {
      newer = &slot;
    }
  }
  const bool rebuilt = newer != nullptr
                           ? protocol::ApplyReplay(held->span(), arena, delta, rebuilt_, newer->world.span(),
                                                   static_cast<int>(newer->tick - baseline))
                           : protocol::ApplyReplay(held->span(), arena, delta, rebuilt_);
  return rebuilt ? &rebuilt_ : nullptr;
}

const protocol::Snapshot& SnapshotDecoder::Unpack(const protocol::InterestSnapshot& interest) noexcept {
  rebuilt_.server_tick = interest.server_tick;
  rebuilt_.arena = interest.arena;
  rebuilt_.has_ack = interest.has_ack;
  rebuilt_.ack = interest.ack;
  rebuilt_.input_lead = interest.input_lead;
  rebuilt_.players.clear();
  kept_.clear();
  for (const protocol::InterestMember& member : interest.members) {
    if (member.has_state) {
      rebuilt_.players.push_back(member.cube);
    } else {
      kept_.push_back(member.cube.id);
    }
  }
  return rebuilt_;
}

void SnapshotDecoder::Store(Tick tick, std::span<const sim::PlayerCube> world) noexcept {
  Slot* target = nullptr;
  for (Slot& slot : slots_) {
    if (slot.used && slot.tick == tick) return;
    if (target != nullptr && !target->used) continue;
    if (!slot.used || target == nullptr || slot.tick < target->tick) target = &slot;
  }
  if (target->used && target->tick > tick) return;
  target->used = true;
  target->tick = tick;
  target->world.clear();
  for (const sim::PlayerCube& cube : world) target->world.push_back(cube);
}

}  // namespace netcube::client
