#include "netcube/timeline/explainer.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <optional>

#include "explain_helpers.h"

namespace netcube::timeline {

const char* ToString(GlitchKind kind) noexcept {
  switch (kind) {
    case GlitchKind::kCorrection:
      return "correction";
    case GlitchKind::kRemoteFrozen:
      return "remote_frozen";
    case GlitchKind::kRemoteJump:
      return "remote_jump";
    case GlitchKind::kUnderrun:
      return "underrun";
    case GlitchKind::kSlowPress:
      return "slow_press";
    case GlitchKind::kTagMissSeenHit:
      return "tag_miss_seen_hit";
  }
  return "?";
}

const char* ToString(CauseKind kind) noexcept {
  switch (kind) {
    case CauseKind::kLoss:
      return "loss";
    case CauseKind::kInputLost:
      return "input_lost";
    case CauseKind::kInputLate:
      return "input_late";
    case CauseKind::kJitter:
      return "jitter";
    case CauseKind::kReordering:
      return "reordering";
    case CauseKind::kLinkEvent:
      return "link_event";
    case CauseKind::kCollision:
      return "collision";
    case CauseKind::kRateChange:
      return "rate_change";
    case CauseKind::kDelayChange:
      return "delay_change";
    case CauseKind::kExtrapolation:
      return "extrapolation";
    case CauseKind::kRewindCap:
      return "rewind_cap";
    case CauseKind::kTechnique:
      return "technique";
    case CauseKind::kClock:
      return "clock";
    case CauseKind::kUnknown:
      return "unknown";
  }
  return "?";
}

Explainer::Explainer(const Journal& journal, std::vector<std::string> labels,
                     const std::vector<LinkChange>* script)
    : journal_(journal),
      labels_(std::move(labels)),
      ids_(journal.clients(), -1),
      script_(script),
      clients_(journal.clients()) {}

std::string Explainer::NameOf(int player) const {
  for (std::size_t i = 0; i < ids_.size() && i < labels_.size(); ++i)
    if (ids_[i] == player) return labels_[i];
  return "player id " + std::to_string(player);
}

Explanation Explainer::Start(std::size_t index, const client::FrameSample& sample, GlitchKind kind) const {
  Explanation e;
  e.frame = sample.frame;
  e.time = sample.time;
  e.client = index;
  e.entry = index < labels_.size() ? labels_[index] : "player " + std::to_string(index + 1);
  e.kind = kind;
  return e;
}

void Explainer::Finish(Explanation& e) const {
  if (e.causes.empty()) e.causes.push_back({CauseKind::kUnknown, "nothing in the journal accounts for it"});
  std::string what;
  switch (e.kind) {
    case GlitchKind::kCorrection:
      what = Format("own cube corrected by %.2f units%s", e.size, e.visible ? "" : " (too small to see)");
      break;
    case GlitchKind::kRemoteFrozen:
      what = "sees " + NameOf(e.subject) + " stop";
      break;
    case GlitchKind::kRemoteJump:
      what = "sees " + NameOf(e.subject) + " jump";
      break;
    case GlitchKind::kUnderrun:
      what = "runs out of snapshots to interpolate";
      break;
    case GlitchKind::kSlowPress:
      what = Format("sees a key press after %.0f ms", e.size);
      break;
    case GlitchKind::kTagMissSeenHit:
      what = "saw its tag hit " + NameOf(e.subject) + "; the server judged a miss";
      break;
  }
  e.line = Format("%.2f s, %s ", Ms(e.time) / 1000.0, e.entry.c_str()) + what + ": ";
  for (std::size_t i = 0; i < e.causes.size(); ++i) e.line += (i > 0 ? "; " : "") + e.causes[i].text;
}

void Explainer::LinkEventCause(std::size_t index, Window window, Explanation& out) const {
  if (script_ == nullptr) return;
  // A change starting up to its own length (or a second) before the window still shapes it.
  const auto visit = [&](std::size_t source, const EventRing& ring) {
    ring.VisitBackward(window.from - Micros(1'000'000), window.to, [&](const Event& event) {
      if (event.kind != EventKind::kLinkChange || static_cast<std::size_t>(event.a) >= script_->size())
        return true;
      const LinkChange& change = (*script_)[static_cast<std::size_t>(event.a)];
      const Micros end = change.duration.count() > 0 ? event.at + change.duration : window.to;
      if (end + kSlack < window.from) return true;
      Cause cause{CauseKind::kLinkEvent,
                  Format("link event \"%s\" at %.2f s", change.text.c_str(), Ms(event.at) / 1000.0)};
      SetEvidence(cause, source, event);
      out.causes.push_back(std::move(cause));
      return false;
    });
  };
  visit(index + 1, journal_.client(index));
  visit(0, journal_.server());
}

void Explainer::ClockCause(std::size_t index, Window window, Explanation& out) const {
  journal_.client(index).VisitBackward(window.from - kClockEffect, window.to, [&](const Event& event) {
    if (event.kind != EventKind::kClockStep) return true;
    const bool scripted = script_ != nullptr && static_cast<std::size_t>(event.b) < script_->size();
    Cause cause{CauseKind::kClock,
                Format("this client's clock stepped %+.0f ms at %.2f s%s%s%s", event.a / 1000.0,
                       Ms(event.at) / 1000.0, scripted ? " (\"" : "",
                       scripted ? (*script_)[static_cast<std::size_t>(event.b)].text.c_str() : "",
                       scripted ? "\")" : "")};
    cause.to = event.a / 1000.0;
    SetEvidence(cause, index + 1, event);
    out.causes.push_back(std::move(cause));
    return false;
  });
}

void Explainer::LinkCauses(std::size_t index, EventKind direction, Window window, Explanation& out) const {
  const EventRing& ring = journal_.client(index);
  std::int64_t dropped = 0;
  std::int64_t reordered = 0;
  std::int64_t delivered = 0;
  double min_delay = 1e300;
  double max_delay = 0.0;
  Cause loss{CauseKind::kLoss};
  Cause jitter{CauseKind::kJitter};
  Cause reorder{CauseKind::kReordering};
  ring.VisitBackward(window.from, window.to, [&](const Event& event) {
    if (event.kind != direction) return true;
    if ((event.flags & event_flags::kDropped) != 0) {
      ++dropped;
      SetEvidence(loss, index + 1, event);
      return true;
    }
    ++delivered;
    min_delay = std::min(min_delay, event.a / 1000.0);
    max_delay = std::max(max_delay, event.a / 1000.0);
    SetEvidence(jitter, index + 1, event);
    if ((event.flags & event_flags::kReordered) != 0) {
      ++reordered;
      SetEvidence(reorder, index + 1, event);
    }
    return true;
  });
  const char* way = direction == EventKind::kPacketDown ? "to" : "from";
  if (dropped > 0 && direction == EventKind::kPacketUp) {
    loss.kind = CauseKind::kLoss;
    loss.count = dropped;
    loss.text =
        Format("%lld packets %s this client dropped on the link", static_cast<long long>(dropped), way);
    out.causes.push_back(std::move(loss));
  }
  if (delivered > 1 && max_delay - min_delay > kJitterSpreadMs) {
    jitter.from = min_delay;
    jitter.to = max_delay;
    jitter.text = Format("jitter: packets %s this client took %.0f to %.0f ms", way, min_delay, max_delay);
    out.causes.push_back(std::move(jitter));
  }
  if (reordered > 0) {
    reorder.count = reordered;
    reorder.text = Format("%lld packets %s this client reordered", static_cast<long long>(reordered), way);
    out.causes.push_back(std::move(reorder));
  }
}

void Explainer::TagCauses(const client::Client& client, const server::Server& server, int shot,
                          Explanation& out) const {
  const std::optional<sim::PlayerId> id = client.player_id();
  for (const server::TagRecord& tag : server.recent_tags()) {
    if (!id || tag.shooter != *id || tag.shot != shot) continue;
    if (!tag.lag_compensation) {
      out.causes.push_back({CauseKind::kTechnique, "lag compensation off: judged against the world now"});
    }
    if (tag.capped) {
      out.causes.push_back(
          {CauseKind::kRewindCap, Format("rewind capped at %.0f ms (the shooter saw %.0f ms back)",
                                         tag.rewind_ms, tag.claimed_rewind_ms)});
    }
    if (tag.rewound.has_nearest && !tag.rewound.hit) {
      out.causes.push_back({CauseKind::kUnknown, Format("at the judged time the ray passed %.2f units from ",
                                                        tag.rewound.clearance / sim::kSubUnitsPerUnit) +
                                                     NameOf(static_cast<int>(tag.rewound.nearest))});
    }
  }
}

// Drawing each snapshot as it comes, a moving remote cube stops and jumps at every snapshot by design: one
// told, the next ones with the same causes less than kFoldGap after it are folded into it rather than told
// twenty times a second.
bool Explainer::Fold(ClientState& state, const Explanation& e) {
  std::vector<CauseKind> causes;
  for (const Cause& cause : e.causes) causes.push_back(cause.kind);
  const bool same = causes == state.told_causes && e.time - state.told_at < kFoldGap;
  state.told_at = e.time;
  if (!same) state.told_causes = std::move(causes);
  return same;
}

namespace {

// The cube shot `shot` was seen to hit when fired (in the 5 s before `now`), or 0.
int SeenHit(const EventRing& ring, Micros now, std::int32_t shot) {
  int seen = 0;
  ring.VisitBackward(now - Micros(5'000'000), now, [&](const Event& fired) {
    if (fired.kind != EventKind::kTagFired || fired.a != shot) return true;
    seen = fired.b;
    return false;
  });
  return seen;
}

}  // namespace

void Explainer::Frame(std::size_t index, const client::FrameSample& sample, const client::Client& client,
                      const server::Server* server, std::vector<Explanation>& out) {
  if (const std::optional<sim::PlayerId> id = client.player_id(); id && index < ids_.size())
    ids_[index] = *id;
  const EventRing& ring = journal_.client(index);
  const client::Metrics m = client.metrics();
  const transport::LinkSettings& link = client.link();
  const Micros now = sample.time;
  const Window remote{now - FromMs(link.latency_ms + link.jitter_ms + m.interp_delay_ms) - kSlack, now};
  const Window own{now - FromMs(std::max(m.rtt_ms, 2.0 * (link.latency_ms + link.jitter_ms))) - kSlack, now};

  // This frame's corrections, underruns and judged tags, as the recorder journaled them.
  ring.VisitBackward(now, now, [&](const Event& event) {
    if (event.kind == EventKind::kCorrection) {
      Explanation e = Start(index, sample, GlitchKind::kCorrection);
      e.size = static_cast<double>(event.value);
      e.visible = e.size >= kVisibleCorrection;
      OwnCauses(index, client, own, e);
      Finish(e);
      out.push_back(std::move(e));
    } else if (event.kind == EventKind::kUnderrun) {
      Explanation e = Start(index, sample, GlitchKind::kUnderrun);
      RemoteCauses(index, client, remote, e);
      Finish(e);
      out.push_back(std::move(e));
    } else if (event.kind == EventKind::kTagJudged &&
               event.b == static_cast<int>(protocol::TagOutcome::kMiss)) {
      if (const int seen = SeenHit(ring, now, event.a); seen != 0) {
        Explanation e = Start(index, sample, GlitchKind::kTagMissSeenHit);
        e.subject = seen;
        if (server != nullptr) TagCauses(client, *server, event.a, e);
        Finish(e);
        out.push_back(std::move(e));
      }
    }
    return true;
  });
  ClientState& state = clients_[index];
  const auto remote_glitch = [&](GlitchKind kind, std::optional<sim::PlayerId> subject) {
    Explanation e = Start(index, sample, kind);
    e.subject = subject.value_or(0);
    RemoteCauses(index, client, remote, e);
    if (!client.settings().interpolation && Fold(state, e)) return;
    Finish(e);
    out.push_back(std::move(e));
  };
  const bool frozen = sample.remote_frozen.value_or(0) > 0;
  if (frozen && !state.frozen) remote_glitch(GlitchKind::kRemoteFrozen, sample.frozen_cube);
  state.frozen = frozen;
  if (sample.remote_jumps.value_or(0) > 0) remote_glitch(GlitchKind::kRemoteJump, sample.jumped_cube);
  if (sample.press_delay_ms && *sample.press_delay_ms > kFrameMs + 0.5) {
    Explanation e = Start(index, sample, GlitchKind::kSlowPress);
    e.size = *sample.press_delay_ms;
    OwnCauses(index, client, own, e);
    Finish(e);
    out.push_back(std::move(e));
  }
}

}  // namespace netcube::timeline
