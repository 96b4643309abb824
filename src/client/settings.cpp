#include "netcube/client/settings.h"

#include <algorithm>
#include <iterator>

#include "netcube/protocol/messages.h"

namespace netcube::client {

Settings Clamped(Settings settings) noexcept {
  settings.interp_delay_ms = std::clamp(settings.interp_delay_ms, 0, kMaxInterpDelayMs);
  settings.smoothing_ms = std::clamp(settings.smoothing_ms, 0, kMaxSmoothingMs);
  settings.redundancy = std::clamp(settings.redundancy, 1, static_cast<int>(protocol::kMaxInputsPerPacket));
  settings.predict_window_ms = std::clamp(settings.predict_window_ms, 0, kMaxPredictWindowMs);
  return settings;
}

Settings PresetSettings(Preset preset) noexcept {
  const bool predicted = preset != Preset::kNaive;
  const bool full = preset == Preset::kFull || preset == Preset::kPredictOthers;
  Settings s;
  s.prediction = predicted;
  s.reconciliation = predicted;
  s.interpolation = full;
  s.smoothing = full;
  s.extrapolation = full;
  s.adaptive_delay = full;
  s.predict_others = preset == Preset::kPredictOthers;
  return s;
}

const char* ToString(Preset preset) noexcept {
  switch (preset) {
    case Preset::kNaive:
      return "naive";
    case Preset::kPredicted:
      return "predicted";
    case Preset::kFull:
      return "full";
    case Preset::kPredictOthers:
      return "predict-others";
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
        p.extrapolation == settings.extrapolation && p.adaptive_delay == settings.adaptive_delay &&
        p.predict_others == settings.predict_others) {
      return preset;
    }
  }
  return std::nullopt;
}

namespace {

// The toggles in the order TechniquesOf writes them.
struct Toggle {
  char letter;
  bool Settings::*field;
};
constexpr Toggle kToggles[] = {{'p', &Settings::prediction},    {'r', &Settings::reconciliation},
                               {'i', &Settings::interpolation}, {'s', &Settings::smoothing},
                               {'e', &Settings::extrapolation}, {'a', &Settings::adaptive_delay},
                               {'o', &Settings::predict_others}};

}  // namespace

std::string TechniquesOf(const Settings& settings) {
  std::string out;
  for (const Toggle& toggle : kToggles) {
    if (!(settings.*toggle.field)) continue;
    if (!out.empty()) out += '+';
    out += toggle.letter;
  }
  return out.empty() ? "none" : out;
}

std::optional<TechniqueSet> ParseTechniqueSet(std::string_view text, std::string* error) {
  if (const std::optional<Preset> preset = ParsePreset(text)) {
    return TechniqueSet{std::string(text), PresetSettings(*preset)};
  }
  Settings settings = PresetSettings(Preset::kNaive);
  if (text != "none") {
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = std::min(text.find('+', start), text.size());
      const std::string_view letter = text.substr(start, end - start);
      const Toggle* toggle = std::find_if(std::begin(kToggles), std::end(kToggles), [&](const Toggle& t) {
        return letter.size() == 1 && letter[0] == t.letter;
      });
      if (toggle == std::end(kToggles) || settings.*toggle->field) {
        *error = "'" + std::string(text) +
                 "': expected naive, predicted, full, none, or distinct toggles p r i s e a o joined by '+'";
        return std::nullopt;
      }
      settings.*toggle->field = true;
      start = end + 1;
    }
  }
  return TechniqueSet{std::string(text), settings};
}

std::optional<std::vector<TechniqueSet>> ParseTechniqueSets(std::string_view text, std::string* error) {
  std::vector<TechniqueSet> sets;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    std::optional<TechniqueSet> set = ParseTechniqueSet(text.substr(start, end - start), error);
    if (!set) return std::nullopt;
    sets.push_back(std::move(*set));
    start = end + 1;
  }
  if (sets.size() < kMinCompareEntries || sets.size() > kMaxCompareEntries) {
    *error = "compare " + std::to_string(kMinCompareEntries) + " to " + std::to_string(kMaxCompareEntries) +
             " technique sets, not " + std::to_string(sets.size());
    return std::nullopt;
  }
  return sets;
}

}  // namespace netcube::client
