// The causes of what a player sees go wrong with the cubes: a remote cube frozen, jumping or starved of
// snapshots (RemoteCauses), and its own cube corrected or slow to answer a key (OwnCauses).
#include <algorithm>
#include <cmath>

#include "explain_helpers.h"
#include "netcube/timeline/explainer.h"

namespace netcube::timeline {
namespace {

// The newest snapshot to arrive by a time: when, its gap from the one before, its tick (-1: none).
struct NewestSnapshot {
  Micros arrival{-1};
  double gap_ms = 0.0;
  std::int64_t tick = -1;
};

NewestSnapshot NewestArrival(const EventRing& ring, Micros to) {
  NewestSnapshot newest;
  ring.VisitBackward(Micros(0), to, [&](const Event& event) {
    if (event.kind != EventKind::kSnapshotArrived) return true;
    newest.arrival = event.at;
    newest.gap_ms = static_cast<double>(event.value);
    newest.tick = event.a;
    return false;
  });
  return newest;
}

// The packets to the client dropped in [from, to]; `last` gets the newest of them.
std::int64_t DroppedDown(const EventRing& ring, Micros from, Micros to, Event& last) {
  std::int64_t count = 0;
  ring.VisitBackward(from, to, [&](const Event& event) {
    if (event.kind == EventKind::kPacketDown && (event.flags & event_flags::kDropped) != 0) {
      if (count++ == 0) last = event;
    }
    return true;
  });
  return count;
}

// Snapshots that never came: the gap a snapshot arriving now shows (a jump), or none since the newest (a
// freeze, an underrun), with the packets to this client dropped where they would have been. No text: no
// loss shown.
Cause SnapshotLoss(const EventRing& ring, std::size_t index, const client::Client& client, Micros from,
                   Micros to, GlitchKind kind, const NewestSnapshot& newest) {
  const Micros latency = FromMs(client.link().latency_ms);
  Cause loss{CauseKind::kLoss};
  // A jump: the gap the snapshot arriving now shows.
  ring.VisitBackward(to, to, [&](const Event& event) {
    if (kind != GlitchKind::kRemoteJump || event.kind != EventKind::kSnapshotsMissing) return true;
    loss.first_tick = event.a;
    loss.last_tick = event.b;
    loss.count = static_cast<std::int64_t>(event.value);
    SetEvidence(loss, index + 1, event);
    return false;
  });
  Event last_drop;
  if (loss.has_evidence) {
    const std::int64_t dropped = DroppedDown(ring, from, to - latency, last_drop);
    if (dropped > 0) {
      loss.text =
          Format("snapshots %lld-%lld lost on the link (%lld missing; %lld packets to this client dropped)",
                 static_cast<long long>(loss.first_tick), static_cast<long long>(loss.last_tick),
                 static_cast<long long>(loss.count), static_cast<long long>(dropped));
    }
  } else if (newest.tick >= 0 && newest.arrival < to) {
    // None since the newest: dropped after it was sent (about a latency before it arrived), early enough
    // that, delivered, they would be here by now.
    const std::int64_t dropped =
        DroppedDown(ring, newest.arrival - latency + Micros(1), to - latency, last_drop);
    if (dropped > 0) {
      loss.first_tick = newest.tick + 1;
      loss.last_tick =
          std::max<std::int64_t>(loss.first_tick, static_cast<std::int64_t>(client.server_time_ticks()));
      loss.count = dropped;
      loss.text = Format(
          "no snapshot after tick %lld for %.0f ms: %lld packets to this client lost on the link",
          static_cast<long long>(newest.tick), Ms(to - newest.arrival), static_cast<long long>(dropped));
    }
  }
  if (!loss.text.empty()) SetEvidence(loss, index + 1, last_drop);
  return loss;
}

// The subject's inputs at the server in [from, to]: dry ticks (late) and inputs lost, counted.
struct InputTrouble {
  Cause dry{CauseKind::kInputLate};
  Cause lost{CauseKind::kInputLost};
};

InputTrouble InputTroubleOf(const EventRing& server, int player, Micros from, Micros to) {
  InputTrouble trouble;
  server.VisitBackward(from, to, [&](const Event& event) {
    if (event.player != player) return true;
    if (event.kind == EventKind::kDryTicks) {
      trouble.dry.count += event.b;
      SetEvidence(trouble.dry, 0, event);
    } else if (event.kind == EventKind::kInputsLost) {
      trouble.lost.count += event.b;
      SetEvidence(trouble.lost, 0, event);
    }
    return true;
  });
  return trouble;
}

// The newest change of the snapshot rate (up to half a second before the window) and of the view delay
// (by 5 ms or more) in the window.
void RateAndDelayCauses(const EventRing& ring, std::size_t index, Micros from, Micros to, Explanation& out) {
  ring.VisitBackward(from - Micros(500'000), to, [&](const Event& event) {
    if (event.kind != EventKind::kRateChange) return true;
    Cause cause{CauseKind::kRateChange, Format("snapshot rate changed from %d to %d a second at %.2f s",
                                               event.a, event.b, Ms(event.at) / 1000.0)};
    cause.from = event.a;
    cause.to = event.b;
    SetEvidence(cause, index + 1, event);
    out.causes.push_back(std::move(cause));
    return false;
  });
  ring.VisitBackward(from, to, [&](const Event& event) {
    if (event.kind != EventKind::kDelayChange || std::abs(event.b - event.a) < 5'000) return true;
    Cause cause{CauseKind::kDelayChange,
                Format("view delay changed from %.0f to %.0f ms", event.a / 1000.0, event.b / 1000.0)};
    cause.from = event.a / 1000.0;
    cause.to = event.b / 1000.0;
    SetEvidence(cause, index + 1, event);
    out.causes.push_back(std::move(cause));
    return false;
  });
}

// How far the remote cubes were extrapolated in the last 200 ms before they were held.
void ExtrapolationCause(const EventRing& ring, std::size_t index, Micros to, double interval_ms,
                        Explanation& out) {
  double extrapolated = 0.0;
  Cause cause{CauseKind::kExtrapolation};
  ring.VisitBackward(to - Micros(200'000), to, [&](const Event& event) {
    if (event.kind != EventKind::kExtrapolating) return true;
    extrapolated += static_cast<double>(event.value);
    SetEvidence(cause, index + 1, event);
    return true;
  });
  if (!cause.has_evidence) return;
  cause.to = extrapolated;
  cause.text =
      Format("extrapolated %.0f ms past the newest snapshot, then held (capped at one interval, %.0f ms)",
             extrapolated, interval_ms);
  out.causes.push_back(std::move(cause));
}

// The techniques switched off that explain a correction or a slow key press of the own cube.
void OwnTechniqueCauses(const client::Settings& settings, double rtt_ms, Explanation& out) {
  if (!settings.reconciliation && out.kind == GlitchKind::kCorrection) {
    out.causes.push_back(
        {CauseKind::kTechnique,
         "reconciliation off: each snapshot puts the cube back at the server's older state"});
  }
  if (settings.prediction && !settings.reconciliation && out.kind == GlitchKind::kSlowPress) {
    out.causes.push_back(
        {CauseKind::kTechnique, Format("reconciliation off: each snapshot puts the cube back where "
                                       "the server had it, a round trip (%.0f ms) behind the keys",
                                       rtt_ms)});
  }
  if (!settings.prediction && out.kind == GlitchKind::kSlowPress) {
    out.causes.push_back(
        {CauseKind::kTechnique,
         Format("prediction off: the cube waits for the server, round trip %.0f ms", rtt_ms)});
  }
}

// What the server's ring shows of the own cube `id` in [from, to]: a collision (with whom), and its inputs
// late, lost or refused, counted.
struct OwnTrouble {
  Cause collision{CauseKind::kCollision};
  InputTrouble inputs;
  Cause refused{CauseKind::kInputLost};
};

OwnTrouble OwnTroubleOf(const EventRing& server, sim::PlayerId id, Micros from, Micros to) {
  OwnTrouble t;
  server.VisitBackward(from, to, [&](const Event& event) {
    if (event.kind == EventKind::kContact && (event.player == id || event.b == id)) {
      if (!t.collision.has_evidence) t.collision.player = event.player == id ? event.b : event.player;
      SetEvidence(t.collision, 0, event);
    } else if (event.player == id && event.kind == EventKind::kDryTicks) {
      t.inputs.dry.count += event.b;
      SetEvidence(t.inputs.dry, 0, event);
    } else if (event.player == id && event.kind == EventKind::kInputsLost) {
      t.inputs.lost.count += event.b;
      SetEvidence(t.inputs.lost, 0, event);
    } else if (event.player == id && event.kind == EventKind::kInputsRefused) {
      t.refused.count += event.b;
      SetEvidence(t.refused, 0, event);
    }
    return true;
  });
  return t;
}

}  // namespace

void Explainer::RemoteCauses(std::size_t index, const client::Client& client, Window window,
                             Explanation& out) const {
  const client::Metrics m = client.metrics();
  const double interval_ms = m.snapshot_rate > 0 ? 1000.0 / m.snapshot_rate : 50.0;
  const EventRing& ring = journal_.client(index);
  const NewestSnapshot newest = NewestArrival(ring, window.to);
  if (Cause loss = SnapshotLoss(ring, index, client, window.from, window.to, out.kind, newest);
      !loss.text.empty())
    out.causes.push_back(std::move(loss));
  LinkEventCause(index, window, out);
  ClockCause(index, window, out);
  // The cube seen stopped at the server itself: its player's inputs came late (dry ticks) or never.
  if (out.kind != GlitchKind::kUnderrun) {
    InputTrouble trouble = InputTroubleOf(journal_.server(), out.subject, window.from, window.to);
    if (trouble.dry.has_evidence) {
      trouble.dry.player = out.subject;
      trouble.dry.text = NameOf(out.subject) + Format("'s inputs came late to the server: %lld dry ticks",
                                                      static_cast<long long>(trouble.dry.count));
      out.causes.push_back(std::move(trouble.dry));
    }
    if (trouble.lost.has_evidence) {
      trouble.lost.player = out.subject;
      trouble.lost.text = Format("%lld of ", static_cast<long long>(trouble.lost.count)) +
                          NameOf(out.subject) + "'s inputs never reached the server";
      out.causes.push_back(std::move(trouble.lost));
    }
  }
  // A snapshot that came late, though none was lost: the link's jitter (or a delay spread it shows).
  if (!Has(out, CauseKind::kLoss) && newest.arrival >= window.from &&
      newest.gap_ms > kLateFactor * interval_ms) {
    Cause late{CauseKind::kJitter,
               Format("snapshot %lld came %.0f ms after the one before (one every %.0f ms)",
                      static_cast<long long>(newest.tick), newest.gap_ms, interval_ms)};
    late.from = interval_ms;
    late.to = newest.gap_ms;
    Event arrival{newest.arrival, 0, EventKind::kSnapshotArrived};
    SetEvidence(late, index + 1, arrival);
    out.causes.push_back(std::move(late));
  }
  LinkCauses(index, EventKind::kPacketDown, window, out);
  RateAndDelayCauses(ring, index, window.from, window.to, out);
  if (out.kind == GlitchKind::kUnderrun || out.kind == GlitchKind::kRemoteFrozen)
    ExtrapolationCause(ring, index, window.to, interval_ms, out);
  if (!client.settings().interpolation && out.kind != GlitchKind::kUnderrun) {
    out.causes.push_back(
        {CauseKind::kTechnique,
         Format("interpolation off: each snapshot drawn as it arrives (one every %.0f ms)", interval_ms)});
  }
}

void Explainer::OwnCauses(std::size_t index, const client::Client& client, Window window,
                          Explanation& out) const {
  const client::Settings& settings = client.settings();
  OwnTechniqueCauses(settings, client.metrics().rtt_ms, out);
  const std::optional<sim::PlayerId> id = client.player_id();
  if (!id) return;
  OwnTrouble trouble = OwnTroubleOf(journal_.server(), *id, window.from, window.to);
  if (trouble.collision.has_evidence) {
    trouble.collision.text = "collision with " + NameOf(trouble.collision.player) +
                             Format(" at %.2f s", Ms(trouble.collision.evidence_at) / 1000.0);
    out.causes.push_back(std::move(trouble.collision));
  }
  Cause& lost = trouble.inputs.lost;
  Cause& dry = trouble.inputs.dry;
  Cause& refused = trouble.refused;
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
  ClockCause(index, window, out);
}

}  // namespace netcube::timeline
