// Prediction and reconciliation over real loopback, against the real server, on a virtual clock.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "loopback_test.h"
#include "netcube/client/input_script.h"

namespace netcube::client {
namespace {

ClientConfig WithLatency(const Settings& settings, double one_way_ms) {
  ClientConfig config = Named("p", settings);
  config.link.latency_ms = one_way_ms;
  return config;
}

std::function<std::uint8_t(Micros)> Scripted(const std::string& text, Micros start, std::uint64_t seed = 1) {
  std::string error;
  const std::optional<InputScript> script = InputScript::Parse(text, &error);
  EXPECT_TRUE(script) << error;
  return [script = script.value_or(InputScript{}), start, seed](Micros now) {
    return now < start ? std::uint8_t{0} : script.ButtonsAt(now - start, seed);
  };
}

const server::ClientInfo* InfoOf(const std::vector<server::ClientInfo>& infos, sim::PlayerId id) {
  for (const server::ClientInfo& info : infos) {
    if (info.id == id) return &info;
  }
  return nullptr;
}

// Gambetta's scenario: 250 ms round trip, two quick taps of the right key. Returns the drawn x per step.
struct TapRun {
  std::vector<double> drawn_x;
  std::vector<double> server_x;
  std::size_t first_press_step = 0;
  std::vector<double> corrections_x;  // the x of every correction, in order
  Metrics metrics;
  bool settled = false;
  bool final_match = false;
  bool any_prediction_check = false;  // the client ever compared a prediction with the server's result
};

TapRun TwoQuickTaps(Settings settings) {
  const auto rig = StartRig();
  Client& client = AddPlayer(*rig, WithLatency(settings, 125));
  EXPECT_TRUE(rig->ConnectAll());
  const Micros start = rig->now() + milliseconds(100);
  rig->SetButtons(0, Scripted("R:100,-:50,R:100", start));
  TapRun run;
  run.settled = rig->StepUntil(
      [&] { return rig->now() > start + milliseconds(300) && client.Settled(); }, seconds(5),
      [&] {
        run.drawn_x.push_back(client.local().drawn.x);
        run.server_x.push_back(client.local().server.x);
        if (rig->now() <= start) run.first_press_step = run.drawn_x.size();
        run.any_prediction_check = run.any_prediction_check || client.last_prediction_check().has_value();
        if (client.metrics().corrections > run.corrections_x.size()) {
          run.corrections_x.push_back(client.local().last_correction.x);
        }
      });
  run.metrics = client.metrics();
  run.final_match = sim::SamePhysics(client.local().predicted_state, client.local().server_state) &&
                    client.last_prediction_check() && client.last_prediction_check()->match;
  return run;
}

// The largest backward step of the drawn x, and the largest forward step.
std::pair<double, double> LargestSteps(const std::vector<double>& xs) {
  double back = 0.0;
  double forward = 0.0;
  for (std::size_t i = 1; i < xs.size(); ++i) {
    back = std::max(back, xs[i - 1] - xs[i]);
    forward = std::max(forward, xs[i] - xs[i - 1]);
  }
  return {back, forward};
}

// Steps from the first press until the drawn cube first moves.
std::size_t ResponseSteps(const TapRun& run) {
  const double x0 = run.drawn_x[run.first_press_step];
  for (std::size_t i = run.first_press_step; i < run.drawn_x.size(); ++i) {
    if (run.drawn_x[i] != x0) return i - run.first_press_step;
  }
  return run.drawn_x.size();
}

TEST(Gambetta, WithReconciliationTheDrawnCubeNeverMovesBack) {
  const TapRun run = TwoQuickTaps(PresetSettings(Preset::kPredicted));
  ASSERT_TRUE(run.settled);
  const auto [back, forward] = LargestSteps(run.drawn_x);
  EXPECT_EQ(back, 0.0);
  EXPECT_GT(run.drawn_x.back(), run.drawn_x.front() + 1.0);  // the taps moved it
  EXPECT_LE(ResponseSteps(run), 20u);                        // at once, not a round trip later
  EXPECT_EQ(run.metrics.corrections, 0u);
  EXPECT_GT(run.metrics.reconciliations, 0u);
  EXPECT_TRUE(run.final_match);
  EXPECT_TRUE(run.any_prediction_check);
  std::printf("[gambetta] reconciliation on: largest backward step %.3f, response %zu ms, rtt %.1f ms\n",
              back, ResponseSteps(run), run.metrics.rtt_ms_mean);
}

TEST(Gambetta, WithoutReconciliationTheCubeJumpsBackThenForward) {
  Settings naive_prediction = PresetSettings(Preset::kPredicted);
  naive_prediction.reconciliation = false;
  // The article's server sends states at its own rate; at every tick the jumps would be a third as big.
  naive_prediction.adaptive_snapshot_rate = false;
  const TapRun run = TwoQuickTaps(naive_prediction);
  ASSERT_TRUE(run.settled);
  // The server's states are a round trip old: one pulls the cube back, and a later one (which has seen
  // more of the taps) pushes it forward again.
  const auto back_at =
      std::find_if(run.corrections_x.begin(), run.corrections_x.end(), [](double x) { return x < -0.1; });
  ASSERT_NE(back_at, run.corrections_x.end()) << "the server's old state never pulled the cube back";
  EXPECT_NE(std::find_if(back_at, run.corrections_x.end(), [](double x) { return x > 0.1; }),
            run.corrections_x.end())
      << "no later server state pushed the cube forward again";
  // The drawn path shows the jump back: the taps alone only ever move the cube right.
  EXPECT_GT(LargestSteps(run.drawn_x).first, 0.1);
  EXPECT_GT(run.metrics.corrections, 0u);
  EXPECT_EQ(run.metrics.inputs_acked, run.metrics.inputs_sent);  // counted from the acks, not the queue
  std::string corrections;
  for (double x : run.corrections_x) corrections += " " + std::to_string(x).substr(0, 6);
  std::printf("[gambetta] reconciliation off: corrections in x (units):%s\n", corrections.c_str());
  // It still ends where the server says.
  EXPECT_EQ(run.drawn_x.back(), run.server_x.back());
}

TEST(Gambetta, WithoutPredictionTheCubeMovesOneRoundTripLate) {
  const TapRun run = TwoQuickTaps(PresetSettings(Preset::kNaive));
  ASSERT_TRUE(run.settled);
  EXPECT_GE(ResponseSteps(run), 230u);   // ~250 ms round trip
  EXPECT_EQ(run.drawn_x, run.server_x);  // drawn at the server's state, always
  EXPECT_EQ(LargestSteps(run.drawn_x).first, 0.0);
  // The prediction behind the scenes is corrected by every old server state, but nothing on screen is.
  EXPECT_EQ(run.metrics.corrections, 0u);
  EXPECT_GT(run.metrics.reconciliations, 0u);
  EXPECT_EQ(run.metrics.inputs_acked, run.metrics.inputs_sent);
  // Nothing predicted is drawn, so no prediction can differ from the server (no false alarm in red).
  EXPECT_FALSE(run.any_prediction_check);
  std::printf("[gambetta] prediction off: the cube starts moving %zu ms after the key\n", ResponseSteps(run));
}

TEST(Toggles, ChangeLiveWithoutReconnecting) {
  const auto rig = StartRig();
  Client& a = AddPlayer(*rig, WithLatency(PresetSettings(Preset::kFull), 60));
  Client& b = AddPlayer(*rig, WithLatency(PresetSettings(Preset::kFull), 0));
  ASSERT_TRUE(rig->ConnectAll());
  rig->SetButtons(0, Scripted("circle", rig->now()));
  rig->SetButtons(1, Scripted("circle", rig->now(), 2));
  std::size_t most_pending = 0;
  const auto track_pending = [&] { most_pending = std::max(most_pending, a.metrics().pending_inputs); };
  rig->StepFor(milliseconds(700), track_pending);
  // Reconciliation keeps every input the server has not applied: a round trip's worth and more.
  EXPECT_GE(most_pending, 7u);

  // Prediction off: the own cube is drawn at the latest server state.
  Settings s = a.settings();
  s.prediction = false;
  a.SetSettings(s);
  rig->Step();
  EXPECT_EQ(a.local().drawn, a.local().server);
  EXPECT_NE(a.local().predicted, a.local().server);  // still predicted in the background
  EXPECT_FALSE(a.last_prediction_check()) << "no prediction drawn, none to check";
  // Back on: drawn at the prediction again (plus any smoothing offset).
  s.prediction = true;
  a.SetSettings(s);
  rig->Step();
  EXPECT_EQ(a.local().drawn, a.local().predicted + a.local().smoothing_offset);

  // Interpolation off: remote cubes at the latest state received; on: in the past, interpolated.
  Settings sb = b.settings();
  sb.interpolation = false;
  b.SetSettings(sb);
  rig->Step();
  ASSERT_EQ(b.remotes().size(), 1u);
  EXPECT_EQ(b.remotes()[0].drawn, b.remotes()[0].latest);
  EXPECT_EQ(b.remotes()[0].sample, SampleKind::kLatest);
  sb.interpolation = true;
  b.SetSettings(sb);
  rig->StepFor(milliseconds(50));
  EXPECT_EQ(b.remotes()[0].sample, SampleKind::kInterpolated);
  EXPECT_NE(b.remotes()[0].drawn, b.remotes()[0].latest);

  // Reconciliation off then on, redundancy changed: still connected, still consistent once settled.
  s.reconciliation = false;
  s.redundancy = 5;
  a.SetSettings(s);
  rig->StepFor(milliseconds(100));
  // Without it the inputs in flight still show as pending, and only those: all newer than the last ack.
  most_pending = 0;
  bool only_in_flight = true;
  rig->StepFor(milliseconds(200), [&] {
    track_pending();
    const PendingInputs& pending = a.pending();
    const Metrics m = a.metrics();
    if (!pending.empty() && m.has_ack)
      only_in_flight = only_in_flight && sim::SeqGreater(pending.oldest_seq(), m.last_acked_input);
  });
  EXPECT_GE(most_pending, 7u);  // a round trip's worth
  EXPECT_TRUE(only_in_flight);
  s.reconciliation = true;
  a.SetSettings(s);
  rig->SetButtons(0, nullptr);
  rig->SetButtons(1, nullptr);
  ASSERT_TRUE(rig->StepUntil([&] { return rig->AllSettled(); }, seconds(5)));
  EXPECT_EQ(a.state(), ConnectionState::kConnected);
  EXPECT_TRUE(sim::SamePhysics(a.local().predicted_state, a.local().server_state));
  EXPECT_EQ(a.local().drawn, a.local().server);
}

struct SoloRun {
  Metrics metrics;
  server::ClientInfo server_view;
  bool settled = false;
  bool states_equal = false;
  std::optional<PredictionCheck> check;
};

// One player on a bad network: 200 ms round trip, +-20 ms jitter, 5% loss, 5% duplication (each way).
SoloRun SoloOnABadNetwork(int redundancy, Micros play) {
  const auto rig = StartRig();
  Settings settings = PresetSettings(Preset::kFull);
  settings.redundancy = redundancy;
  ClientConfig config = WithLatency(settings, 100);
  config.link.jitter_ms = 20;
  config.link.loss = 0.05;
  config.link.duplicate = 0.05;
  config.seed = 42;
  Client& client = AddPlayer(*rig, config);
  EXPECT_TRUE(rig->ConnectAll());
  const Micros start = rig->now();
  auto script = Scripted("random", start, 7);
  rig->SetButtons(0, [&](Micros now) { return now < start + play ? script(now) : std::uint8_t{0}; });
  rig->StepFor(play);
  SoloRun run;
  run.settled = rig->StepUntil([&] { return client.Settled(); }, seconds(10));
  run.metrics = client.metrics();
  run.server_view = *InfoOf(rig->server().clients(), *client.player_id());
  run.states_equal =
      sim::SamePhysics(client.local().predicted_state, client.local().server_state) &&
      sim::SamePhysics(client.local().server_state, rig->ServerCube(*client.player_id())->state);
  run.check = client.last_prediction_check();
  return run;
}

void PrintSolo(const char* label, const SoloRun& r) {
  const Metrics& m = r.metrics;
  std::printf(
      "[solo %s] inputs sent %llu acked %llu | server lost %llu duplicate %llu | reconciliations %llu "
      "corrections %llu (max %.3f mean %.3f) | rtt %.1f ms jitter %.1f | snapshot loss %.3f stale %llu\n",
      label, static_cast<unsigned long long>(m.inputs_sent), static_cast<unsigned long long>(m.inputs_acked),
      static_cast<unsigned long long>(r.server_view.inputs.lost),
      static_cast<unsigned long long>(r.server_view.inputs.duplicate),
      static_cast<unsigned long long>(m.reconciliations), static_cast<unsigned long long>(m.corrections),
      m.max_correction, m.mean_correction, m.rtt_ms_mean, m.rtt_jitter_ms, m.snapshot_loss,
      static_cast<unsigned long long>(m.snapshots_stale));
}

TEST(Solo, BadNetworkWithRedundancyNeedsNoCorrection) {
  const SoloRun run = SoloOnABadNetwork(32, seconds(20));
  PrintSolo("redundancy 32", run);
  ASSERT_TRUE(run.settled);
  EXPECT_EQ(run.metrics.corrections, 0u);
  EXPECT_EQ(run.server_view.inputs.lost, 0u);
  EXPECT_EQ(run.metrics.inputs_acked, run.metrics.inputs_sent);
  EXPECT_GT(run.metrics.inputs_sent, 600u);
  EXPECT_TRUE(run.states_equal);
  ASSERT_TRUE(run.check);
  EXPECT_TRUE(run.check->match);
  // The network really was bad.
  EXPECT_GT(run.metrics.rtt_ms_mean, 180.0);
  EXPECT_GT(run.metrics.snapshots_stale, 0u);  // duplicates arrived and were dropped
  EXPECT_GT(run.server_view.inputs.duplicate, 0u);
}

TEST(Solo, BadNetworkWithoutRedundancyLosesInputs) {
  const SoloRun run = SoloOnABadNetwork(1, seconds(20));
  PrintSolo("redundancy 1", run);
  ASSERT_TRUE(run.settled);
  EXPECT_GT(run.server_view.inputs.lost, 0u);
  EXPECT_GT(run.metrics.corrections, 0u);
  EXPECT_TRUE(run.states_equal);  // reconciliation still converges on the server's state
}

// In an arena larger than the standard one, told in the Welcome: a player drives past where the standard
// arena's wall would stop it, its prediction and the other player's view of it follow, with no correction,
// until the larger arena's own wall stops it where the server does.
TEST(Arena, APlayerDrivesToTheWallsOfTheServersArena) {
  server::ServerConfig config;
  config.arena = sim::Arena::OfUnits(160, 40);
  const auto rig = StartRig(config);
  // The second player spawns right of the first: it drives right, away from it.
  Client& watcher = AddPlayer(*rig, WithLatency(PresetSettings(Preset::kFull), 60));
  Client& driver = AddPlayer(*rig, WithLatency(PresetSettings(Preset::kFull), 60));
  ASSERT_TRUE(rig->ConnectAll());
  EXPECT_EQ(driver.welcome().arena, config.arena);
  EXPECT_EQ(watcher.welcome().arena, config.arena);
  // 15 units a second for 12 s: far past the standard arena's 64 units, into this one's wall at 160.
  rig->SetButtons(1, Hold(sim::kRight, rig->now(), seconds(12)));
  double furthest_seen = 0.0;
  rig->StepFor(seconds(13), [&] {
    if (const RemoteView* seen = FindRemote(watcher, *driver.player_id())) {
      furthest_seen = std::max(furthest_seen, seen->drawn.x);
    }
  });
  ASSERT_TRUE(rig->StepUntil([&] { return driver.Settled(); }, seconds(10)));
  const double wall = ToUnits(config.arena.max_x());
  EXPECT_DOUBLE_EQ(driver.local().server.x, wall);
  EXPECT_DOUBLE_EQ(driver.local().drawn.x, wall);
  EXPECT_EQ(driver.metrics().corrections, 0u);
  EXPECT_GT(furthest_seen, ToUnits(sim::kStandardArena.max_x()) + 50.0);
  EXPECT_LE(furthest_seen, wall);
  for (const sim::PlayerCube& cube : rig->server().world()) {
    EXPECT_TRUE(config.arena.Contains(cube.state.x, cube.state.y));
  }
}

TEST(Solo, DoubleInputRateIsCorrectedByTheServer) {
  const auto rig = StartRig();
  ClientConfig config = WithLatency(PresetSettings(Preset::kPredicted), 20);
  config.input_rate = 2;  // a speed hack
  Client& client = AddPlayer(*rig, config);
  ASSERT_TRUE(rig->ConnectAll());
  const double x0 = client.local().server.x;
  rig->SetButtons(0, Hold(sim::kLeft, rig->now(), seconds(1)));
  rig->StepFor(milliseconds(1500));
  ASSERT_TRUE(rig->StepUntil([&] { return client.Settled(); }, seconds(10)));
  const server::ClientInfo info = *InfoOf(rig->server().clients(), *client.player_id());
  std::printf("[speed hack] inputs sent %llu, server processed %llu dropped %llu, corrections %llu\n",
              static_cast<unsigned long long>(client.metrics().inputs_sent),
              static_cast<unsigned long long>(info.inputs.processed),
              static_cast<unsigned long long>(info.inputs.dropped_rate_limit),
              static_cast<unsigned long long>(client.metrics().corrections));
  EXPECT_GT(info.inputs.dropped_rate_limit, 0u);
  EXPECT_GT(client.metrics().corrections, 0u);
  // The server applied about one input per tick (plus a small catch-up allowance): an honest second of
  // full speed is ~14 units, the hack asked for twice that.
  EXPECT_LT(x0 - client.local().server.x, 22.0);
  EXPECT_GT(x0 - client.local().server.x, 10.0);
  EXPECT_TRUE(sim::SamePhysics(client.local().predicted_state, client.local().server_state));
}

}  // namespace
}  // namespace netcube::client
