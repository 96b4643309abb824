#include "netcube/client/snapshot_decoder.h"

#include <algorithm>

#include "netcube/protocol/replay.h"

namespace netcube::client {

void SnapshotDecoder::Reset() noexcept {
  for (Slot& slot : slots_) slot.used = false;
  untold_ = {};
  carried_.clear();
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
  const bool rebuilt =
      newer != nullptr ? protocol::ApplyReplay(held->span(), arena, delta, rebuilt_, resolver_,
                                               newer->world.span(), static_cast<int>(newer->tick - baseline))
                       : protocol::ApplyReplay(held->span(), arena, delta, rebuilt_, resolver_);
  return rebuilt ? &rebuilt_ : nullptr;
}

const protocol::Snapshot* SnapshotDecoder::Unpack(Tick tick, const protocol::InterestSnapshot& interest,
                                                  const sim::Arena& arena) noexcept {
  rebuilt_.server_tick = interest.server_tick;
  rebuilt_.arena = interest.arena;
  rebuilt_.has_ack = interest.has_ack;
  rebuilt_.ack = interest.ack;
  rebuilt_.input_lead = interest.input_lead;
  rebuilt_.players.clear();
  kept_.clear();
  const std::span<const protocol::InterestMember> members = interest.members.span();
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (i + kFetchAhead < members.size() && members[i + kFetchAhead].predicted_age > 0)
      FetchCarried(members[i + kFetchAhead].cube.id);
    const protocol::InterestMember& member = members[i];
    if (!member.has_state) {
      kept_.push_back(member.cube.id);
      continue;
    }
    sim::PlayerCube cube = member.cube;
    if (member.predicted_age > 0) {
      const sim::CubeState* held =
          cube.id < carried_.size() ? carried_[cube.id].Find(tick - member.predicted_age) : nullptr;
      if (held == nullptr) return nullptr;
      cube.state = *held;
      for (int k = 0; k < member.predicted_age; ++k)
        sim::Advance(cube.state, sim::Input{0, cube.state.buttons}, arena);
    }
    rebuilt_.players.push_back(cube);
  }
  return &rebuilt_;
}

void SnapshotDecoder::ReceivedStates(Tick tick, std::span<const sim::PlayerCube> states) {
  for (const sim::PlayerCube& cube : states) {
    if (cube.id >= carried_.size()) carried_.resize(cube.id + 1u);
  }
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (i + kFetchAhead < states.size()) FetchCarried(states[i + kFetchAhead].id);
    carried_[states[i].id].Keep(tick, states[i].state);
  }
  untold_.Insert(static_cast<std::uint64_t>(tick));
}

void SnapshotDecoder::FetchCarried(sim::PlayerId id) const noexcept {
  if (id >= carried_.size()) return;
  __builtin_prefetch(&carried_[id].ticks.front());
  __builtin_prefetch(&carried_[id].ticks.back());
}

const sim::CubeState* SnapshotDecoder::CarriedStates::Find(Tick tick) const noexcept {
  for (std::size_t k = 0; k < kCarriedStates; ++k) {
    if (ticks[k] == tick) return &states[k];
  }
  return nullptr;
}

void SnapshotDecoder::CarriedStates::Keep(Tick tick, const sim::CubeState& state) noexcept {
  std::size_t oldest = 0;  // an empty slot when there is one
  for (std::size_t k = 0; k < kCarriedStates; ++k) {
    if (ticks[k] == tick) return;
    if (ticks[k] < ticks[oldest]) oldest = k;
  }
  if (ticks[oldest] > tick) return;  // older than every state held: a late one
  ticks[oldest] = tick;
  states[oldest] = state;
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
