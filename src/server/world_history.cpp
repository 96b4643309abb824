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
    for (std::size_t i = 0; i < a.count; ++i) out.push_back(PastOf(a.cubes[i].cube, a.cubes[i].has_input));
    return;
  }
  const Slot& b = SlotOf(before_tick + 1);
  const bool nearer_b = fraction >= 0.5;
  // Both lists are in increasing id order: merge them.
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.count || j < b.count) {
    const bool take_a = j == b.count || (i < a.count && a.cubes[i].cube.id < b.cubes[j].cube.id);
    const bool take_b = i == a.count || (j < b.count && b.cubes[j].cube.id < a.cubes[i].cube.id);
    if (take_a) {
      out.push_back(PastOf(a.cubes[i].cube, a.cubes[i].has_input));
      ++i;
    } else if (take_b) {
      out.push_back(PastOf(b.cubes[j].cube, b.cubes[j].has_input));
      ++j;
    } else {
      const RecordedCube& ca = a.cubes[i++];
      const RecordedCube& cb = b.cubes[j++];
      PastCube past = PastOf(nearer_b ? cb.cube : ca.cube, nearer_b ? cb.has_input : ca.has_input);
      past.x = ca.cube.state.x + (cb.cube.state.x - ca.cube.state.x) * fraction;
      past.y = ca.cube.state.y + (cb.cube.state.y - ca.cube.state.y) * fraction;
      out.push_back(past);
    }
  }
}

}  // namespace netcube::server
