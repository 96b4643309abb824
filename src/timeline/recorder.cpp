#include "netcube/timeline/recorder.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "netcube/sim/ray.h"

namespace netcube::timeline {
namespace {

// A delay change smaller than this is the adaptive delay's drift, not a change worth an event.
constexpr double kDelayChangeMs = 1.0;

std::int32_t Clamp32(std::int64_t value) noexcept {
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(value, INT32_MIN, INT32_MAX));
}

std::int32_t Count(std::uint64_t now, std::uint64_t before) noexcept {
  return now > before ? Clamp32(static_cast<std::int64_t>(now - before)) : 0;
}

// Two cubes touching or overlapping (collisions leave pushed cubes exactly side by side).
bool Touching(const sim::CubeState& a, const sim::CubeState& b) noexcept {
  return std::abs(a.x - b.x) <= sim::kCubeSize && std::abs(a.y - b.y) <= sim::kCubeSize;
}

}  // namespace

Recorder::Recorder(Journal& journal) : journal_(journal), clients_(journal.clients()) {
  contacts_.reserve(protocol::kMaxPlayers);
  next_contacts_.reserve(protocol::kMaxPlayers);
  ray_targets_.reserve(protocol::kMaxPlayers);
}

void Recorder::Add(std::size_t source, const Event& event) noexcept {
  (source == 0 ? journal_.server() : journal_.client(source - 1)).Add(event);
}

transport::LinkLog Recorder::DownLog(std::size_t index) {
  return [this, index](const transport::LinkDecision& d) { RecordPacket(index, EventKind::kPacketDown, d); };
}

transport::LinkLog Recorder::UpLog(std::size_t index) {
  return [this, index](const transport::LinkDecision& d) { RecordPacket(index, EventKind::kPacketUp, d); };
}

void Recorder::RecordPacket(std::size_t index, EventKind kind, const transport::LinkDecision& decision) {
  Event event;
  event.at = decision.at - clients_[index].clock_step;
  event.frame = frame_;
  event.kind = kind;
  event.flags = static_cast<std::uint8_t>((decision.dropped ? event_flags::kDropped : 0) |
                                          (decision.duplicated ? event_flags::kDuplicated : 0) |
                                          (decision.reordered ? event_flags::kReordered : 0));
  event.a = Clamp32(decision.delay.count());
  event.b = decision.channel;
  journal_.client(index).Add(event);
}

void Recorder::RecordLinkChange(std::int32_t frame, Micros now, std::size_t script_index,
                                std::uint16_t player) {
  Event event{now, frame, EventKind::kLinkChange};
  event.player = player;
  event.a = static_cast<std::int32_t>(script_index);
  Add(player, event);
}

void Recorder::RecordClockStep(std::int32_t frame, Micros now, std::size_t script_index, std::size_t index,
                               Micros step) {
  if (index >= clients_.size()) return;
  clients_[index].clock_step += step;
  Event event{now, frame, EventKind::kClockStep};
  event.player = static_cast<std::uint16_t>(index + 1);
  event.a = Clamp32(step.count());
  event.b = static_cast<std::int32_t>(script_index);
  journal_.client(index).Add(event);
}

void Recorder::Record(std::int32_t frame, Micros now, const server::Server* server,
                      std::span<const client::Client* const> clients) {
  frame_ = frame;
  if (server != nullptr) RecordServer(frame, now, *server);
  for (std::size_t i = 0; i < clients.size() && i < clients_.size(); ++i) {
    if (clients[i] != nullptr) RecordClient(i, frame, now, *clients[i]);
  }
}

void Recorder::RecordClient(std::size_t index, std::int32_t frame, Micros now, const client::Client& client) {
  ClientState& s = clients_[index];
  EventRing& ring = journal_.client(index);
  const client::Metrics m = client.metrics();
  const auto add = [&](EventKind kind, std::int32_t a, std::int32_t b, float value) {
    Event event{now, frame, kind};
    event.a = a;
    event.b = b;
    event.value = value;
    ring.Add(event);
  };

  RecordArrivals(index, frame, now, client, m);
  if (const std::int32_t late = Count(m.snapshots_late, s.snapshots_late); late > 0) {
    add(EventKind::kSnapshotLate, 0, late, 0.0F);
  }
  const std::int32_t full = Count(m.snapshots_full, s.snapshots_full);
  const std::int32_t delta = Count(m.snapshots_delta, s.snapshots_delta);
  if (full + delta > 0) add(EventKind::kSnapshotEncoding, delta, full, 0.0F);
  if (m.corrections > s.corrections) {
    const client::Vec2 jump = client.local().last_correction;
    add(EventKind::kCorrection, Clamp32(static_cast<std::int64_t>(m.corrections)), 0,
        static_cast<float>(std::hypot(jump.x, jump.y)));
  }
  if (m.interp_underruns > s.underruns) {
    add(EventKind::kUnderrun, Clamp32(static_cast<std::int64_t>(m.interp_underruns)), 0, 0.0F);
  }
  if (m.extrapolation_ms > s.extrapolation_ms) {
    add(EventKind::kExtrapolating, 0, 0, static_cast<float>(m.extrapolation_ms - s.extrapolation_ms));
  }
  if (m.snapshot_rate != s.snapshot_rate && m.snapshot_rate > 0) {
    if (s.snapshot_rate > 0) add(EventKind::kRateChange, s.snapshot_rate, m.snapshot_rate, 0.0F);
    s.snapshot_rate = m.snapshot_rate;
  }
  if (std::abs(m.interp_delay_ms - s.interp_delay_ms) >= kDelayChangeMs) {
    if (s.interp_delay_ms > 0.0) {
      add(EventKind::kDelayChange, Clamp32(std::lround(s.interp_delay_ms * 1000.0)),
          Clamp32(std::lround(m.interp_delay_ms * 1000.0)), 0.0F);
    }
    s.interp_delay_ms = m.interp_delay_ms;
  }
  if (const std::int32_t sent = Count(m.inputs_sent, s.inputs_sent); sent > 0) {
    add(EventKind::kInputsSent, 0, sent, 0.0F);
  }
  RecordShots(index, frame, now, client);
  s.corrections = m.corrections;
  s.underruns = m.interp_underruns;
  s.extrapolation_ms = m.extrapolation_ms;
  s.snapshots_received = m.snapshots_received;
  s.snapshots_late = m.snapshots_late;
  s.snapshots_full = m.snapshots_full;
  s.snapshots_delta = m.snapshots_delta;
  s.inputs_sent = m.inputs_sent;
}

void Recorder::RecordArrivals(std::size_t index, std::int32_t frame, Micros now, const client::Client& client,
                              const client::Metrics& m) {
  ClientState& s = clients_[index];
  EventRing& ring = journal_.client(index);
  const std::int32_t arrived = Count(m.snapshots_received, s.snapshots_received);
  const std::optional<client::Tick> newest = client.newest_snapshot_tick();
  if (arrived == 0 || !newest) return;
  const double since_ms = s.newest_tick ? static_cast<double>((now - s.last_arrival).count()) / 1000.0 : 0.0;
  // Missing: the snapshots the server should have sent between the previous newest and this one, less
  // those that came with it this frame.
  if (s.newest_tick && *newest > *s.newest_tick && m.snapshot_rate > 0) {
    const double interval = static_cast<double>(client.welcome().tick_rate) / m.snapshot_rate;
    const auto expected =
        static_cast<std::int64_t>(std::lround(static_cast<double>(*newest - *s.newest_tick) / interval));
    const std::int64_t missing = expected - arrived;
    if (missing > 0) {
      Event event{now, frame, EventKind::kSnapshotsMissing};
      event.a = Clamp32(*s.newest_tick + 1);
      event.b = Clamp32(*newest - 1);
      event.value = static_cast<float>(missing);
      ring.Add(event);
    }
  }
  Event event{now, frame, EventKind::kSnapshotArrived};
  event.a = Clamp32(*newest);
  event.b = arrived;
  event.value = static_cast<float>(since_ms);
  event.flags = static_cast<std::uint8_t>(std::clamp(std::lround(m.buffer_depth), 0L, 255L));
  ring.Add(event);
  if (!s.newest_tick || *newest > *s.newest_tick) s.newest_tick = newest;
  s.last_arrival = now;
}

void Recorder::RecordShots(std::size_t index, std::int32_t frame, Micros now, const client::Client& client) {
  ClientState& s = clients_[index];
  EventRing& ring = journal_.client(index);
  for (const client::ShotView& shot : client.shots()) {
    if (shot.fired_at > s.last_shot_fired) {
      // What the shooter saw its ray cross: the remote cubes where it draws them now, as it fires.
      ray_targets_.clear();
      for (const client::RemoteView& remote : client.remotes()) {
        if (remote.sample == client::SampleKind::kEmpty || ray_targets_.size() == ray_targets_.capacity())
          continue;
        ray_targets_.push_back(
            {remote.id, remote.drawn.x * sim::kSubUnitsPerUnit, remote.drawn.y * sim::kSubUnitsPerUnit});
      }
      const sim::Ray ray{shot.origin.x * sim::kSubUnitsPerUnit, shot.origin.y * sim::kSubUnitsPerUnit,
                         shot.aim};
      const std::optional<sim::RayHit> seen = sim::FirstHit(ray, ray_targets_);
      Event event{now, frame, EventKind::kTagFired};
      event.a = shot.shot;
      event.b = seen ? seen->id : 0;
      ring.Add(event);
      s.last_shot_fired = shot.fired_at;
    }
    if (!shot.judged) continue;
    const auto end = std::begin(s.judged_shots) + std::min(s.judged_next, std::size(s.judged_shots));
    const auto key = static_cast<std::uint8_t>(shot.shot);
    if (std::find(std::begin(s.judged_shots), end, key) != end) continue;
    s.judged_shots[s.judged_next % std::size(s.judged_shots)] = key;
    ++s.judged_next;
    Event event{now, frame, EventKind::kTagJudged};
    event.a = shot.shot;
    event.b = static_cast<std::int32_t>(shot.outcome);
    event.player = shot.target;
    ring.Add(event);
  }
}

void Recorder::RecordServer(std::int32_t frame, Micros now, const server::Server& server) {
  RecordInputs(frame, now, server);
  EventRing& ring = journal_.server();
  const server::ServerStats stats = server.stats();
  const std::int32_t deltas = Count(stats.delta_snapshots_sent, last_stats_.delta_snapshots_sent);
  const std::int32_t all = Count(stats.snapshots_sent, last_stats_.snapshots_sent);
  if (all > 0) {
    Event event{now, frame, EventKind::kSnapshotsEncoded};
    event.a = deltas;
    event.b = all - deltas;
    event.value = static_cast<float>(stats.snapshot_bytes_sent - last_stats_.snapshot_bytes_sent);
    ring.Add(event);
  }
  last_stats_ = stats;

  RecordContacts(frame, now, server);
}

void Recorder::RecordInputs(std::int32_t frame, Micros now, const server::Server& server) {
  EventRing& ring = journal_.server();
  server.clients(server_clients_);
  for (const server::ClientInfo& info : server_clients_) {
    auto state = std::find_if(server_state_.begin(), server_state_.end(),
                              [&](const ServerClientState& s) { return s.id == info.id; });
    if (state == server_state_.end()) {
      server_state_.push_back({info.id, info.inputs.dry_ticks, info.inputs.lost,
                               info.inputs.dropped_rate_limit, info.input_target});
      continue;
    }
    const auto add = [&](EventKind kind, std::int32_t a, std::int32_t b, float value) {
      Event event{now, frame, kind};
      event.player = info.id;
      event.a = a;
      event.b = b;
      event.value = value;
      ring.Add(event);
    };
    if (const std::int32_t dry = Count(info.inputs.dry_ticks, state->dry_ticks); dry > 0) {
      add(EventKind::kDryTicks, 0, dry, 0.0F);
    }
    if (const std::int32_t lost = Count(info.inputs.lost, state->lost); lost > 0) {
      add(EventKind::kInputsLost, 0, lost, 0.0F);
    }
    if (const std::int32_t refused = Count(info.inputs.dropped_rate_limit, state->refused); refused > 0) {
      add(EventKind::kInputsRefused, 0, refused, 0.0F);
    }
    if (info.input_target != state->input_target) {
      add(EventKind::kInputTarget, state->input_target, info.input_target,
          static_cast<float>(info.queued_inputs));
    }
    state->dry_ticks = info.inputs.dry_ticks;
    state->lost = info.inputs.lost;
    state->refused = info.inputs.dropped_rate_limit;
    state->input_target = info.input_target;
  }
}

void Recorder::RecordContacts(std::int32_t frame, Micros now, const server::Server& server) {
  EventRing& ring = journal_.server();
  // Contacts start: with collisions on, two cubes side by side were pushed apart (or are being).
  next_contacts_.clear();
  const std::span<const sim::PlayerCube> world = server.world();
  if (server.config().collisions) {
    for (std::size_t i = 0; i < world.size(); ++i) {
      for (std::size_t j = i + 1; j < world.size() && next_contacts_.size() < next_contacts_.capacity();
           ++j) {
        if (Touching(world[i].state, world[j].state)) next_contacts_.push_back({world[i].id, world[j].id});
      }
    }
  }
  // Every frame of a contact is recorded (a push lasts as long as one cube drives into the other); a = 1 on
  // its first.
  for (const ContactPair& pair : next_contacts_) {
    Event event{now, frame, EventKind::kContact};
    event.player = pair.a;
    event.a = std::find(contacts_.begin(), contacts_.end(), pair) == contacts_.end() ? 1 : 0;
    event.b = pair.b;
    ring.Add(event);
  }
  contacts_.swap(next_contacts_);
}

}  // namespace netcube::timeline
