#pragma once
// The GUI's frame rate, and the virtual clock a scripted screenshot run follows: frame i happens at
// i/60 s whatever the machine's speed, so the run renders the same picture anywhere.
#include <cstdint>

#include "netcube/sim/time.h"

namespace netcube::gui {

inline constexpr int kFramesPerSecond = 60;

constexpr Micros VirtualFrameTime(int frame) noexcept {
  return Micros(static_cast<std::int64_t>(frame) * 1'000'000 / kFramesPerSecond);
}

}  // namespace netcube::gui
