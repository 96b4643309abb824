#pragma once
// The client's netcode techniques, every one switchable while connected (Client::SetSettings), and the
// three builds of the CS447 project as presets.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  // Blend reconciliation corrections of the own cube over smoothing_ms instead of snapping, and never draw
  // a remote cube moving faster than its top speed (a correction of its extrapolation is made up over the
  // next frames); with predict_others, a remote cube's misprediction is smoothed like the own cube's.
  bool smoothing = true;
  // When the interpolation buffer runs dry continue the last motion (capped), rather than stop.
  bool extrapolation = true;
  // Size the interpolation delay from how stale the newest snapshot measurably gets (off: interp_delay_ms).
  bool adaptive_delay = true;
  // The other family: keep the newest authoritative world and simulate every cube from it, with
  // collisions, to the present (remote cubes holding their last known buttons) and the own cube through its
  // pending inputs; each snapshot rolls back to its world and simulates again (GGPO, Rocket League, DDNet's
  // antiping). Remote cubes are drawn at the present, their mispredictions smoothed like the own cube's;
  // beyond predict_window_ms ahead of the newest snapshot they fall back to interpolation.
  bool predict_others = false;
  int interp_delay_ms = 100;  // fixed interpolation delay, [0, kMaxInterpDelayMs]
  int smoothing_ms = 100;     // correction smoothing time, [0, kMaxSmoothingMs]
  int redundancy = 32;        // inputs per InputMessage, newest first, [1, protocol::kMaxInputsPerPacket]
  // How far past the newest snapshot predict_others simulates, at most (GGPO's prediction window),
  // [0, kMaxPredictWindowMs]: a harsh link's 500 ms one way and its jitter fit in the default.
  int predict_window_ms = 1000;
  // predict_others draws the other cubes at the tick the own cube's newest input reaches the server
  // (Rocket League's and GGPO's one timeline: half a round trip and the input buffer past the present),
  // so a tag aimed at them arrives when they are where it was aimed, whatever lag compensation does; off,
  // at the present. Not part of the presets: where the family draws, not whether.
  bool predict_to_input_tick = false;
  // Nudge the input sampling rate (a few percent at most) toward the input lead the server reports, so
  // inputs reach it just in time whatever this machine's clock does (off: exactly 60 a second by the local
  // clock). Not part of the presets: it is how inputs are timed, not what is drawn.
  bool input_pacing = true;
  // Ask the server for snapshots at its tick rate while the link loses or delays them enough to cost view
  // delay, and for its own rate back once it does not (off: the server's rate). Only while interpolating:
  // without interpolation there is no view delay to save, and the server's rate is what is drawn. Not part
  // of the presets either: it is what the link needs, not a way of drawing.
  bool adaptive_snapshot_rate = true;
  friend bool operator==(const Settings&, const Settings&) = default;
};

inline constexpr int kMaxInterpDelayMs = 1000;
inline constexpr int kMaxSmoothingMs = 2000;
inline constexpr int kMaxPredictWindowMs = 2000;

// The same settings with every number brought into its range.
Settings Clamped(Settings settings) noexcept;

enum class Preset : std::uint8_t {
  kNaive,          // every technique off: the dumb client of Gambetta part I
  kPredicted,      // prediction + reconciliation
  kFull,           // also interpolation, smoothing, extrapolation, adaptive delay
  kPredictOthers,  // full, and the other cubes predicted to the present with rollback (predict_others)
};
inline constexpr Preset kAllPresets[] = {Preset::kNaive, Preset::kPredicted, Preset::kFull,
                                         Preset::kPredictOthers};

// The preset's toggles; the numbers (delay, smoothing time, redundancy) keep their defaults.
Settings PresetSettings(Preset preset) noexcept;
// "naive", "predicted", "full", "predict-others".
const char* ToString(Preset preset) noexcept;
std::optional<Preset> ParsePreset(std::string_view name) noexcept;
// The preset whose toggles `settings` has, if any.
std::optional<Preset> MatchPreset(const Settings& settings) noexcept;

// One build under comparison (netcube-client --compare): a name and the techniques it uses.
struct TechniqueSet {
  std::string label;  // the preset's name, or the toggles as written
  Settings settings;
  friend bool operator==(const TechniqueSet&, const TechniqueSet&) = default;
};
inline constexpr std::size_t kMinCompareEntries = 2;
inline constexpr std::size_t kMaxCompareEntries = 4;

// The toggles that are on, joined by '+': p (prediction), r (reconciliation), i (interpolation),
// s (smoothing), e (extrapolation), a (adaptive delay), o (predict others); "none" when every toggle is off.
std::string TechniquesOf(const Settings& settings);
// A preset's name (naive, predicted, full, predict-others) or toggles as TechniquesOf writes them (any order,
// "none" for none); the numbers keep their defaults. nullopt with `error` set otherwise.
std::optional<TechniqueSet> ParseTechniqueSet(std::string_view text, std::string* error);
// A comma-separated list of kMinCompareEntries to kMaxCompareEntries technique sets.
std::optional<std::vector<TechniqueSet>> ParseTechniqueSets(std::string_view text, std::string* error);

}  // namespace netcube::client
