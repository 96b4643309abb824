#include "netcube/timeline/explainer.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace netcube::timeline {
namespace {

// How far back a glitch's causes are looked for beyond the delays that separate cause and effect (the
// link's latency and jitter, the interpolation delay, a round trip): a few snapshot intervals.
constexpr Micros kSlack{300'000};
// A snapshot that comes this many intervals after the one before it came late.
constexpr double kLateFactor = 1.5;
constexpr double kFrameMs = 1000.0 / 60.0;

__attribute__((format(printf, 1, 2))) std::string Format(const char* format, ...) {
  char buffer[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return buffer;
}

double Ms(Micros time) { return static_cast<double>(time.count()) / 1000.0; }
Micros FromMs(double ms) { return Micros(static_cast<std::int64_t>(std::max(0.0, ms) * 1000.0)); }

void SetEvidence(Cause& cause, std::size_t source, const Event& event) {
  if (cause.has_evidence && cause.evidence_at >= event.at) return;
  cause.has_evidence = true;
  cause.evidence = event.kind;
  cause.evidence_source = source;
  cause.evidence_at = event.at;
}

bool Has(const Explanation& out, CauseKind kind) {
  return std::any_of(out.causes.begin(), out.causes.end(), [&](const Cause& c) { return c.kind == kind; });
}

}  // namespace

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
    case CauseKind::kUnknown:
      return "unknown";
  }
  return "?";
}

Explainer::Explainer(const Journal& journal, std::vector<std::string> labels,
                     const std::vector<LinkChange>* script)
    : journal_(journal), labels_(std::move(labels)), script_(script), clients_(journal.clients()) {}

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
      what = Format("sees player id %d stop", e.subject);
      break;
    case GlitchKind::kRemoteJump:
      what = Format("sees player id %d jump", e.subject);
      break;
    case GlitchKind::kUnderrun:
      what = "runs out of snapshots to interpolate";
      break;
    case GlitchKind::kSlowPress:
      what = Format("sees a key press after %.0f ms", e.size);
      break;
    case GlitchKind::kTagMissSeenHit:
      what = Format("saw its tag hit player id %d; the server judged a miss", e.subject);
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

void Explainer::RemoteCauses(std::size_t index, const client::Client& client, Window window,
                             Explanation& out) const {
  const client::Settings& settings = client.settings();
  const client::Metrics m = client.metrics();
  const double interval_ms = m.snapshot_rate > 0 ? 1000.0 / m.snapshot_rate : 50.0;
  const EventRing& ring = journal_.client(index);

  // Snapshots that never came: the gap a snapshot arriving now shows (a jump), or none since the newest (a
  // freeze, an underrun), with the packets to this client dropped where they would have been.
  const Micros latency = FromMs(client.link().latency_ms);
  Micros last_arrival{-1};
  double last_gap_ms = 0.0;
  std::int64_t last_tick = -1;
  ring.VisitBackward(Micros(0), window.to, [&](const Event& event) {
    if (event.kind != EventKind::kSnapshotArrived) return true;
    last_arrival = event.at;
    last_gap_ms = static_cast<double>(event.value);
    last_tick = event.a;
    return false;
  });
  const auto drops = [&](Micros from, Micros to, Event& last) {
    std::int64_t count = 0;
    ring.VisitBackward(from, to, [&](const Event& event) {
      if (event.kind == EventKind::kPacketDown && (event.flags & event_flags::kDropped) != 0) {
        if (count++ == 0) last = event;
      }
      return true;
    });
    return count;
  };
  Cause loss{CauseKind::kLoss};
  // A jump: the gap the snapshot arriving now shows.
  ring.VisitBackward(window.to, window.to, [&](const Event& event) {
    if (out.kind != GlitchKind::kRemoteJump || event.kind != EventKind::kSnapshotsMissing) {
      return true;
    }
    loss.first_tick = event.a;
    loss.last_tick = event.b;
    loss.count = static_cast<std::int64_t>(event.value);
    SetEvidence(loss, index + 1, event);
    return false;
  });
  Event last_drop;
  if (loss.has_evidence) {
    const std::int64_t dropped = drops(window.from, window.to - latency, last_drop);
    if (dropped > 0) {
      loss.text =
          Format("snapshots %lld-%lld lost on the link (%lld missing; %lld packets to this client dropped)",
                 static_cast<long long>(loss.first_tick), static_cast<long long>(loss.last_tick),
                 static_cast<long long>(loss.count), static_cast<long long>(dropped));
    }
  } else if (last_tick >= 0 && last_arrival < window.to) {
    // None since the newest: dropped after it was sent (about a latency before it arrived), early enough
    // that, delivered, they would be here by now.
    const std::int64_t dropped = drops(last_arrival - latency + Micros(1), window.to - latency, last_drop);
    if (dropped > 0) {
      loss.first_tick = last_tick + 1;
      loss.last_tick =
          std::max<std::int64_t>(loss.first_tick, static_cast<std::int64_t>(client.server_time_ticks()));
      loss.count = dropped;
      loss.text = Format(
          "no snapshot after tick %lld for %.0f ms: %lld packets to this client lost on the link",
          static_cast<long long>(last_tick), Ms(window.to - last_arrival), static_cast<long long>(dropped));
    }
  }
  if (!loss.text.empty()) {
    SetEvidence(loss, index + 1, last_drop);
    out.causes.push_back(std::move(loss));
  }
  LinkEventCause(index, window, out);
  // The cube seen stopped at the server itself: its player's inputs came late (dry ticks) or never.
  if (out.kind != GlitchKind::kUnderrun) {
    Cause dry{CauseKind::kInputLate};
    Cause lost{CauseKind::kInputLost};
    journal_.server().VisitBackward(window.from, window.to, [&](const Event& event) {
      if (event.player != out.subject) return true;
      if (event.kind == EventKind::kDryTicks) {
        dry.count += event.b;
        SetEvidence(dry, 0, event);
      } else if (event.kind == EventKind::kInputsLost) {
        lost.count += event.b;
        SetEvidence(lost, 0, event);
      }
      return true;
    });
    if (dry.has_evidence) {
      dry.player = out.subject;
      dry.text = Format("player id %d's inputs came late to the server: %lld dry ticks", out.subject,
                        static_cast<long long>(dry.count));
      out.causes.push_back(std::move(dry));
    }
    if (lost.has_evidence) {
      lost.player = out.subject;
      lost.text = Format("%lld of player id %d's inputs never reached the server",
                         static_cast<long long>(lost.count), out.subject);
      out.causes.push_back(std::move(lost));
    }
  }
  // A snapshot that came late, though none was lost: the link's jitter (or a delay spread it shows).
  if (!Has(out, CauseKind::kLoss) && last_arrival >= window.from && last_gap_ms > kLateFactor * interval_ms) {
    Cause late{CauseKind::kJitter,
               Format("snapshot %lld came %.0f ms after the one before (one every %.0f ms)",
                      static_cast<long long>(last_tick), last_gap_ms, interval_ms)};
    late.from = interval_ms;
    late.to = last_gap_ms;
    Event arrival{last_arrival, 0, EventKind::kSnapshotArrived};
    SetEvidence(late, index + 1, arrival);
    out.causes.push_back(std::move(late));
  }
  LinkCauses(index, EventKind::kPacketDown, window, out);
  ring.VisitBackward(window.from - Micros(500'000), window.to, [&](const Event& event) {
    if (event.kind != EventKind::kRateChange) return true;
    Cause cause{CauseKind::kRateChange, Format("snapshot rate changed from %d to %d a second at %.2f s",
                                               event.a, event.b, Ms(event.at) / 1000.0)};
    cause.from = event.a;
    cause.to = event.b;
    SetEvidence(cause, index + 1, event);
    out.causes.push_back(std::move(cause));
    return false;
  });
  ring.VisitBackward(window.from, window.to, [&](const Event& event) {
    if (event.kind != EventKind::kDelayChange || std::abs(event.b - event.a) < 5'000) return true;
    Cause cause{CauseKind::kDelayChange,
                Format("view delay changed from %.0f to %.0f ms", event.a / 1000.0, event.b / 1000.0)};
    cause.from = event.a / 1000.0;
    cause.to = event.b / 1000.0;
    SetEvidence(cause, index + 1, event);
    out.causes.push_back(std::move(cause));
    return false;
  });
  if (out.kind == GlitchKind::kUnderrun || out.kind == GlitchKind::kRemoteFrozen) {
    double extrapolated = 0.0;
    Cause cause{CauseKind::kExtrapolation};
    ring.VisitBackward(window.to - Micros(200'000), window.to, [&](const Event& event) {
      if (event.kind != EventKind::kExtrapolating) return true;
      extrapolated += static_cast<double>(event.value);
      SetEvidence(cause, index + 1, event);
      return true;
    });
    if (cause.has_evidence) {
      cause.to = extrapolated;
      cause.text =
          Format("extrapolated %.0f ms past the newest snapshot, then held (capped at one interval, %.0f ms)",
                 extrapolated, interval_ms);
      out.causes.push_back(std::move(cause));
    }
  }
  if (!settings.interpolation && out.kind != GlitchKind::kUnderrun) {
    out.causes.push_back(
        {CauseKind::kTechnique,
         Format("interpolation off: each snapshot drawn as it arrives (one every %.0f ms)", interval_ms)});
  }
}

void Explainer::OwnCauses(std::size_t index, const client::Client& client, Window window,
                          Explanation& out) const {
  const client::Settings& settings = client.settings();
  if (!settings.reconciliation && out.kind == GlitchKind::kCorrection) {
    out.causes.push_back(
        {CauseKind::kTechnique,
         "reconciliation off: each snapshot puts the cube back at the server's older state"});
  }
  if (settings.prediction && !settings.reconciliation && out.kind == GlitchKind::kSlowPress) {
    out.causes.push_back(
        {CauseKind::kTechnique, Format("reconciliation off: each snapshot puts the cube back where the "
                                       "server had it, a round trip (%.0f ms) behind the keys",
                                       client.metrics().rtt_ms)});
  }
  if (!settings.prediction && out.kind == GlitchKind::kSlowPress) {
    out.causes.push_back(
        {CauseKind::kTechnique, Format("prediction off: the cube waits for the server, round trip %.0f ms",
                                       client.metrics().rtt_ms)});
  }
  const std::optional<sim::PlayerId> id = client.player_id();
  if (!id) return;
  Cause collision{CauseKind::kCollision};
  Cause dry{CauseKind::kInputLate};
  Cause lost{CauseKind::kInputLost};
  Cause refused{CauseKind::kInputLost};
  journal_.server().VisitBackward(window.from, window.to, [&](const Event& event) {
    if (event.kind == EventKind::kContact && (event.player == *id || event.b == *id)) {
      if (!collision.has_evidence) collision.player = event.player == *id ? event.b : event.player;
      SetEvidence(collision, 0, event);
    } else if (event.player == *id && event.kind == EventKind::kDryTicks) {
      dry.count += event.b;
      SetEvidence(dry, 0, event);
    } else if (event.player == *id && event.kind == EventKind::kInputsLost) {
      lost.count += event.b;
      SetEvidence(lost, 0, event);
    } else if (event.player == *id && event.kind == EventKind::kInputsRefused) {
      refused.count += event.b;
      SetEvidence(refused, 0, event);
    }
    return true;
  });
  if (collision.has_evidence) {
    collision.text =
        Format("collision with player id %d at %.2f s", collision.player, Ms(collision.evidence_at) / 1000.0);
    out.causes.push_back(std::move(collision));
  }
  if (lost.has_evidence) {
    lost.text = Format("%lld inputs never reached the server (redundancy %d)",
                       static_cast<long long>(lost.count), settings.redundancy);
    out.causes.push_back(std::move(lost));
  }
  if (refused.has_evidence) {
    refused.text = Format("%lld inputs came to a full queue at the server and were dropped (its rate limit)",
                          static_cast<long long>(refused.count));
    out.causes.push_back(std::move(refused));
  }
  if (dry.has_evidence) {
    dry.text = Format("%lld dry ticks at the server: inputs late", static_cast<long long>(dry.count));
    out.causes.push_back(std::move(dry));
  }
  // The inputs' way to the server, when the server saw them late or missing, or when nothing else did: an
  // input skipped in a gap is not always counted lost (the server's loss allowance), but its packets'
  // drops are in the journal.
  if (lost.has_evidence || dry.has_evidence || refused.has_evidence || out.causes.empty()) {
    LinkCauses(index, EventKind::kPacketUp, window, out);
  }
  LinkEventCause(index, window, out);
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
      out.causes.push_back(
          {CauseKind::kUnknown,
           Format("at the judged time the ray passed %.2f units from player id %d",
                  tag.rewound.clearance / sim::kSubUnitsPerUnit, static_cast<int>(tag.rewound.nearest))});
    }
  }
}

void Explainer::Frame(std::size_t index, const client::FrameSample& sample, const client::Client& client,
                      const server::Server& server, std::vector<Explanation>& out) {
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
      // Seen as a hit when fired?
      int seen = 0;
      ring.VisitBackward(now - Micros(5'000'000), now, [&](const Event& fired) {
        if (fired.kind != EventKind::kTagFired || fired.a != event.a) return true;
        seen = fired.b;
        return false;
      });
      if (seen != 0) {
        Explanation e = Start(index, sample, GlitchKind::kTagMissSeenHit);
        e.subject = seen;
        TagCauses(client, server, event.a, e);
        Finish(e);
        out.push_back(std::move(e));
      }
    }
    return true;
  });
  ClientState& state = clients_[index];
  const bool frozen = sample.remote_frozen.value_or(0) > 0;
  if (frozen && !state.frozen) {
    Explanation e = Start(index, sample, GlitchKind::kRemoteFrozen);
    e.subject = sample.frozen_cube.value_or(0);
    RemoteCauses(index, client, remote, e);
    Finish(e);
    out.push_back(std::move(e));
  }
  state.frozen = frozen;
  if (sample.remote_jumps.value_or(0) > 0) {
    Explanation e = Start(index, sample, GlitchKind::kRemoteJump);
    e.subject = sample.jumped_cube.value_or(0);
    RemoteCauses(index, client, remote, e);
    Finish(e);
    out.push_back(std::move(e));
  }
  if (sample.press_delay_ms && *sample.press_delay_ms > kFrameMs + 0.5) {
    Explanation e = Start(index, sample, GlitchKind::kSlowPress);
    e.size = *sample.press_delay_ms;
    OwnCauses(index, client, own, e);
    Finish(e);
    out.push_back(std::move(e));
  }
}

}  // namespace netcube::timeline
