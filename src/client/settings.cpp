#include "netcube/client/settings.h"

#include <algorithm>

#include "netcube/protocol/messages.h"

namespace netcube::client {

Settings Clamped(Settings settings) noexcept {
  settings.interp_delay_ms = std::clamp(settings.interp_delay_ms, 0, kMaxInterpDelayMs);
  settings.smoothing_ms = std::clamp(settings.smoothing_ms, 0, kMaxSmoothingMs);
  settings.redundancy = std::clamp(settings.redundancy, 1, static_cast<int>(protocol::kMaxInputsPerPacket));
  return settings;
}

Settings PresetSettings(Preset preset) noexcept {
  const bool predicted = preset != Preset::kNaive;
  const bool full = preset == Preset::kFull;
  Settings s;
  s.prediction = predicted;
  s.reconciliation = predicted;
  s.interpolation = full;
  s.smoothing = full;
  s.extrapolation = full;
  s.adaptive_delay = full;
  return s;
}

const char* ToString(Preset preset) noexcept {
  switch (preset) {
    case Preset::kNaive: return "naive";
    case Preset::kPredicted: return "predicted";
    case Preset::kFull: return "full";
  }
  return "?";
}

std::optional<Preset> ParsePreset(std::string_view name) noexcept {
  for (Preset preset : kAllPresets) {
    if (name == ToString(preset)) return preset;
  }
  return std::nullopt;
}

std::optional<Preset> MatchPreset(const Settings& settings) noexcept {
  for (Preset preset : kAllPresets) {
    const Settings p = PresetSettings(preset);
    if (p.prediction == settings.prediction && p.reconciliation == settings.reconciliation &&
        p.interpolation == settings.interpolation && p.smoothing == settings.smoothing &&
        p.extrapolation == settings.extrapolation && p.adaptive_delay == settings.adaptive_delay) {
      return preset;
    }
  }
  return std::nullopt;
}

}  // namespace netcube::client
