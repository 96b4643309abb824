#include "netcube/gui/frame_clock.h"

#include <algorithm>
#include <cmath>

namespace netcube::gui {

int RealTimePacer::Due(Micros now) noexcept {
  if (!started_) {
    started_ = true;
    origin_ = now;
    run_ = 0;
    window_start_ = now;
    window_frames_ = 0;
  }
  // Rounded to the nearest frame: a display's 60 Hz, a little early or late, runs one lab frame each.
  const std::int64_t due_by_now = ((now - origin_).count() * kFramesPerSecond + 500'000) / 1'000'000 + 1;
  std::int64_t due = std::max<std::int64_t>(0, due_by_now - run_);
  if (due > kMaxFramesPerShown) {
    // The frames beyond the cap are not owed later: the origin moves on by the game time they stood for.
    origin_ += VirtualFrameTime(static_cast<int>(due - kMaxFramesPerShown));
    due = kMaxFramesPerShown;
  }
  run_ += due;
  window_frames_ += due;
  if (now - window_start_ >= kSpeedWindow) {
    const double game = static_cast<double>(window_frames_) / kFramesPerSecond;
    const double real = static_cast<double>((now - window_start_).count()) / 1e6;
    speed_ = std::min(1.0, game / real);
    window_start_ = now;
    window_frames_ = 0;
  }
  return static_cast<int>(due);
}

std::string RealTimePacer::SlowNotice() const {
  if (speed_ >= kSlowSpeed) return {};
  const int percent = static_cast<int>(std::lround(speed_ * 100.0));
  return "running at " + std::to_string(percent) + "% of real time: this machine cannot keep up";
}

}  // namespace netcube::gui
