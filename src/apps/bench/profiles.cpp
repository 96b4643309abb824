#include "profiles.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

#include "clock.h"
#include "netcube/client/bot.h"
#include "netcube/client/client.h"
#include "netcube/client/frame_sample.h"
#include "netcube/server/server.h"
#include "run_journal.h"
#include "settings_json.h"

namespace netcube::bench {
namespace {

constexpr Micros kStep{1000};
constexpr int kFramesPerSecond = 60;
constexpr int kSettledFramesBeforePress = 30;  // idle this long before a key press
constexpr int kMinHoldFrames = 6;
constexpr int kGiveUpFrames = 10 * kFramesPerSecond;
constexpr Micros kExtraTime{120'000'000};  // beyond the play time: settling and the key presses
constexpr auto kRealTimeGuard = std::chrono::minutes(10);
constexpr Micros kGoodbyeTime{300'000};

Micros FrameTime(std::int64_t frame) { return Micros(frame * 1'000'000 / kFramesPerSecond); }

// The probe: idles until settled, presses a key toward the arena's centre at a known frame and counts the
// frames until its drawn position moves; first with prediction, then without.
class KeyPressProbe {
 public:
  explicit KeyPressProbe(client::ClientConfig config) : client_(std::move(config)) {}

  client::Client& client() { return client_; }
  bool done() const { return phase_ == Phase::kDone; }
  const KeyPressResult& result() const { return result_; }

  // One drawn frame.
  void Frame(Micros now, int trials) {
    const std::uint8_t held = phase_ == Phase::kPressed ? key_ : 0;
    client_.Update(now, held);
    const client::Vec2 drawn = client_.local().drawn;
    switch (phase_) {
      case Phase::kIdle:
        settled_frames_ = client_.Settled() ? settled_frames_ + 1 : 0;
        if (settled_frames_ >= kSettledFramesBeforePress) {
          if (Results().size() == static_cast<std::size_t>(trials)) {
            if (!client_.settings().prediction) {
              phase_ = Phase::kDone;
              return;
            }
            client::Settings without = client_.settings();
            without.prediction = false;
            client_.SetSettings(without);
            settled_frames_ = 0;
            return;
          }
          // The next frame reads the key.
          const bool left_half = client_.local().predicted_state.x < client_.welcome().arena.width / 2;
          key_ = left_half ? sim::kRight : sim::kLeft;
          before_ = drawn;
          frames_pressed_ = 0;
          visible_after_ = -1;
          phase_ = Phase::kPressed;
        }
        return;
      case Phase::kPressed:
        if (visible_after_ < 0 && !(drawn == before_)) visible_after_ = frames_pressed_;
        ++frames_pressed_;
        if ((visible_after_ >= 0 && frames_pressed_ >= kMinHoldFrames) || frames_pressed_ >= kGiveUpFrames) {
          Results().push_back(visible_after_);
          settled_frames_ = 0;
          phase_ = Phase::kIdle;
        }
        return;
      case Phase::kDone:
        return;
    }
  }

 private:
  enum class Phase : std::uint8_t { kIdle, kPressed, kDone };
  std::vector<int>& Results() {
    return client_.settings().prediction ? result_.frames_with_prediction : result_.frames_without_prediction;
  }

  client::Client client_;
  Phase phase_ = Phase::kIdle;
  int settled_frames_ = 0;
  std::uint8_t key_ = 0;
  client::Vec2 before_;
  int frames_pressed_ = 0;
  int visible_after_ = -1;
  KeyPressResult result_;
};

// The measured view delay of one group (or the probe): now minus the server time of what is drawn.
struct ViewDelay {
  double sum_ms = 0.0;
  double max_ms = 0.0;
  std::uint64_t samples = 0;

  void Sample(const client::Client& c, Micros since_server_start, double tick_period_us) {
    if (c.state() != client::ConnectionState::kConnected || c.remotes().empty()) return;
    const double delay_us =
        static_cast<double>(since_server_start.count()) - c.render_tick() * tick_period_us;
    sum_ms += delay_us / 1000.0;
    max_ms = std::max(max_ms, delay_us / 1000.0);
    ++samples;
  }
  double mean_ms() const { return samples > 0 ? sum_ms / static_cast<double>(samples) : 0.0; }
};

// The server's world at each of its recent ticks: the true path of every cube.
class ServerPath {
 public:
  void Record(const server::Server& server) {
    const auto tick = static_cast<client::Tick>(server.tick());
    Frame& frame = frames_[static_cast<std::size_t>(tick) % kFrames];
    frame.tick = tick;
    frame.world.assign(server.world().begin(), server.world().end());
  }

  // Where cube `id` was at fractional server tick `at` (between two recorded ticks), if known.
  std::optional<client::Vec2> At(sim::PlayerId id, double at) const {
    const auto before = static_cast<client::Tick>(std::floor(at));
    const std::optional<client::Vec2> a = AtTick(id, before);
    const std::optional<client::Vec2> b = AtTick(id, before + 1);
    if (!a || !b) return std::nullopt;
    return *a + (*b - *a) * (at - static_cast<double>(before));
  }

 private:
  static constexpr std::size_t kFrames = 1024;  // 17 s at 60 Hz: beyond any view delay
  struct Frame {
    client::Tick tick = -1;
    std::vector<sim::PlayerCube> world;
  };
  std::optional<client::Vec2> AtTick(sim::PlayerId id, client::Tick tick) const {
    if (tick < 0) return std::nullopt;
    const Frame& frame = frames_[static_cast<std::size_t>(tick) % kFrames];
    if (frame.tick != tick) return std::nullopt;
    for (const sim::PlayerCube& cube : frame.world) {
      if (cube.id == id) return client::PositionOf(cube.state);
    }
    return std::nullopt;
  }
  std::array<Frame, kFrames> frames_{};
};

double Mean(const std::vector<double>& values) {
  double sum = 0.0;
  for (double v : values) sum += v;
  return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
}
double P99(std::vector<double>& values) {
  if (values.empty()) return 0.0;
  const auto at = values.begin() + static_cast<std::ptrdiff_t>(0.99 * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), at, values.end());
  return *at;
}

// Each frame's remote error and step of every remote cube a group's players draw: against the truth at the
// moment drawn (the render tick) and at the present (the server's tick now), and the steps longer than a
// cube can move in a frame (client::kJumpFactor, as the comparison counts them).
struct RemoteError {
  std::vector<double> errors;
  std::vector<double> errors_now;
  double max_step = 0.0;
  std::uint64_t jumps = 0;
  double cube_seconds = 0.0;
  std::map<std::pair<const client::Client*, sim::PlayerId>, client::Vec2> last_drawn;

  void Sample(const client::Client& c, const ServerPath& path, double now_tick) {
    if (c.state() != client::ConnectionState::kConnected) return;
    constexpr double kFrameS = 1.0 / kFramesPerSecond;
    for (const client::RemoteView& view : c.remotes()) {
      // A moment drawn past the server's newest tick (predicting the others) is judged against that tick.
      if (const std::optional<client::Vec2> truth = path.At(view.id, std::min(c.render_tick(), now_tick))) {
        errors.push_back(client::Length(view.drawn - *truth));
      }
      if (const std::optional<client::Vec2> truth = path.At(view.id, now_tick)) {
        errors_now.push_back(client::Length(view.drawn - *truth));
      }
      const auto [it, first] = last_drawn.try_emplace({&c, view.id}, view.drawn);
      if (!first) {
        const double step = client::Length(view.drawn - it->second);
        max_step = std::max(max_step, step);
        if (step > client::kJumpFactor * client::kTopSpeedUnitsPerS * kFrameS) ++jumps;
        cube_seconds += kFrameS;
      }
      it->second = view.drawn;
    }
  }
};

// A group's downstream traffic over its play: its players' totals when the play started and when it ended
// (the settling after it, idle and long, would water the play's figure down).
struct PlayDown {
  struct Totals {
    Micros at{0};
    std::uint64_t payload = 0;
    std::uint64_t wire = 0;
  };
  std::optional<Totals> start;
  std::optional<Totals> end;

  // After the players' update at `now`.
  void Sample(const client::BotRun& run, Micros now, Micros play_length) {
    const std::optional<Micros> play_start = run.play_start();
    if (!play_start || end) return;
    if (!start) {
      start = TotalsOf(run, now);
    } else if (now - *play_start >= play_length) {
      end = TotalsOf(run, now);
    }
  }

 private:
  static Totals TotalsOf(const client::BotRun& run, Micros now) {
    Totals t{now, 0, 0};
    for (const auto& c : run.clients()) {
      t.payload += c->metrics().bytes_down;
      t.wire += c->metrics().wire_bytes_down;
    }
    return t;
  }
};

struct Group {
  std::string name;
  std::string prefix;
  client::Settings settings;
  std::unique_ptr<client::BotRun> run;
  bool done = false;
  ViewDelay view_delay;
  RemoteError remote_error;
  Micros update_cpu{0};  // the players' Updates, this thread's CPU time
  std::uint64_t frames = 0;
  std::optional<std::uint64_t> underruns_early;  // the players' underruns in the first kEarlyPhase
  PlayDown play_down;
};

// Underruns while the adaptive delay is still finding its level are expected; after it, none should be.
constexpr Micros kEarlyPhase{5'000'000};

std::uint64_t Underruns(const Group& group) {
  std::uint64_t sum = 0;
  for (const auto& c : group.run->clients()) sum += c->metrics().interp_underruns;
  return sum;
}

// What the players saw of the remote cubes: view delay, error against the server's path, jumps.
void SetViewFigures(Group& group, GroupResult& g) {
  g.view_delay_mean_ms = group.view_delay.mean_ms();
  g.view_delay_max_ms = group.view_delay.max_ms;
  g.remote_error_mean = Mean(group.remote_error.errors);
  g.remote_error_p99 = P99(group.remote_error.errors);
  g.remote_error_now_mean = Mean(group.remote_error.errors_now);
  g.remote_error_now_p99 = P99(group.remote_error.errors_now);
  g.remote_max_step = group.remote_error.max_step;
  if (group.remote_error.cube_seconds > 0.0) {
    g.remote_jumps_per_s = static_cast<double>(group.remote_error.jumps) / group.remote_error.cube_seconds;
  }
}

GroupResult Summarize(Group& group, const server::Server& server) {
  GroupResult g;
  g.name = group.name;
  g.settings = group.settings;
  const client::BotReport report = group.run->Report();
  g.players = static_cast<int>(report.players.size());
  g.all_settled = true;
  g.all_final_match = true;
  for (const client::BotPlayerReport& p : report.players) {
    const client::Metrics& m = p.metrics;
    g.inputs_sent += m.inputs_sent;
    g.corrections += m.corrections;
    g.max_correction = std::max(g.max_correction, m.max_correction);
    g.interp_underruns += m.interp_underruns;
    g.extrapolation_ms += m.extrapolation_ms;
    g.interp_delay_ms += m.interp_delay_ms / g.players;
    g.snapshot_loss += m.snapshot_loss / g.players;
    g.rtt_ms += m.rtt_ms_mean / g.players;
    g.snapshot_rate += static_cast<double>(m.snapshot_rate) / g.players;
    g.all_settled = g.all_settled && p.settled;
    g.all_final_match = g.all_final_match && p.final_match;
  }
  for (const server::ClientInfo& info : server.clients()) {
    if (info.name.rfind(group.prefix, 0) != 0) continue;
    g.inputs_lost += info.inputs.lost;
    g.inputs_dropped_rate_limit += info.inputs.dropped_rate_limit;
    g.streaming_ticks += info.inputs.streaming_ticks;
    g.dry_ticks += info.inputs.dry_ticks;
  }
  g.underruns_after_early = g.interp_underruns - group.underruns_early.value_or(g.interp_underruns);
  // The share of the packets the incoming conditioner dropped (reliable ones, never dropped, are a few).
  double loss_sum = 0.0;
  for (const auto& c : group.run->clients()) {
    const transport::LinkConditionerCounters& in = c->transport_counters().incoming;
    if (in.pushed > 0) loss_sum += static_cast<double>(in.dropped) / static_cast<double>(in.pushed);
  }
  g.link_loss =
      group.run->clients().empty() ? 0.0 : loss_sum / static_cast<double>(group.run->clients().size());
  SetViewFigures(group, g);
  if (group.frames > 0 && g.players > 0) {
    const double player_frames = static_cast<double>(group.frames) * g.players;
    g.update_cpu_us_per_frame = static_cast<double>(group.update_cpu.count()) / player_frames;
    std::uint64_t cube_ticks = 0;
    for (const client::BotPlayerReport& p : report.players) cube_ticks += p.metrics.cube_ticks_simulated;
    g.cube_ticks_per_frame = static_cast<double>(cube_ticks) / player_frames;
  }
  if (const PlayDown& down = group.play_down; down.start && down.end) {
    const double player_seconds =
        static_cast<double>((down.end->at - down.start->at).count()) / 1e6 * g.players;
    g.down_bytes_per_s = static_cast<double>(down.end->payload - down.start->payload) / player_seconds;
    g.wire_down_bytes_per_s = static_cast<double>(down.end->wire - down.start->wire) / player_seconds;
  }
  return g;
}

// The groups: the default settings, and each with one technique off (or the other family).
std::vector<Group> MakeGroups(const ProfileSettings& settings) {
  client::Settings redundancy_1;
  redundancy_1.redundancy = 1;
  client::Settings fixed_delay;
  fixed_delay.adaptive_delay = false;
  fixed_delay.interp_delay_ms = settings.fixed_delay_ms;
  client::Settings unsmoothed;
  unsmoothed.smoothing = false;
  client::Settings server_rate;
  server_rate.adaptive_snapshot_rate = false;
  std::vector<Group> groups;
  groups.push_back({"default", "def", client::Settings{}, nullptr, false, {}, {}, {}, 0, std::nullopt, {}});
  groups.push_back({"redundancy-1", "red", redundancy_1, nullptr, false, {}, {}, {}, 0, std::nullopt, {}});
  groups.push_back({"fixed-delay", "fix", fixed_delay, nullptr, false, {}, {}, {}, 0, std::nullopt, {}});
  groups.push_back({"unsmoothed", "uns", unsmoothed, nullptr, false, {}, {}, {}, 0, std::nullopt, {}});
  groups.push_back({"server-rate", "srv", server_rate, nullptr, false, {}, {}, {}, 0, std::nullopt, {}});
  const client::Settings others = client::PresetSettings(client::Preset::kPredictOthers);
  groups.push_back({"predict-others", "prd", others, nullptr, false, {}, {}, {}, 0, std::nullopt, {}});
  return groups;
}

// The server every group and the probe play on: no collisions, so a correction can only be the network's.
std::unique_ptr<server::Server> StartServer(const ProfileSettings& settings,
                                            std::shared_ptr<transport::Network> network, std::size_t groups,
                                            std::string* error) {
  server::ServerConfig config;
  config.network = std::move(network);
  config.bind_address = "127.0.0.1";
  config.port = 0;
  config.collisions = false;  // solo players: a correction can only come from the network
  config.snapshot_encoding =
      settings.delta_snapshots ? server::SnapshotEncoding::kDelta : server::SnapshotEncoding::kFull;
  config.input_buffer = settings.input_buffer;
  config.max_clients = groups * static_cast<std::size_t>(settings.group_size) + 1;  // and the probe
  config.max_per_address = config.max_clients;  // every player on 127.0.0.1
  return server::Server::Create(config, Micros{0}, error);
}

// The groups' journal (--explain, --journal-out); false when it cannot be written.
bool OpenJournal(const ProfileSettings& settings, const std::vector<Group>& groups,
                 std::optional<apps::RunJournal>& journal, std::string* error) {
  if (settings.explain.empty() && settings.journal_out.empty()) return true;
  std::vector<std::string> labels;
  for (const Group& group : groups) {
    for (int i = 0; i < settings.group_size; ++i) labels.push_back(group.prefix + std::to_string(i));
  }
  journal.emplace(std::move(labels),
                  "netcube-bench --scenario profiles: " + settings.profile.name + ", " +
                      (settings.delta_snapshots ? "delta" : "full") + " snapshots, input buffer " +
                      (settings.input_buffer ? "on" : "off") + ", groups of " +
                      std::to_string(settings.group_size) + ", seed " + std::to_string(settings.seed),
                  true, settings.explain, settings.journal_out, "netcube-bench");
  if (journal->ok()) return true;
  *error = "cannot write " + settings.explain;
  return false;
}

// Starts each group's players, playing at random on the profile's link; `seed` moves past their seeds.
bool StartGroups(const ProfileSettings& settings, const std::shared_ptr<transport::Network>& network,
                 std::uint16_t port, std::vector<Group>& groups, apps::RunJournal* journal,
                 std::vector<const client::BotRun*>& runs, std::uint64_t& seed, std::string* error) {
  for (Group& group : groups) {
    client::BotConfig bot;
    bot.network = network;
    bot.port = port;
    bot.count = settings.group_size;
    bot.duration_s = settings.play_s;
    bot.settings = group.settings;
    bot.link = settings.profile.settings;
    bot.seed = seed;
    const std::optional<client::InputScript> random_script = client::InputScript::Parse("random", error);
    if (!random_script) return false;
    bot.script = *random_script;
    bot.name_prefix = group.prefix;
    seed += static_cast<std::uint64_t>(settings.group_size);
    if (journal != nullptr) journal->Attach(bot, runs.size() * static_cast<std::size_t>(settings.group_size));
    group.run = client::BotRun::Start(bot, Micros{0}, error);
    if (!group.run) return false;
    runs.push_back(group.run.get());
  }
  return true;
}

// Every group's players updated to `now`; false when they failed.
bool UpdateGroups(std::vector<Group>& groups, Micros now, Micros play_length, std::string* error) {
  for (Group& group : groups) {
    const Micros cpu_before = ThreadCpuNow();
    group.done = !group.run->Update(now) || group.done;
    if (!group.done) group.update_cpu += ThreadCpuNow() - cpu_before;
    if (group.run->failure()) {
      *error = group.name + " players: " + *group.run->failure();
      return false;
    }
    group.play_down.Sample(*group.run, now, play_length);
  }
  return true;
}

// A frame's samples: the probe's key presses, each group's view delay and remote error.
bool SampleFrame(std::vector<Group>& groups, KeyPressProbe& probe, const ServerPath& path, Micros now,
                 int key_trials, double tick_period_us, std::string* error) {
  probe.Frame(now, key_trials);
  const client::ConnectionState probe_state = probe.client().state();
  if (probe_state == client::ConnectionState::kLost || probe_state == client::ConnectionState::kRefused ||
      probe_state == client::ConnectionState::kUnreachable) {
    *error = "the probe client lost its connection: " + probe.client().status();
    return false;
  }
  for (Group& group : groups) {
    if (!group.done) ++group.frames;
    for (const auto& c : group.run->clients()) {
      group.view_delay.Sample(*c, now, tick_period_us);
      group.remote_error.Sample(*c, path, static_cast<double>(now.count()) / tick_period_us);
    }
    if (!group.underruns_early && now >= kEarlyPhase) group.underruns_early = Underruns(group);
  }
  return true;
}

// Everyone disconnects, and the server hears the goodbyes.
void SayGoodbye(server::Server& server, std::vector<Group>& groups, KeyPressProbe& probe, Micros now) {
  for (Group& group : groups) group.run->Disconnect(now);
  probe.client().Disconnect(now);
  for (const Micros end = now + kGoodbyeTime; now < end; now += kStep) {
    server.Update(now);
    for (Group& group : groups) group.run->Update(now);
    probe.client().Update(now, 0);
  }
}

}  // namespace

std::optional<ProfileResult> RunProfile(const ProfileSettings& settings, std::string* error) {
  std::vector<Group> groups = MakeGroups(settings);
  Micros now{0};
  const std::shared_ptr<transport::Network> network = transport::MakeNetwork(settings.network);
  std::unique_ptr<server::Server> server = StartServer(settings, network, groups.size(), error);
  if (!server) return std::nullopt;
  const double tick_period_us = 1e6 / server->config().tick_rate;
  std::optional<apps::RunJournal> journal;
  if (!OpenJournal(settings, groups, journal, error)) return std::nullopt;
  std::vector<const client::BotRun*> runs;
  std::uint64_t seed = settings.seed;
  if (!StartGroups(settings, network, server->port(), groups, journal ? &*journal : nullptr, runs, seed,
                   error))
    return std::nullopt;
  client::ClientConfig probe_config;
  probe_config.name = "probe";
  probe_config.network = network;
  probe_config.link = settings.profile.settings;
  probe_config.seed = seed;
  KeyPressProbe probe(probe_config);
  if (!probe.client().Connect("127.0.0.1", server->port(), now, error)) return std::nullopt;

  const Micros play_length = Micros(static_cast<std::int64_t>(settings.play_s * 1e6));
  const Micros limit = play_length + kExtraTime;
  const auto real_start = std::chrono::steady_clock::now();
  std::int64_t frame = 1;
  ServerPath path;
  while (true) {
    now = std::min(now + kStep, FrameTime(frame));
    server->Update(now);
    path.Record(*server);
    if (journal) journal->BeginUpdate(now, runs, server.get());
    if (!UpdateGroups(groups, now, play_length, error)) return std::nullopt;
    if (journal) journal->AfterUpdate(now, runs, server.get());
    if (now == FrameTime(frame)) {
      ++frame;
      if (!SampleFrame(groups, probe, path, now, settings.key_trials, tick_period_us, error))
        return std::nullopt;
    }
    const bool groups_done = std::all_of(groups.begin(), groups.end(), [](const Group& g) { return g.done; });
    if (groups_done && probe.done()) break;
    if (now > limit || std::chrono::steady_clock::now() - real_start > kRealTimeGuard) {
      *error =
          "the scenario did not finish in time (groups done: " + std::string(groups_done ? "yes" : "no") +
          ", key presses done: " + (probe.done() ? "yes" : "no") + ")";
      return std::nullopt;
    }
  }
  ProfileResult result;
  result.settings = settings;
  result.ran_s = static_cast<double>(now.count()) / 1e6;
  for (Group& group : groups) result.groups.push_back(Summarize(group, *server));
  result.key_press = probe.result();
  if (journal && !journal->Finish()) {
    *error = "the journal could not be written";
    return std::nullopt;
  }
  SayGoodbye(*server, groups, probe, now);
  return result;
}

namespace {

nlohmann::json GroupJson(const GroupResult& g) {
  return {
      {"name", g.name},
      {"settings", apps::SettingsJson(g.settings)},
      {"players", g.players},
      {"inputs_sent", g.inputs_sent},
      {"corrections", g.corrections},
      {"max_correction_units", g.max_correction},
      {"inputs_lost", g.inputs_lost},
      {"inputs_dropped_rate_limit", g.inputs_dropped_rate_limit},
      {"streaming_ticks", g.streaming_ticks},
      {"dry_ticks", g.dry_ticks},
      {"interp_underruns", g.interp_underruns},
      {"extrapolation_ms", g.extrapolation_ms},
      {"interp_delay_ms", g.interp_delay_ms},
      {"view_delay_ms", {{"mean", g.view_delay_mean_ms}, {"max", g.view_delay_max_ms}}},
      {"remote_error_units", {{"mean", g.remote_error_mean}, {"p99", g.remote_error_p99}}},
      {"remote_error_at_present_units", {{"mean", g.remote_error_now_mean}, {"p99", g.remote_error_now_p99}}},
      {"remote_max_step_units", g.remote_max_step},
      {"remote_jumps_per_s", g.remote_jumps_per_s},
      {"update_cpu_us_per_player_frame", g.update_cpu_us_per_frame},
      {"cube_ticks_simulated_per_player_frame", g.cube_ticks_per_frame},
      {"snapshot_loss", g.snapshot_loss},
      {"link_loss", g.link_loss},
      {"interp_underruns_after_5s", g.underruns_after_early},
      {"rtt_ms", g.rtt_ms},
      {"per_player_per_s",
       {{"payload_down_bytes", g.down_bytes_per_s}, {"wire_down_bytes", g.wire_down_bytes_per_s}}},
      {"snapshot_rate_end", g.snapshot_rate},
      {"all_settled", g.all_settled},
      {"all_final_match", g.all_final_match}};
}

}  // namespace

void to_json(nlohmann::json& j, const ProfileResult& r) {
  const transport::LinkSettings& link = r.settings.profile.settings;
  j = {{"profile",
        {{"name", r.settings.profile.name},
         {"latency_ms", link.latency_ms},
         {"jitter_ms", link.jitter_ms},
         {"loss", link.loss},
         {"duplicate", link.duplicate},
         {"reorder", link.reorder}}},
       {"settings",
        {{"group_size", r.settings.group_size},
         {"snapshot_encoding", r.settings.delta_snapshots ? "delta" : "full"},
         {"input_buffer", r.settings.input_buffer},
         {"play_s", r.settings.play_s},
         {"key_trials", r.settings.key_trials},
         {"fixed_delay_ms", r.settings.fixed_delay_ms},
         {"seed", r.settings.seed},
         {"transport", transport::ToString(r.settings.network)},
         {"collisions", false},
         {"clock", "virtual, 1 ms steps"}}},
       {"ran_s", r.ran_s},
       {"groups", nlohmann::json::array()},
       {"key_press_frames",
        {{"with_prediction", r.key_press.frames_with_prediction},
         {"without_prediction", r.key_press.frames_without_prediction}}}};
  for (const GroupResult& g : r.groups) j["groups"].push_back(GroupJson(g));
}

}  // namespace netcube::bench
