// The causes of what a player sees go wrong with the cubes: a remote cube frozen, jumping or starved of
// snapshots (RemoteCauses), and its own cube corrected or slow to answer a key (OwnCauses).
#include <algorithm>
#include <cmath>

#include "explain_helpers.h"
#include "netcube/timeline/explainer.h"

namespace netcube::timeline {

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
  ClockCause(index, window, out);
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
      dry.text = NameOf(out.subject) + Format("'s inputs came late to the server: %lld dry ticks",
                                              static_cast<long long>(dry.count));
      out.causes.push_back(std::move(dry));
    }
    if (lost.has_evidence) {
      lost.player = out.subject;
      lost.text = Format("%lld of ", static_cast<long long>(lost.count)) + NameOf(out.subject) +
                  "'s inputs never reached the server";
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
    collision.text = "collision with " + NameOf(collision.player) +
                     Format(" at %.2f s", Ms(collision.evidence_at) / 1000.0);
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
  ClockCause(index, window, out);
}

}  // namespace netcube::timeline
