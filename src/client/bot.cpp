#include "netcube/client/bot.h"

#include <algorithm>
#include <chrono>

namespace netcube::client {
namespace {

Micros Seconds(double s) { return Micros(static_cast<std::int64_t>(s * 1e6)); }

}  // namespace

struct BotRun::Impl {
  enum class Phase : std::uint8_t { kConnecting, kPlaying, kSettling, kDone };

  BotConfig config;
  std::vector<std::unique_ptr<Client>> clients;
  std::vector<std::string> names;
  Phase phase = Phase::kConnecting;
  Micros deadline{0};  // of the current phase
  Micros play_start{0};
  Micros play_length{0};
  std::optional<std::string> failure;
  std::vector<Micros> next_tag;            // per player
  std::vector<std::uint8_t> held;          // per player, at the last Update
  std::vector<std::size_t> next_hand_tag;  // per player, into its BotPlayer::hand_tags

  std::uint64_t SeedOf(std::size_t i) const { return config.same_network ? config.seed : config.seed + i; }
  const InputScript& ScriptOf(std::size_t i) const {
    return config.players.empty() ? config.script : config.players[i].script;
  }

  // Player i's client: its name, seed, link logs and techniques; the run's for the rest.
  ClientConfig ClientConfigOf(std::size_t i) const {
    ClientConfig cc;
    cc.name = config.name_prefix + std::to_string(i);
    cc.link = config.link;
    cc.source_address = config.source_address;
    cc.network = config.network;
    cc.seed = SeedOf(i);
    cc.input_rate = config.input_rate;
    cc.view_interval = config.view_interval;
    cc.snapshot_budget = config.snapshot_budget;
    cc.spectate = config.spectate;
    if (config.follow) cc.follow = static_cast<sim::PlayerId>((*config.follow + i) % protocol::kMaxPlayers);
    if (i < config.incoming_link_logs.size()) cc.incoming_link_log = config.incoming_link_logs[i];
    if (i < config.outgoing_link_logs.size()) cc.outgoing_link_log = config.outgoing_link_logs[i];
    cc.settings = config.players.empty() ? config.settings : config.players[i].settings;
    return cc;
  }

  void Fail(std::string why) {
    failure = std::move(why);
    phase = Phase::kDone;
  }

  // A player refused or lost ends the run with the reason.
  bool CheckConnections() {
    for (const auto& client : clients) {
      const ConnectionState s = client->state();
      if (s == ConnectionState::kRefused) {
        Fail("connection refused: " + client->status());
        return false;
      }
      if (s == ConnectionState::kUnreachable) {
        Fail("could not connect to " + config.host + ":" + std::to_string(config.port) + ": " +
             client->status());
        return false;
      }
      if (s == ConnectionState::kLost || s == ConnectionState::kDisconnected) {
        Fail("connection lost: " + client->status());
        return false;
      }
    }
    return true;
  }

  void Advance(Micros now) {
    switch (phase) {
      case Phase::kConnecting: {
        if (!CheckConnections()) return;
        const bool all = std::all_of(clients.begin(), clients.end(),
                                     [](const auto& c) { return c->state() == ConnectionState::kConnected; });
        if (all) {
          phase = Phase::kPlaying;
          play_start = now;
        } else if (now >= deadline) {
          Fail("no answer from " + config.host + ":" + std::to_string(config.port) + " within " +
               std::to_string(config.connect_timeout_s) + " s");
        }
        return;
      }
      case Phase::kPlaying:
        if (!CheckConnections()) return;
        if (now - play_start >= play_length) {
          phase = Phase::kSettling;
          deadline = now + Seconds(config.settle_timeout_s);
        }
        return;
      case Phase::kSettling:
        if (!CheckConnections()) return;
        if (AllSettled() || now >= deadline) phase = Phase::kDone;
        return;
      case Phase::kDone:
        return;
    }
  }

  bool AllSettled() const {
    return std::all_of(clients.begin(), clients.end(), [](const auto& c) { return c->Settled(); });
  }

  // The tag script: fires at the nearest remote cube as drawn once its interval has passed.
  void TagFor(std::size_t i, Micros now) {
    if (phase != Phase::kPlaying || config.tag_interval_ms <= 0 || now < next_tag[i]) return;
    const std::optional<sim::Aim> aim = AimAtNearest(*clients[i]);
    if (!aim || !clients[i]->Tag(now, *aim)) return;
    next_tag[i] = now + Micros(std::int64_t{std::max(config.tag_interval_ms, sim::kTagCooldownMs)} * 1000);
  }

  // A replay's tags by hand, each once its moment has come.
  void HandTagsFor(std::size_t i, Micros now) {
    if (phase != Phase::kPlaying || config.players.empty()) return;
    const std::vector<BotHandTag>& tags = config.players[i].hand_tags;
    for (; next_hand_tag[i] < tags.size() && now - play_start >= tags[next_hand_tag[i]].at;
         ++next_hand_tag[i]) {
      clients[i]->Tag(now, HandAim(*clients[i], tags[next_hand_tag[i]].target));
    }
  }

  std::uint8_t ButtonsFor(std::size_t i, Micros now) const {
    if (phase != Phase::kPlaying) return 0;
    return ScriptOf(i).ButtonsAt(now - play_start, SeedOf(i));
  }
};

std::optional<sim::Aim> AimAtNearest(const Client& client) {
  const LocalView& own = client.local();
  if (!own.present) return std::nullopt;
  // A cube counts as in reach when the ray can reach its near face.
  const double reach = static_cast<double>(sim::kTagRange + sim::kCubeHalf) / sim::kSubUnitsPerUnit;
  const RemoteView* nearest = nullptr;
  double best = reach;
  for (const RemoteView& remote : client.remotes()) {
    const double distance = Length(remote.drawn - own.predicted);
    if (distance <= best) {
      best = distance;
      nearest = &remote;
    }
  }
  if (nearest == nullptr) return std::nullopt;
  const Vec2 toward = nearest->drawn - own.predicted;
  return sim::AimToward(toward.x, toward.y);
}

sim::Aim HandAim(const Client& client, std::optional<Vec2> target) {
  const LocalView& local = client.local();
  if (target) {
    const Vec2 toward = *target - local.predicted;
    return sim::AimToward(toward.x, toward.y);
  }
  if (local.predicted_state.vx != 0 || local.predicted_state.vy != 0) {
    return sim::AimToward(local.predicted_state.vx, local.predicted_state.vy);
  }
  if (local.facing) return *local.facing;
  const RemoteView* nearest = nullptr;
  for (const RemoteView& remote : client.remotes()) {
    if (remote.sample == SampleKind::kEmpty) continue;
    if (nearest == nullptr ||
        Length(remote.drawn - local.predicted) < Length(nearest->drawn - local.predicted)) {
      nearest = &remote;
    }
  }
  if (nearest == nullptr) return 0;
  const Vec2 toward = nearest->drawn - local.predicted;
  return sim::AimToward(toward.x, toward.y);
}

BotRun::BotRun(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
BotRun::~BotRun() = default;

std::unique_ptr<BotRun> BotRun::Start(const BotConfig& config, Micros now, std::string* error) {
  const bool count_ok = config.count >= 1 && static_cast<std::size_t>(config.count) <= protocol::kMaxPlayers;
  if (config.players.empty() && !count_ok) {
    *error = "player count must be within [1, " + std::to_string(protocol::kMaxPlayers) + "]";
    return nullptr;
  }
  // Every name as it will be, none cut to fit (the last index is the longest).
  const int count = config.players.empty() ? config.count : static_cast<int>(config.players.size());
  if (const std::string problem = protocol::NameProblem(config.name_prefix + std::to_string(count - 1));
      !problem.empty()) {
    *error =
        "name prefix '" + config.name_prefix + "' with " + std::to_string(count) + " players: " + problem;
    return nullptr;
  }
  auto impl = std::make_unique<Impl>();
  impl->config = config;
  // The play lasts the longest script (a timeline's length, or the duration for endless ones), at most
  // the duration when one is given.
  std::optional<Micros> script_length = Micros{0};
  for (int i = 0; i < count && script_length; ++i) {
    const std::optional<Micros> length = impl->ScriptOf(static_cast<std::size_t>(i)).length();
    script_length = length ? std::optional(std::max(*script_length, *length)) : std::nullopt;
  }
  if (config.duration_s > 0.0) {
    impl->play_length = Seconds(config.duration_s);
    if (script_length) impl->play_length = std::min(impl->play_length, *script_length);
  } else {
    impl->play_length = script_length ? *script_length : Seconds(kDefaultBotDurationS);
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
    const ClientConfig cc = impl->ClientConfigOf(i);
    impl->names.push_back(cc.name);
    auto client = std::make_unique<Client>(cc);
    if (!client->Connect(config.host, config.port, now, error)) return nullptr;
    impl->clients.push_back(std::move(client));
  }
  impl->next_tag.assign(impl->clients.size(), Micros{0});
  impl->held.assign(impl->clients.size(), 0);
  impl->next_hand_tag.assign(impl->clients.size(), 0);
  impl->deadline = now + Seconds(config.connect_timeout_s);
  return std::unique_ptr<BotRun>(new BotRun(std::move(impl)));
}

bool BotRun::Update(Micros now) {
  Impl& r = *impl_;
  // The phase first (from what the last update heard), so the buttons follow it: the play's first update
  // already holds the script's first keys, and its last none.
  r.Advance(now);
  for (std::size_t i = 0; i < r.clients.size(); ++i) {
    r.held[i] = r.ButtonsFor(i, now);
    r.clients[i]->Update(now, r.held[i]);
    r.TagFor(i, now);
    r.HandTagsFor(i, now);
  }
  return r.phase != Impl::Phase::kDone;
}

const std::optional<std::string>& BotRun::failure() const noexcept { return impl_->failure; }
bool BotRun::all_settled() const noexcept { return impl_->AllSettled(); }
const std::vector<std::unique_ptr<Client>>& BotRun::clients() const noexcept { return impl_->clients; }

std::optional<Micros> BotRun::play_start() const noexcept {
  if (impl_->phase == Impl::Phase::kConnecting) return std::nullopt;
  return impl_->play_start;
}

std::uint8_t BotRun::held(std::size_t index) const noexcept { return impl_->held[index]; }

void BotRun::Disconnect(Micros now) {
  for (const auto& client : impl_->clients) client->Disconnect(now);
}

BotReport BotRun::Report() const {
  BotReport report;
  for (std::size_t i = 0; i < impl_->clients.size(); ++i) {
    const Client* client = impl_->clients[i].get();
    BotPlayerReport p;
    p.name = impl_->names[i];
    p.connected = client->state() == ConnectionState::kConnected;
    if (const auto id = client->player_id()) p.player_id = *id;
    p.status = client->status();
    p.settled = client->Settled();
    p.metrics = client->metrics();
    // The settled prediction against the settled server state: an earlier prediction check can be stale
    // (a later push by another cube moved both alike).
    const LocalView& local = client->local();
    p.final_predicted = local.predicted;
    p.final_server = local.server;
    p.final_match = p.settled && sim::SamePhysics(local.predicted_state, local.server_state);
    report.players.push_back(std::move(p));
  }
  return report;
}

}  // namespace netcube::client
