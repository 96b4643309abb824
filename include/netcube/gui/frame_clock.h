#pragma once
// The GUI's frame rate, the virtual clock a scripted screenshot run follows (frame i happens at i/60 s
// whatever the machine's speed, so the run renders the same picture anywhere), and the pacer that keeps a
// watched lab in real time.
#include <cstdint>
#include <string>

#include "netcube/sim/time.h"

namespace netcube::gui {

inline constexpr int kFramesPerSecond = 60;

constexpr Micros VirtualFrameTime(int frame) noexcept {
  return Micros(static_cast<std::int64_t>(frame) * 1'000'000 / kFramesPerSecond);
}

// Game time follows the real clock: each shown frame runs the lab frames (1/60 s of game time each) that
// came due since the last one, several when frames are slow, none when they come faster than 60 a second.
// A shown frame runs at most kMaxFramesPerShown of them: past that the machine cannot keep up, the debt is
// dropped (the game slows down instead of spiralling into ever longer frames) and speed() says by how
// much, measured over the last kSpeedWindow of real time.
class RealTimePacer {
 public:
  // 4 keeps real time down to 15 shown frames a second.
  static constexpr int kMaxFramesPerShown = 4;
  static constexpr Micros kSpeedWindow{1'000'000};
  // Below this share of real time the slow-down is worth telling (a missed frame now and then is not).
  static constexpr double kSlowSpeed = 0.95;

  // The lab frames to run for the frame shown at real time `now` (the first call: 1).
  int Due(Micros now) noexcept;
  // Starts afresh from `now` (after a pause, a seek or a fork: the time they took is not owed).
  void Restart() noexcept { started_ = false; }
  // Game time over real time in the last complete window: 1 when the lab keeps up.
  double speed() const noexcept { return speed_; }
  // "running at 42% of real time" while the lab cannot keep up; empty while it does.
  std::string SlowNotice() const;

 private:
  bool started_ = false;
  Micros origin_{0};      // real time of lab frame 0 since the last restart, moved on by dropped debt
  std::int64_t run_ = 0;  // lab frames run since origin_
  Micros window_start_{0};
  std::int64_t window_frames_ = 0;
  double speed_ = 1.0;
};

}  // namespace netcube::gui
