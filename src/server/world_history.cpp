#include "world_history.h"

#include <algorithm>
#include <cmath>

namespace netcube::server {
namespace {

PastCube PastOf(const sim::PlayerCube& cube, bool has_input) noexcept {
  return {cube.id, static_cast<double>(cube.state.x), static_cast<double>(cube.state.y), has_input,
          cube.state.last_input};
}

}  // namespace

WorldHistory::WorldHistory() : slots_(kSlots) {}

bool WorldHistory::WorldOf(std::uint64_t tick, std::span<const sim::PlayerCube>& cubes,
                           std::span<const std::uint32_t>& generations) const noexcept {
  if (recorded_ == 0 || tick > newest_ || tick < oldest()) return false;
  const Slot& slot = SlotOf(tick);
  cubes = {slot.cubes.data(), slot.count};
  generations = {slot.generation.data(), slot.count};
  return true;
}

Micros WorldHistory::TimeAt(double at) const noexcept {
  const auto before = static_cast<std::uint64_t>(std::floor(at));
  const double fraction = at - static_cast<double>(before);
  const Micros time = SlotOf(before).time;
  if (fraction == 0.0 || before >= newest_) return time;
  const Micros next = SlotOf(before + 1).time;
  return time + Micros(std::llround(static_cast<double>((next - time).count()) * fraction));
}

void WorldHistory::WorldAt(double at, std::vector<PastCube>& out) const {
  out.clear();
  const auto before_tick = static_cast<std::uint64_t>(std::floor(at));
  const double fraction = at - static_cast<double>(before_tick);
  const Slot& a = SlotOf(before_tick);
  if (fraction == 0.0 || before_tick >= newest_) {
    for (std::size_t i = 0; i < a.count; ++i) out.push_back(PastOf(a.cubes[i], a.has_input[i]));
    return;
  }
  const Slot& b = SlotOf(before_tick + 1);
  const bool nearer_b = fraction >= 0.5;
  // Both lists are in increasing id order: merge them.
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.count || j < b.count) {
    const bool take_a = j == b.count || (i < a.count && a.cubes[i].id < b.cubes[j].id);
    const bool take_b = i == a.count || (j < b.count && b.cubes[j].id < a.cubes[i].id);
    if (take_a) {
      out.push_back(PastOf(a.cubes[i], a.has_input[i]));
      ++i;
    } else if (take_b) {
      out.push_back(PastOf(b.cubes[j], b.has_input[j]));
      ++j;
    } else {
      const sim::PlayerCube& ca = a.cubes[i];
      const sim::PlayerCube& cb = b.cubes[j];
      PastCube past = nearer_b ? PastOf(cb, b.has_input[j]) : PastOf(ca, a.has_input[i]);
      past.x = ca.state.x + (cb.state.x - ca.state.x) * fraction;
      past.y = ca.state.y + (cb.state.y - ca.state.y) * fraction;
      out.push_back(past);
      ++i;
      ++j;
    }
  }
}

}  // namespace netcube::server
