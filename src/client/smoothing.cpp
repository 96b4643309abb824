#include "netcube/client/smoothing.h"

#include <cmath>

namespace netcube::client {

void CorrectionSmoother::OnCorrection(Vec2 jump, bool enabled, double smoothing_ms) noexcept {
  if (!enabled || smoothing_ms <= 0.0) {
    offset_ = {};
    return;
  }
  // Keep drawing where the cube was: the offset absorbs the jump.
  offset_ = offset_ - jump;
  if (Length(offset_) < kSnapThresholdUnits) offset_ = {};
}

void CorrectionSmoother::Advance(Micros elapsed, double smoothing_ms) noexcept {
  if (offset_ == Vec2{}) return;
  if (smoothing_ms <= 0.0) {
    offset_ = {};
    return;
  }
  const double time_constant_us = smoothing_ms * 1000.0 / kTimeConstantsPerSmoothing;
  offset_ = offset_ * std::exp(-static_cast<double>(elapsed.count()) / time_constant_us);
  if (Length(offset_) < kSnapThresholdUnits) offset_ = {};
}

}  // namespace netcube::client
