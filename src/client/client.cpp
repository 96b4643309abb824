#include "netcube/client/client.h"

#include <algorithm>
#include <cmath>

#include "netcube/client/server_clock.h"
#include "netcube/client/smoothing.h"

namespace netcube::client {
namespace {

constexpr Micros kTimeEchoInterval{100'000};
// After a stall (a debugger, a slow frame) the client does not flood the server with the missed samples.
constexpr std::int64_t kMaxCatchUpSamples = 8;
constexpr int kMaxInputRate = 8;
// A remote cube is extrapolated for at most this long when its buffer runs dry, then held.
constexpr double kMaxExtrapolationMs = 250.0;
// The interpolation delay in use follows its target at most this fast (ms of delay per ms of time), so
// the render time never runs backward when the adaptive delay grows.
constexpr double kDelaySlewRate = 0.1;
constexpr Micros kRateWindow{1'000'000};
// Snapshot loss is measured over windows of about this much server time, and smoothed across windows
// (20 snapshots make a coarse sample).
constexpr double kLossWindowSeconds = 1.0;
constexpr double kLossSmoothing = 0.25;
// A TimeEcho reply claiming a longer round trip than this answers nothing we sent.
constexpr std::uint32_t kMaxPlausibleRttUs = 60'000'000;
constexpr Micros kGoodbyeGrace{1'000'000};

struct RemoteCube {
  sim::PlayerId id = 0;
  InterpolationBuffer buffer;
  sim::CubeState latest;
  bool underrun = false;  // inside an underrun episode (counted once)
  bool seen = false;      // present in the snapshot being processed
};

}  // namespace

const char* ToString(ConnectionState state) noexcept {
  switch (state) {
    case ConnectionState::kDisconnected: return "disconnected";
    case ConnectionState::kConnecting: return "connecting";
    case ConnectionState::kConnected: return "connected";
    case ConnectionState::kRefused: return "refused";
    case ConnectionState::kLost: return "lost";
  }
  return "?";
}

struct Client::Impl {
  ClientConfig config;
  Settings settings;
  ConnectionState state = ConnectionState::kDisconnected;
  std::string status;
  protocol::Welcome welcome;

  std::unique_ptr<transport::Host> host;
  transport::PeerId peer = 0;
  std::unique_ptr<transport::Host> closing_host;  // finishing a polite disconnect
  Micros closing_deadline{0};
  transport::TransportCounters counters;  // of the current host, kept after it is gone
  Micros last_heard{0};
  std::vector<transport::Event> events;  // reused by every Service

  // Own cube: prediction and reconciliation.
  bool local_present = false;
  sim::CubeState predicted;
  sim::CubeState server_state;
  PendingInputs pending;
  sim::Seq next_seq = 0;
  bool any_input_sent = false;
  Micros sample_origin{0};
  std::int64_t samples_taken = 0;
  CorrectionSmoother smoother;
  Vec2 last_correction;
  std::optional<PredictionCheck> last_check;
  double correction_sum = 0.0;

  // Snapshots, server clock, remote cubes.
  bool have_snapshot = false;
  Tick newest_tick = 0;
  ServerClock clock;
  std::vector<RemoteCube> cubes;  // increasing id
  std::vector<std::pair<sim::PlayerId, std::string>> names;  // from PlayerJoined, increasing id
  double delay_ms = 0.0;
  bool delay_started = false;
  double render = 0.0;
  Micros last_view{0};
  Micros next_echo{0};
  Tick loss_window_start = 0;
  bool loss_window_open = false;
  std::uint64_t loss_window_received = 0;
  std::uint64_t loss_windows_done = 0;

  // Metrics and their one-second rate windows.
  Metrics metrics;
  Micros rate_window_start{0};
  transport::TransportCounters rate_counters;
  std::uint64_t rate_snapshots = 0;

  // Views.
  LocalView local;
  std::vector<RemoteView> remote_views;

  explicit Impl(ClientConfig c) : config(std::move(c)), settings(Clamped(config.settings)) {}

  void StartSession(Micros now) {
    status.clear();
    welcome = {};
    counters = {};
    last_heard = now;
    local_present = false;
    predicted = {};
    server_state = {};
    pending.Clear();
    next_seq = 0;
    any_input_sent = false;
    samples_taken = 0;
    smoother.Reset();
    last_correction = {};
    last_check.reset();
    correction_sum = 0.0;
    have_snapshot = false;
    newest_tick = 0;
    cubes.clear();
    names.clear();
    delay_started = false;
    render = 0.0;
    last_view = now;
    next_echo = now;
    loss_window_open = false;
    loss_window_received = 0;
    loss_windows_done = 0;
    metrics = {};
    rate_window_start = now;
    rate_counters = {};
    rate_snapshots = 0;
    local = {};
    remote_views.clear();
  }

  void EndSession(ConnectionState end, std::string why) {
    state = end;
    status = std::move(why);
    host.reset();
  }

  bool Send(Micros now, const protocol::Message& message) {
    return host->SendMessage(now, peer, message);
  }

  // ---- inputs --------------------------------------------------------------------------------------

  void SampleInputs(Micros now, std::uint8_t held) {
    const std::int64_t per_second = std::int64_t{sim::kTicksPerSecond} * std::clamp(config.input_rate, 1, kMaxInputRate);
    const std::int64_t elapsed_us = (now - sample_origin).count();
    if (elapsed_us < 0) return;
    const std::int64_t due = elapsed_us * per_second / 1'000'000 + 1;  // samples due by now
    if (due - samples_taken > kMaxCatchUpSamples) samples_taken = due - kMaxCatchUpSamples;
    for (; samples_taken < due; ++samples_taken) TakeSample(now, static_cast<std::uint8_t>(held & sim::kButtonMask));
  }

  void TakeSample(Micros now, std::uint8_t buttons) {
    // Inputs start once a snapshot has shown the client its cube: predicting from nothing is pointless.
    if (!local_present) return;
    // No key on a cube at rest changes nothing, on either side: skipping it lets the queue drain.
    const bool no_op = buttons == 0 && predicted.vx == 0 && predicted.vy == 0;
    if (!no_op) {
      const sim::Input input{next_seq, buttons};
      next_seq = static_cast<sim::Seq>(next_seq + 1);
      predicted = sim::Move(predicted, input);
      pending.Push({input, predicted});
      any_input_sent = true;
      ++metrics.inputs_sent;
    }
    // Every sample resends what is unacknowledged (the newest `redundancy` inputs), so a lost packet
    // loses nothing while later ones get through.
    if (pending.empty()) return;
    protocol::InputMessage message;
    const std::size_t count = std::min(pending.size(), static_cast<std::size_t>(settings.redundancy));
    for (std::size_t i = pending.size() - count; i < pending.size(); ++i) message.inputs.push_back(pending[i].input);
    if (Send(now, message)) ++metrics.input_messages_sent;
  }

  // ---- received messages ---------------------------------------------------------------------------

  void OnEvent(const transport::Event& event, Micros now) {
    switch (event.type) {
      case transport::EventType::kConnected:
        last_heard = now;
        Send(now, protocol::ConnectRequest{protocol::kProtocolMagic, protocol::kProtocolVersion, config.name});
        return;
      case transport::EventType::kDisconnected:
        if (state == ConnectionState::kConnecting) {
          EndSession(ConnectionState::kLost, event.timed_out ? "no answer from the server"
                                                             : "the server closed the connection");
        } else if (state == ConnectionState::kConnected) {
          EndSession(ConnectionState::kLost, event.timed_out ? "connection timed out"
                                                             : "the server closed the connection");
        }
        return;
      case transport::EventType::kReceived:
        OnPacket(event, now);
        return;
    }
  }

  void OnPacket(const transport::Event& event, Micros now) {
    protocol::Message message;
    if (protocol::Decode(event.data, message) != protocol::DecodeError::kNone ||
        protocol::ChannelOf(protocol::TypeOf(message)) != event.channel) {
      ++metrics.packets_malformed;
      return;
    }
    last_heard = now;
    const bool connected = state == ConnectionState::kConnected;
    bool expected = true;
    if (const auto* welcome_msg = std::get_if<protocol::Welcome>(&message)) {
      expected = state == ConnectionState::kConnecting;
      if (expected) OnWelcome(*welcome_msg, now);
    } else if (const auto* refused = std::get_if<protocol::ConnectRefused>(&message)) {
      expected = state == ConnectionState::kConnecting;
      if (expected) EndSession(ConnectionState::kRefused, protocol::ToString(refused->reason));
    } else if (const auto* snapshot = std::get_if<protocol::Snapshot>(&message)) {
      expected = connected;
      if (expected) expected = OnSnapshot(*snapshot, now);
    } else if (const auto* joined = std::get_if<protocol::PlayerJoined>(&message)) {
      expected = connected;
      if (expected) SetName(joined->player_id, joined->name);
    } else if (const auto* left = std::get_if<protocol::PlayerLeft>(&message)) {
      expected = connected;
      if (expected) OnPlayerLeft(left->player_id);
    } else if (const auto* echo = std::get_if<protocol::TimeEcho>(&message)) {
      expected = connected && echo->reply;
      if (expected) expected = OnTimeEcho(*echo, now);
    } else {
      expected = false;  // client-to-server messages
    }
    if (!expected) ++metrics.packets_malformed;
  }

  void OnWelcome(const protocol::Welcome& w, Micros now) {
    welcome = w;
    state = ConnectionState::kConnected;
    newest_tick = w.server_tick;
    clock.Reset(w.tick_rate, w.snapshot_rate, newest_tick, now);
    sample_origin = now;
    samples_taken = 0;
  }

  bool OnTimeEcho(const protocol::TimeEcho& echo, Micros now) {
    const std::uint32_t rtt_us = static_cast<std::uint32_t>(now.count()) - echo.client_time_us;
    if (rtt_us > kMaxPlausibleRttUs) return false;
    const double rtt = rtt_us / 1000.0;
    Metrics& m = metrics;
    if (m.rtt_samples == 0) {
      m.rtt_ms = rtt;
      m.rtt_jitter_ms = rtt / 2.0;  // RFC 6298's first-sample rule
    } else {
      m.rtt_jitter_ms += (std::abs(rtt - m.rtt_ms) - m.rtt_jitter_ms) / 4.0;
      m.rtt_ms += (rtt - m.rtt_ms) / 8.0;
    }
    ++m.rtt_samples;
    m.rtt_ms_mean += (rtt - m.rtt_ms_mean) / static_cast<double>(m.rtt_samples);
    return true;
  }

  void SetName(sim::PlayerId id, const std::string& name) {
    auto it = std::lower_bound(names.begin(), names.end(), id, [](const auto& e, sim::PlayerId v) { return e.first < v; });
    if (it != names.end() && it->first == id) {
      it->second = name;
    } else {
      names.insert(it, {id, name});
    }
  }

  const std::string* NameOf(sim::PlayerId id) const {
    auto it = std::lower_bound(names.begin(), names.end(), id, [](const auto& e, sim::PlayerId v) { return e.first < v; });
    return it != names.end() && it->first == id ? &it->second : nullptr;
  }

  void OnPlayerLeft(sim::PlayerId id) {
    std::erase_if(names, [id](const auto& e) { return e.first == id; });
    std::erase_if(cubes, [id](const RemoteCube& c) { return c.id == id; });
  }

  // Returns false for a snapshot that contradicts what this client sent (an ack of an unsent input).
  bool OnSnapshot(const protocol::Snapshot& snapshot, Micros now) {
    const Tick tick = UnwrapTick(snapshot.server_tick, newest_tick);
    if (have_snapshot && tick <= newest_tick) {
      ++metrics.snapshots_stale;  // a duplicate, or overtaken by a newer one
      return true;
    }
    if (snapshot.has_ack && (!any_input_sent || sim::SeqGreater(snapshot.ack, static_cast<sim::Seq>(next_seq - 1)))) {
      return false;
    }
    have_snapshot = true;
    newest_tick = tick;
    clock.OnSnapshot(tick, now);
    ++metrics.snapshots_received;
    CountForLoss(tick);

    // A snapshot holds the whole world: cubes missing from it are gone (even if their PlayerLeft, on the
    // other channel, has not arrived yet).
    for (RemoteCube& cube : cubes) cube.seen = false;
    for (const sim::PlayerCube& player : snapshot.players) {
      if (player.id == welcome.player_id) {
        OnOwnState(player.state, snapshot.has_ack, snapshot.ack);
        continue;
      }
      auto it = std::lower_bound(cubes.begin(), cubes.end(), player.id,
                                 [](const RemoteCube& c, sim::PlayerId id) { return c.id < id; });
      if (it == cubes.end() || it->id != player.id) {
        it = cubes.insert(it, RemoteCube{});
        it->id = player.id;
      }
      it->buffer.Insert(tick, player.state);
      it->latest = player.state;
      it->seen = true;
    }
    std::erase_if(cubes, [](const RemoteCube& c) { return !c.seen; });
    return true;
  }

  void CountForLoss(Tick tick) {
    if (!loss_window_open) {
      loss_window_open = true;
      loss_window_start = tick;
      loss_window_received = 0;
      return;
    }
    ++loss_window_received;
    const double span_ticks = static_cast<double>(tick - loss_window_start);
    if (span_ticks < kLossWindowSeconds * welcome.tick_rate) return;
    const double sent = span_ticks * std::min(welcome.snapshot_rate, welcome.tick_rate) / welcome.tick_rate;
    const double window_loss = std::clamp(1.0 - static_cast<double>(loss_window_received) / sent, 0.0, 1.0);
    metrics.snapshot_loss =
        loss_windows_done == 0 ? window_loss : metrics.snapshot_loss + (window_loss - metrics.snapshot_loss) * kLossSmoothing;
    ++loss_windows_done;
    loss_window_start = tick;
    loss_window_received = 0;
  }

  void OnOwnState(const sim::CubeState& server, bool has_ack, sim::Seq ack) {
    server_state = server;
    server_state.last_input = has_ack ? ack : sim::Seq{0};
    if (!local_present) {
      // The first sight of the own cube: no input has been sampled yet, so this is the prediction.
      local_present = true;
      predicted = server_state;
      return;
    }
    if (has_ack) {
      if (const PendingInput* entry = pending.Find(ack)) {
        last_check = PredictionCheck{ack, entry->predicted, server_state, sim::SamePhysics(entry->predicted, server_state)};
      }
      metrics.inputs_acked += pending.Acknowledge(ack);
      metrics.has_ack = true;
      metrics.last_acked_input = ack;
    }

    const sim::CubeState before = predicted;
    predicted = server_state;
    if (settings.reconciliation) {
      // Replay what the server has not applied yet; each replayed prediction replaces the old one.
      for (std::size_t i = 0; i < pending.size(); ++i) {
        predicted = sim::Move(predicted, pending[i].input);
        pending[i].predicted = predicted;
      }
    } else {
      // Naive prediction (Gambetta's demo with reconciliation off): the server's older state overwrites
      // the prediction and the client forgets the inputs it has not seen applied, so a lost one stays lost.
      pending.Clear();
    }
    ++metrics.reconciliations;
    if (sim::SamePhysics(before, predicted)) return;
    last_correction = PositionOf(predicted) - PositionOf(before);
    const double distance = Length(last_correction);
    ++metrics.corrections;
    metrics.max_correction = std::max(metrics.max_correction, distance);
    correction_sum += distance;
    metrics.mean_correction = correction_sum / static_cast<double>(metrics.corrections);
    smoother.OnCorrection(last_correction, settings.smoothing, settings.smoothing_ms);
  }

  // ---- views and metrics ---------------------------------------------------------------------------

  void RefreshViews(Micros now) {
    const Micros elapsed = std::max(Micros{0}, now - last_view);
    last_view = now;
    const double elapsed_ms = static_cast<double>(elapsed.count()) / 1000.0;

    if (settings.smoothing) {
      smoother.Advance(elapsed, settings.smoothing_ms);
    } else {
      smoother.Reset();
    }
    local.present = local_present;
    local.predicted_state = predicted;
    local.server_state = server_state;
    local.predicted = PositionOf(predicted);
    local.server = PositionOf(server_state);
    local.smoothing_offset = smoother.offset();
    local.drawn = settings.prediction ? local.predicted + local.smoothing_offset : local.server;
    local.last_correction = last_correction;

    if (state != ConnectionState::kConnected) return;

    const double target = settings.adaptive_delay ? clock.AdaptiveDelayMs(metrics.snapshot_loss) : settings.interp_delay_ms;
    if (!delay_started) {
      delay_ms = target;
      delay_started = true;
    } else {
      const double step = kDelaySlewRate * elapsed_ms;
      delay_ms += std::clamp(target - delay_ms, -step, step);
    }
    metrics.interp_delay_ms = delay_ms;
    const double period_ms = clock.tick_period_ms();
    render = std::max(render, clock.ServerTicks(now) - delay_ms / period_ms);

    const double max_extrapolation_ticks = settings.extrapolation ? kMaxExtrapolationMs / period_ms : 0.0;
    remote_views.clear();
    double depth = 0.0;
    for (RemoteCube& cube : cubes) {
      RemoteView view;
      view.id = cube.id;
      if (const std::string* name = NameOf(cube.id)) view.name = *name;
      view.latest_state = cube.latest;
      view.latest = PositionOf(cube.latest);
      if (settings.interpolation) {
        const Sample sample = cube.buffer.SampleAt(render, max_extrapolation_ticks);
        view.drawn = sample.position;
        view.sample = sample.kind;
        const bool dry = sample.ticks_past_newest > 0.0;
        if (dry && !cube.underrun) ++metrics.interp_underruns;
        cube.underrun = dry;
        if (sample.kind == SampleKind::kExtrapolated) metrics.extrapolation_ms += elapsed_ms;
        cube.buffer.DropBefore(render);
        depth += static_cast<double>(cube.buffer.CountAfter(render));
      } else {
        view.drawn = view.latest;
        view.sample = SampleKind::kLatest;
        cube.underrun = false;
      }
      remote_views.push_back(std::move(view));
    }
    metrics.buffer_depth = cubes.empty() ? 0.0 : depth / static_cast<double>(cubes.size());
  }

  void UpdateRates(Micros now) {
    if (host) counters = host->counters();
    Metrics& m = metrics;
    m.bytes_up = counters.payload_bytes_sent;
    m.bytes_down = counters.payload_bytes_received;
    m.wire_bytes_up = counters.wire_bytes_sent;
    m.wire_bytes_down = counters.wire_bytes_received;
    m.pending_inputs = pending.size();
    const Micros window = now - rate_window_start;
    if (window < kRateWindow) return;
    const double seconds = static_cast<double>(window.count()) / 1e6;
    const auto rate = [seconds](std::uint64_t now_total, std::uint64_t then_total) {
      return static_cast<double>(now_total - then_total) / seconds;
    };
    m.bytes_up_per_s = rate(counters.payload_bytes_sent, rate_counters.payload_bytes_sent);
    m.bytes_down_per_s = rate(counters.payload_bytes_received, rate_counters.payload_bytes_received);
    m.wire_bytes_up_per_s = rate(counters.wire_bytes_sent, rate_counters.wire_bytes_sent);
    m.wire_bytes_down_per_s = rate(counters.wire_bytes_received, rate_counters.wire_bytes_received);
    m.snapshots_per_second = rate(m.snapshots_received, rate_snapshots);
    rate_counters = counters;
    rate_snapshots = m.snapshots_received;
    rate_window_start = now;
  }

  void ServiceClosingHost(Micros now) {
    if (!closing_host) return;
    events.clear();
    closing_host->Service(now, events);
    const bool gone = std::any_of(events.begin(), events.end(), [](const transport::Event& e) {
      return e.type == transport::EventType::kDisconnected;
    });
    if (gone || now >= closing_deadline) closing_host.reset();
  }

  void Update(Micros now, std::uint8_t held) {
    ServiceClosingHost(now);
    if (host) {
      if (state == ConnectionState::kConnected) {
        SampleInputs(now, held);
        if (now >= next_echo) {
          Send(now, protocol::TimeEcho{false, static_cast<std::uint32_t>(now.count()), 0});
          next_echo = now + kTimeEchoInterval;
        }
      }
      events.clear();
      host->Service(now, events);
      counters = host->counters();
      for (const transport::Event& event : events) {
        OnEvent(event, now);
        if (!host) break;  // the session ended
      }
      if (host && now - last_heard > std::chrono::milliseconds(config.timeout_ms)) {
        EndSession(ConnectionState::kLost, state == ConnectionState::kConnecting
                                               ? "no answer from the server"
                                               : "the server went silent");
      }
    }
    UpdateRates(now);
    RefreshViews(now);
  }
};

Client::Client(ClientConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}
Client::~Client() = default;

bool Client::Connect(const std::string& host, std::uint16_t port, Micros now, std::string* error) {
  Impl& c = *impl_;
  if (c.state == ConnectionState::kConnecting || c.state == ConnectionState::kConnected) {
    *error = "already connecting or connected";
    return false;
  }
  if (port == 0) {
    *error = "port 0 is not a server's port";
    return false;
  }
  transport::HostConfig host_config;
  host_config.max_peers = 1;
  host_config.link = c.config.link;
  host_config.seed = c.config.seed;
  host_config.timeout_ms = c.config.timeout_ms;
  std::unique_ptr<transport::Host> new_host = transport::Host::Outgoing(host_config, error);
  if (!new_host) return false;
  const std::optional<transport::PeerId> peer = new_host->Connect(host, port, error);
  if (!peer) return false;
  c.StartSession(now);
  c.host = std::move(new_host);
  c.peer = *peer;
  c.state = ConnectionState::kConnecting;
  return true;
}

void Client::Disconnect(Micros now) {
  Impl& c = *impl_;
  if (!c.host) return;
  c.host->Disconnect(now, c.peer, 0);
  const double link_ms = c.config.link.latency_ms + c.config.link.jitter_ms;
  c.closing_deadline = now + kGoodbyeGrace + Micros(static_cast<std::int64_t>(2000.0 * link_ms));
  c.closing_host = std::move(c.host);
  c.state = ConnectionState::kDisconnected;
  c.status.clear();
}

void Client::Update(Micros now, std::uint8_t held_buttons) { impl_->Update(now, held_buttons); }

void Client::SetSettings(const Settings& settings) {
  impl_->settings = Clamped(settings);
  if (!impl_->settings.smoothing) impl_->smoother.Reset();
}
const Settings& Client::settings() const noexcept { return impl_->settings; }

void Client::SetLink(const transport::LinkSettings& link) {
  impl_->config.link = link;
  if (impl_->host) impl_->host->SetLink(link);
}
const transport::LinkSettings& Client::link() const noexcept { return impl_->config.link; }

ConnectionState Client::state() const noexcept { return impl_->state; }
const std::string& Client::status() const noexcept { return impl_->status; }
std::optional<sim::PlayerId> Client::player_id() const noexcept {
  if (impl_->state != ConnectionState::kConnected) return std::nullopt;
  return impl_->welcome.player_id;
}
const protocol::Welcome& Client::welcome() const noexcept { return impl_->welcome; }
const LocalView& Client::local() const noexcept { return impl_->local; }
const std::vector<RemoteView>& Client::remotes() const noexcept { return impl_->remote_views; }
const PendingInputs& Client::pending() const noexcept { return impl_->pending; }
std::optional<PredictionCheck> Client::last_prediction_check() const noexcept { return impl_->last_check; }
double Client::server_time_ticks() const noexcept { return impl_->clock.ServerTicks(impl_->last_view); }
double Client::render_tick() const noexcept { return impl_->render; }
Metrics Client::metrics() const { return impl_->metrics; }
transport::TransportCounters Client::transport_counters() const { return impl_->counters; }

bool Client::Settled() const noexcept {
  const Impl& c = *impl_;
  return c.state == ConnectionState::kConnected && c.local_present && c.pending.empty() && c.predicted.vx == 0 &&
         c.predicted.vy == 0 && c.server_state.vx == 0 && c.server_state.vy == 0;
}

}  // namespace netcube::client
