#pragma once
// What explainer.cpp and cube_causes.cpp share: how far back causes are looked for, and small helpers for
// writing a cause with its numbers and the journal event it rests on. Private to the timeline library.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "netcube/timeline/explainer.h"

namespace netcube::timeline {

// How far back a glitch's causes are looked for beyond the delays that separate cause and effect (the
// link's latency and jitter, the interpolation delay, a round trip): a few snapshot intervals.
constexpr Micros kSlack{300'000};
// A snapshot that comes this many intervals after the one before it came late.
constexpr double kLateFactor = 1.5;
constexpr double kFrameMs = 1000.0 / 60.0;

__attribute__((format(printf, 1, 2))) inline std::string Format(const char* format, ...) {
  char buffer[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return buffer;
}

inline double Ms(Micros time) { return static_cast<double>(time.count()) / 1000.0; }
inline Micros FromMs(double ms) { return Micros(static_cast<std::int64_t>(std::max(0.0, ms) * 1000.0)); }

inline void SetEvidence(Cause& cause, std::size_t source, const Event& event) {
  if (cause.has_evidence && cause.evidence_at >= event.at) return;
  cause.has_evidence = true;
  cause.evidence = event.kind;
  cause.evidence_source = source;
  cause.evidence_at = event.at;
}

inline bool Has(const Explanation& out, CauseKind kind) {
  return std::any_of(out.causes.begin(), out.causes.end(), [&](const Cause& c) { return c.kind == kind; });
}

}  // namespace netcube::timeline
