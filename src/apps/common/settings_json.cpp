#include "settings_json.h"

namespace netcube::apps {

nlohmann::json SettingsJson(const client::Settings& s) {
  return {{"prediction", s.prediction},
          {"reconciliation", s.reconciliation},
          {"interpolation", s.interpolation},
          {"smoothing", s.smoothing},
          {"extrapolation", s.extrapolation},
          {"adaptive_delay", s.adaptive_delay},
          {"interp_delay_ms", s.interp_delay_ms},
          {"smoothing_ms", s.smoothing_ms},
          {"redundancy", s.redundancy},
          {"input_pacing", s.input_pacing},
          {"adaptive_snapshot_rate", s.adaptive_snapshot_rate},
          {"predict_others", s.predict_others},
          {"predict_window_ms", s.predict_window_ms},
          {"predict_to_input_tick", s.predict_to_input_tick}};
}

}  // namespace netcube::apps
