#include "netcube/client/client.h"

#include <algorithm>

#include "connection.h"
#include "link_stats.h"
#include "netcube/client/server_clock.h"
#include "netcube/client/snapshot_decoder.h"
#include "netcube/protocol/rules.h"
#include "own_cube.h"
#include "rate_chooser.h"
#include "remote_cubes.h"
#include "tagging.h"
#include "view_delay.h"
#include "world_prediction.h"

// The conductor: the message dispatch, handing each part of what arrives to the room that owns it
// (connection, snapshot_decoder, own_cube, remote_cubes, view_delay, link_stats, server_clock, tagging).
namespace netcube::client {

struct Client::Impl {
  ClientConfig config;
  Settings settings;
  Connection connection;
  protocol::Welcome welcome;
  std::optional<sim::PlayerId> own_id;  // empty for a spectator
  protocol::Message received;           // decoded into in place

  bool have_snapshot = false;
  Tick newest_tick = 0;
  Micros last_snapshot_at{0};  // when the newest distinct snapshot arrived (or the Welcome, before one)
  SnapshotDecoder decoder;
  ServerClock clock;
  SnapshotRateChooser snapshot_rate;
  Micros last_view{0}, last_remote_view{0};  // the last RefreshViews, and its last refresh of remote cubes
  std::uint64_t packets_malformed = 0;
  Micros clock_step{0};  // added to every time the caller gives (StepClock)

  OwnCube own;
  RemoteCubes remotes;
  ViewDelay view_delay;
  LinkStats link;
  Tagging tagging;
  WorldPrediction world;

  explicit Impl(ClientConfig c) : config(std::move(c)), settings(Clamped(config.settings)) {}

  void StartSession(Micros now) {
    welcome = {};
    own_id.reset();
    snapshot_rate.Reset(welcome.snapshot_rate, welcome.tick_rate);
    have_snapshot = false;
    newest_tick = 0;
    decoder.Reset();
    last_view = last_remote_view = now;
    packets_malformed = 0;
    own.Reset();
    remotes.Reset();
    view_delay.Reset();
    link.Reset(now);
    tagging.Reset();
    world.Reset();
  }

  ConnectionState state() const noexcept { return connection.state(); }

  // ---- received messages ---------------------------------------------------------------------------

  void OnEvent(const transport::Event& event, Micros now) {
    if (event.type == transport::EventType::kReceived) return OnPacket(event, now);
    connection.OnLinkEvent(now, event, config);
  }

  void OnPacket(const transport::Event& event, Micros now) {
    protocol::Message& message = received;
    if (protocol::Decode(event.data, message) != protocol::DecodeError::kNone ||
        protocol::ChannelOf(protocol::TypeOf(message)) != event.channel) {
      ++packets_malformed;
      return;
    }
    connection.Heard(now);
    const ConnectionState phase = connection.state();
    const bool connected = phase == ConnectionState::kConnected;
    bool expected = true;
    if (const auto* welcome_msg = std::get_if<protocol::Welcome>(&message)) {
      expected = phase == ConnectionState::kConnecting;
      if (expected) OnWelcome(*welcome_msg, now);
    } else if (const auto* challenge = std::get_if<protocol::Challenge>(&message)) {
      expected = phase == ConnectionState::kConnecting;
      if (expected) connection.OnChallenge(now, *challenge);
    } else if (const auto* refused = std::get_if<protocol::ConnectRefused>(&message)) {
      expected = phase == ConnectionState::kConnecting;
      if (expected) connection.OnRefused(*refused);
    } else if (const auto* echo = std::get_if<protocol::TimeEcho>(&message)) {
      expected = connected && echo->reply;
      if (expected) expected = link.OnTimeEcho(*echo, now);
    } else if (protocol::ChannelOf(protocol::TypeOf(message)) == protocol::Channel::kUnreliable) {
      // Snapshots travel unreliably and can overtake the Welcome: early, not malformed.
      if (phase == ConnectionState::kConnecting) {
        link.OnEarlySnapshot();
      } else {
        expected = connected && OnAnySnapshot(message, now);
      }
    } else if (const auto* joined = std::get_if<protocol::PlayerJoined>(&message)) {
      expected = connected;
      if (expected) remotes.OnJoined(*joined);
    } else if (const auto* left = std::get_if<protocol::PlayerLeft>(&message)) {
      expected = connected;
      if (expected) remotes.Forget(left->player_id);
    } else if (const auto* result = std::get_if<protocol::TagResult>(&message)) {
      expected = connected;
      if (expected) tagging.OnResult(*result, own_id, now);
    } else {
      expected = false;  // client-to-server messages
    }
    if (!expected) ++packets_malformed;
  }

  void OnWelcome(const protocol::Welcome& w, Micros now) {
    welcome = w;
    if (!w.spectator) own_id = w.player_id;
    connection.OnWelcome(now, config, w);
    newest_tick = w.server_tick;
    clock.Reset(w.tick_rate, w.snapshot_rate, newest_tick, now);
    snapshot_rate.Reset(w.snapshot_rate, protocol::EffectiveSnapshotRate(w.max_snapshot_rate, w.tick_rate));
    own.StartSampling(now, w.arena);
    last_snapshot_at = now;
  }

  // Any of the three snapshots (false for a client-to-server message). A delta is applied to the baseline it
  // names, if held; false when it does not fit that baseline.
  bool OnAnySnapshot(const protocol::Message& message, Micros now) {
    if (const auto* snapshot = std::get_if<protocol::Snapshot>(&message))
      return OnSnapshot(*snapshot, SnapshotKind::kFull, now);
    const auto unusable = [this](Tick tick) {  // it came, but is of no use: not malformed
      link.OnMissingBaseline(tick, welcome.tick_rate, snapshot_rate.rate());
      return true;
    };
    if (const auto* interest = std::get_if<protocol::InterestSnapshot>(&message)) {
      const Tick tick = UnwrapTick(interest->server_tick, newest_tick);
      const protocol::Snapshot* unpacked = decoder.Unpack(tick, *interest, welcome.arena);
      return unpacked != nullptr ? OnSnapshot(*unpacked, SnapshotKind::kInterest, now) : unusable(tick);
    }
    const auto* delta = std::get_if<protocol::DeltaSnapshot>(&message);
    if (delta == nullptr) return false;
    const Tick tick = UnwrapTick(delta->server_tick, newest_tick);
    if (decoder.Find(tick - delta->age) == nullptr) return unusable(tick);
    const protocol::Snapshot* rebuilt = decoder.Rebuild(tick - delta->age, *delta, welcome.arena);
    return rebuilt != nullptr && OnSnapshot(*rebuilt, SnapshotKind::kDelta, now);
  }

  // False for a snapshot of another arena than the Welcome's, or acking an input never sent. An interest
  // snapshot's cubes are those its states carry; its other members are kept as they were (decoder.kept()).
  bool OnSnapshot(const protocol::Snapshot& snapshot, SnapshotKind kind, Micros now) {
    const Tick tick = UnwrapTick(snapshot.server_tick, newest_tick);
    if (snapshot.arena != welcome.arena || !own.AckPlausible(snapshot.has_ack, snapshot.ack)) return false;
    if (!link.OnSnapshot(tick, welcome.tick_rate, snapshot_rate.rate())) return true;  // a duplicate
    last_snapshot_at = now;
    link.OnEncoding(kind);
    kind == SnapshotKind::kInterest ? decoder.ReceivedStates(tick, snapshot.players.span())
                                    : decoder.Received(tick, snapshot.players.span());
    if (have_snapshot && tick < newest_tick) {
      // Overtaken by a newer one, but its states can still fill the interpolation buffers.
      for (const sim::PlayerCube& player : snapshot.players) {
        if (player.id != own_id) remotes.ReceiveLate(tick, player, view_delay);
      }
      return true;
    }
    have_snapshot = true;
    newest_tick = tick;
    clock.OnSnapshot(tick, now);
    world.OnSnapshot(tick, snapshot.players.span());

    view_delay.OnSnapshot(tick);
    remotes.BeginSnapshot();
    bool reconcile = false;
    for (const sim::PlayerCube& player : snapshot.players) {
      if (player.id == own_id) {
        reconcile = own.OnServerState(player.state, snapshot.has_ack, snapshot.ack, settings);
      } else {
        remotes.Receive(tick, player);
      }
    }
    const std::span<const sim::PlayerId> kept =
        kind == SnapshotKind::kInterest ? decoder.kept() : std::span<const sim::PlayerId>();
    for (const sim::PlayerId id : kept) remotes.Keep(id);
    remotes.EndSnapshot();
    if (reconcile) {
      // predict_others replays the pending inputs in the snapshot's world, the other cubes moving too.
      std::optional<sim::CubeState> replayed;
      if (settings.predict_others) {
        world.Predict(PredictionFrame(now));
        replayed = world.own_state();
      }
      own.Reconcile(settings, replayed ? &*replayed : nullptr);
    }
    if (snapshot.has_ack) own.OnInputLead(snapshot.ack, snapshot.input_lead, snapshot_rate.rate(), settings);
    return true;
  }

  // ---- the step ------------------------------------------------------------------------------------

  // The server encodes deltas against a snapshot it knows this client holds. Inputs tell it; while none
  // are pending (none will be sent), a SnapshotAck does, once per snapshot.
  void AcknowledgeSnapshots(Micros now) {
    if (state() != ConnectionState::kConnected || !have_snapshot || !own.pending().empty()) return;
    const std::optional<std::uint64_t> seen = decoder.ToTell();
    if (seen && connection.Send(now, protocol::SnapshotAck{static_cast<std::uint16_t>(*seen)}))
      decoder.Told(*seen);
  }

  // Asks the server for another snapshot rate when the link calls for one (rate_chooser.h). More snapshots
  // buy an interpolating client a shorter buffer; one that draws each snapshot as it comes has no buffer
  // to shorten, and gets the server's rate (its remote cubes jump from snapshot to snapshot).
  void ChooseSnapshotRate(Micros now) {
    if (state() != ConnectionState::kConnected) return;
    const bool adaptive = settings.adaptive_snapshot_rate && settings.interpolation;
    const std::optional<int> rate = snapshot_rate.Decide(clock, adaptive, now);
    if (!rate || !connection.Send(now, protocol::SnapshotRate{static_cast<std::uint8_t>(*rate)})) return;
    snapshot_rate.Asked(*rate);
    const Tick from_tick =
        SnapshotRateChooser::SwitchTick(newest_tick, link.metrics(), connection.handshake_rtt_ms(), clock);
    clock.SetSnapshotRate(*rate, from_tick);
    link.CountLossFrom(from_tick);
  }

  // predict_others: the world from the newest snapshot to `now` (world_prediction.h).
  WorldPrediction::Frame PredictionFrame(Micros now) const {
    const LinkMetrics& m = link.metrics();
    const double rtt_ms = m.rtt_samples > 0 ? m.rtt_ms : connection.handshake_rtt_ms();
    return WorldPrediction::FrameAt(now, clock, rtt_ms, welcome, own.pending(), settings);
  }
  bool PredictingOthers() const noexcept { return settings.predict_others && world.others_predicted(); }

  void RefreshViews(Micros now) {
    const Micros elapsed = std::max(Micros{0}, now - last_view);
    last_view = now;
    const bool predicting =
        state() == ConnectionState::kConnected && have_snapshot && settings.predict_others;
    if (predicting) {
      const WorldPrediction::Frame frame = PredictionFrame(now);
      world.Predict(frame);
      world.AdvanceSmoothing(elapsed, frame);
      const std::optional<sim::CubeState> predicted = world.own_state();
      if (predicted && settings.reconciliation) own.AdoptPrediction(*predicted);
    }
    own.RefreshView(elapsed, settings);
    // The remote cubes' views, the dearer part, as often as the config lets (ClientConfig::view_interval).
    if (config.view_interval > Micros{0} && now - last_remote_view < config.view_interval) return;
    const Micros remote_elapsed = std::max(Micros{0}, now - last_remote_view);
    last_remote_view = now;
    if (state() != ConnectionState::kConnected) return;
    clock.Observe(now);
    view_delay.SetSnapshotLoss(link.metrics().snapshot_unusable, link.loss_measured());
    const double elapsed_ms = static_cast<double>(remote_elapsed.count()) / 1000.0;
    view_delay.Advance(now, elapsed_ms, clock, settings, remotes.dry());
    remotes.RefreshViews(elapsed_ms, view_delay, clock, settings, welcome.arena);
    if (predicting && world.others_predicted()) {
      remotes.DrawPredicted([this](sim::PlayerId id) { return world.RemoteAt(id); });
    }
  }

  void Update(Micros now, std::uint8_t held) {
    connection.ServiceClosing(now);
    if (connection.open()) {
      if (state() == ConnectionState::kConnected) {
        own.Sample(now, held, config.input_rate, settings.redundancy,
                   [this, now](const protocol::InputMessage& message) {
                     tagging.OnInputSampled(message.inputs.back().seq, now);
                     protocol::InputMessage with_seen = message;
                     const std::uint64_t seen =
                         decoder.ToTell().value_or(static_cast<std::uint64_t>(newest_tick));
                     with_seen.seen_tick = static_cast<std::uint16_t>(seen);
                     if (!connection.Send(now, with_seen)) return false;
                     decoder.Told(seen);
                     return true;
                   });
        if (const std::optional<protocol::TimeEcho> echo = link.EchoDue(now)) connection.Send(now, *echo);
        connection.SendViewpoint(now);
      }
      const std::span<const transport::Event> events = connection.Service(now);
      link.SetCounters(connection.host()->counters());
      for (const transport::Event& event : events) {
        OnEvent(event, now);
        if (!connection.open()) break;  // the session ended
      }
      if (connection.open()) AcknowledgeSnapshots(now);
      if (connection.open()) ChooseSnapshotRate(now);
      connection.CheckSilence(now, config.timeout_ms);
    }
    if (connection.open()) link.SetCounters(connection.host()->counters());
    link.UpdateRates(now);
    RefreshViews(now);
    tagging.Expire(now);
  }

  bool Tag(Micros now, sim::Aim aim) {
    if (state() != ConnectionState::kConnected || !own.view().present) return false;
    // What this client draws: predicting the others, the remote cubes at the present (judged there); with
    // interpolation, at the render time; without, at the newest snapshot.
    const ViewDelay::Claim claim =
        view_delay.ClaimFor(PredictingOthers(), world.present_tick(), settings.interpolation, newest_tick);
    const Tagging::Sight sight{claim.tick, newest_tick, claim.delay_ms, own.view().predicted_state.last_input,
                               own.view().predicted};
    const std::optional<protocol::Tag> tag = tagging.Fire(now, aim, sight);
    if (tag) own.Face(aim);
    return tag && connection.Send(now, *tag);
  }
};

Client::Client(ClientConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}
Client::~Client() = default;

bool Client::Connect(const std::string& host, std::uint16_t port, Micros run_now, std::string* error) {
  Impl& c = *impl_;
  const Micros now = run_now + c.clock_step;
  if (!c.connection.Open(now, c.config, host, port, error)) return false;
  c.StartSession(now);
  return true;
}

void Client::Disconnect(Micros run_now) {
  impl_->connection.Close(run_now + impl_->clock_step, impl_->config.link);
}

void Client::Update(Micros now, std::uint8_t held_buttons) {
  impl_->Update(now + impl_->clock_step, held_buttons);
}

bool Client::Tag(Micros now, sim::Aim aim) { return impl_->Tag(now + impl_->clock_step, aim); }

void Client::StepClock(Micros step) { impl_->clock_step += std::max(step, Micros{0}); }
Micros Client::clock_step() const noexcept { return impl_->clock_step; }
const std::vector<ShotView>& Client::shots() const noexcept { return impl_->tagging.shots(); }
const std::vector<TagFlash>& Client::tag_flashes() const noexcept { return impl_->tagging.flashes(); }

void Client::SetSettings(const Settings& settings) {
  impl_->settings = Clamped(settings);
  impl_->own.OnSettings(impl_->settings);
}
const Settings& Client::settings() const noexcept { return impl_->settings; }

void Client::SetLink(const transport::LinkSettings& link) {
  impl_->config.link = link;
  if (impl_->connection.open()) impl_->connection.host()->SetLink(link);
}
const transport::LinkSettings& Client::link() const noexcept { return impl_->config.link; }

ConnectionState Client::state() const noexcept { return impl_->state(); }
const std::string& Client::status() const noexcept { return impl_->connection.status(); }
std::optional<sim::PlayerId> Client::player_id() const noexcept {
  if (impl_->state() != ConnectionState::kConnected) return std::nullopt;
  return impl_->own_id;
}
bool Client::spectator() const noexcept {
  return impl_->state() == ConnectionState::kConnected && impl_->welcome.spectator;
}
void Client::Watch(const protocol::Viewpoint& viewpoint) { impl_->connection.Watch(viewpoint); }
const protocol::Welcome& Client::welcome() const noexcept { return impl_->welcome; }
const LocalView& Client::local() const noexcept { return impl_->own.view(); }
const std::vector<RemoteView>& Client::remotes() const noexcept { return impl_->remotes.views(); }
const PendingInputs& Client::pending() const noexcept { return impl_->own.pending(); }
std::optional<PredictionCheck> Client::last_prediction_check() const noexcept {
  return impl_->own.last_check();
}
std::optional<Tick> Client::newest_snapshot_tick() const noexcept {
  if (!impl_->have_snapshot) return std::nullopt;
  return impl_->newest_tick;
}
double Client::server_time_ticks() const noexcept { return impl_->clock.ServerTicks(impl_->last_view); }
double Client::render_tick() const noexcept {
  return impl_->PredictingOthers() ? impl_->world.present_tick() : impl_->view_delay.render_tick();
}
std::optional<Micros> Client::snapshot_silence() const noexcept {
  const Impl& c = *impl_;
  if (c.state() != ConnectionState::kConnected) return std::nullopt;
  return c.snapshot_rate.SilenceAt(c.last_snapshot_at, c.last_view);
}

Metrics Client::metrics() const {
  Metrics m;
  static_cast<LinkMetrics&>(m) = impl_->link.metrics();
  m.snapshot_rate = impl_->snapshot_rate.rate();
  m.snapshot_rate_asked = impl_->snapshot_rate.asked();
  m.in_memory = transport::KindOf(impl_->config.network.get()) == transport::NetworkKind::kMemory;
  static_cast<OwnCubeMetrics&>(m) = impl_->own.metrics();
  static_cast<RemoteCubeMetrics&>(m) = impl_->remotes.metrics();
  static_cast<WorldPredictionMetrics&>(m) = impl_->world.metrics();
  m.others_predicted = impl_->PredictingOthers();
  static_cast<TagMetrics&>(m) = impl_->tagging.metrics();
  m.packets_malformed = impl_->packets_malformed;
  return m;
}
transport::TransportCounters Client::transport_counters() const { return impl_->link.counters(); }

bool Client::Settled() const noexcept {
  return impl_->state() == ConnectionState::kConnected && (impl_->welcome.spectator || impl_->own.Settled());
}

}  // namespace netcube::client
