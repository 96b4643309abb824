#pragma once
// Correction smoothing (the Unity article's lerp toward the server position): when reconciliation moves
// the predicted position, the drawn position does not snap. The jump is kept as a visual offset
// (drawn = predicted + offset, so the drawn path stays continuous) that decays exponentially to zero;
// a remainder below kSnapThresholdUnits snaps, and so does any correction that small.
#include "netcube/client/units.h"
#include "netcube/sim/time.h"

namespace netcube::client {

// Corrections and leftovers this small (units) are not worth smoothing: invisible at any sensible zoom.
inline constexpr double kSnapThresholdUnits = 0.05;
// smoothing_ms spans this many time constants: a 1-unit correction has decayed to 5% (the snap
// threshold) after smoothing_ms.
inline constexpr double kTimeConstantsPerSmoothing = 3.0;

class CorrectionSmoother {
 public:
  // The predicted position moved by `jump` (units). Without smoothing (or with smoothing_ms <= 0) the
  // offset is cleared and the drawn position snaps.
  void OnCorrection(Vec2 jump, bool enabled, double smoothing_ms) noexcept;
  // Lets `elapsed` of decay happen.
  void Advance(Micros elapsed, double smoothing_ms) noexcept;
  void Reset() noexcept { offset_ = {}; }

  // Added to the predicted position to get the drawn one, units.
  Vec2 offset() const noexcept { return offset_; }

 private:
  Vec2 offset_;
};

}  // namespace netcube::client
