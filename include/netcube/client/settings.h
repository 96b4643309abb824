#pragma once
// The client's netcode techniques, every one switchable while connected (Client::SetSettings), and the
// three builds of the CS447 project as presets.
#include <cstdint>
#include <optional>
#include <string_view>

namespace netcube::client {

struct Settings {
  // Draw the own cube at its locally predicted state (off: at the latest server state, one round trip
  // late). Inputs are sent and tracked either way.
  bool prediction = true;
  // On each snapshot replay the unacknowledged inputs on top of the server's state (off: naive
  // prediction, the server's state overwrites the prediction, which jumps back under lag).
  bool reconciliation = true;
  // Draw remote cubes interpolated between buffered snapshots, interp delay in the past (off: at the
  // latest state received).
  bool interpolation = true;
  // Blend reconciliation corrections of the own cube over smoothing_ms instead of snapping.
  bool smoothing = true;
  // When the interpolation buffer runs dry continue the last motion (capped), rather than stop.
  bool extrapolation = true;
  // Size the interpolation delay from how stale the newest snapshot measurably gets (off: interp_delay_ms).
  bool adaptive_delay = true;
  int interp_delay_ms = 100;  // fixed interpolation delay, [0, kMaxInterpDelayMs]
  int smoothing_ms = 100;     // correction smoothing time, [0, kMaxSmoothingMs]
  int redundancy = 32;        // inputs per InputMessage, newest first, [1, protocol::kMaxInputsPerPacket]
  friend bool operator==(const Settings&, const Settings&) = default;
};

inline constexpr int kMaxInterpDelayMs = 1000;
inline constexpr int kMaxSmoothingMs = 2000;

// The same settings with every number brought into its range.
Settings Clamped(Settings settings) noexcept;

enum class Preset : std::uint8_t {
  kNaive,      // every technique off: the dumb client of Gambetta part I
  kPredicted,  // prediction + reconciliation
  kFull,       // also interpolation, smoothing, extrapolation, adaptive delay
};
inline constexpr Preset kAllPresets[] = {Preset::kNaive, Preset::kPredicted, Preset::kFull};

// The preset's toggles; the numbers (delay, smoothing time, redundancy) keep their defaults.
Settings PresetSettings(Preset preset) noexcept;
// "naive", "predicted", "full".
const char* ToString(Preset preset) noexcept;
std::optional<Preset> ParsePreset(std::string_view name) noexcept;
// The preset whose toggles `settings` has, if any.
std::optional<Preset> MatchPreset(const Settings& settings) noexcept;

}  // namespace netcube::client
