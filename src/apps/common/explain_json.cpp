#include "explain_json.h"

#include <nlohmann/json.hpp>

namespace netcube::apps {

std::string ExplanationJson(const timeline::Explanation& e) {
  nlohmann::json causes = nlohmann::json::array();
  for (const timeline::Cause& cause : e.causes) {
    nlohmann::json c = {{"cause", timeline::ToString(cause.kind)}, {"text", cause.text}};
    if (cause.first_tick >= 0) c["ticks"] = {cause.first_tick, cause.last_tick};
    if (cause.count > 0) c["count"] = cause.count;
    if (cause.kind == timeline::CauseKind::kCollision) c["player"] = cause.player;
    if (cause.from != 0.0 || cause.to != 0.0) c["range"] = {cause.from, cause.to};
    if (cause.has_evidence) {
      c["evidence"] = {
          {"event", timeline::ToString(cause.evidence)},
          {"source", cause.evidence_source == 0 ? std::string("server")
                                                : "client " + std::to_string(cause.evidence_source)},
          {"time_ms", static_cast<double>(cause.evidence_at.count()) / 1000.0}};
    }
    causes.push_back(std::move(c));
  }
  nlohmann::json line = {{"frame", e.frame},
                         {"time_ms", static_cast<double>(e.time.count()) / 1000.0},
                         {"client", e.client + 1},
                         {"entry", e.entry},
                         {"kind", timeline::ToString(e.kind)},
                         {"causes", std::move(causes)},
                         {"text", e.line}};
  if (e.size != 0.0) line["size"] = e.size;
  if (e.kind == timeline::GlitchKind::kCorrection) line["visible"] = e.visible;
  if (e.kind != timeline::GlitchKind::kCorrection && e.kind != timeline::GlitchKind::kUnderrun &&
      e.kind != timeline::GlitchKind::kSlowPress) {
    line["subject"] = e.subject;
  }
  return line.dump() + '\n';
}

}  // namespace netcube::apps
