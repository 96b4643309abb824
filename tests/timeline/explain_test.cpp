// Glitches made on purpose over real loopback, on a virtual clock, and their explanations: a blackout of
// one client's link freezes its view of a moving cube (cause: lost snapshots, with their ticks, and the
// link event), driving into a cube is corrected (cause: a collision with that player), a late input under
// jitter leaves a dry tick, a client's clock stepped forward is named (cause: clock), and over a lossy
// comparison every correction and underrun is explained at its frame. Every cause an explanation names is
// checked against the journal: its evidence is there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "netcube/client/bot.h"
#include "netcube/client/frame_sample.h"
#include "netcube/timeline/explainer.h"
#include "netcube/timeline/recorder.h"
#include "support/loopback_rig.h"

namespace netcube::timeline {
namespace {

using testing::LoopbackRig;
constexpr Micros kFrame{1'000'000 / 60};

// A rig with a journal: each player's link logged, and every frame (1/60 s) the journal recorded, the
// players sampled and their glitches explained.
class JournaledRun {
 public:
  JournaledRun(server::ServerConfig config, std::size_t players, std::vector<LinkChange> script = {})
      : rig_(LoopbackRig::Start(std::move(config))),
        journal_(players),
        recorder_(journal_),
        script_(std::move(script)),
        samplers_(players) {
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < players; ++i) labels.push_back("player " + std::to_string(i + 1));
    explainer_.emplace(journal_, labels, &script_.changes());
  }

  client::Client& Add(client::ClientConfig config) {
    const std::size_t index = clients_.size();
    config.incoming_link_log = recorder_.DownLog(index);
    config.outgoing_link_log = recorder_.UpLog(index);
    std::string error;
    client::Client* player = rig_->AddPlayer(std::move(config), &error);
    if (player == nullptr) throw std::runtime_error("no client: " + error);
    clients_.push_back(player);
    return *player;
  }

  // `each_frame` runs at the start of every frame (a player's tags).
  void Run(Micros duration, const std::function<void(Micros)>& each_frame = nullptr) {
    rig_->StepFor(duration, [&] {
      if (rig_->now() < next_frame_) return;
      next_frame_ += kFrame;
      ++frame_;
      if (each_frame) each_frame(rig_->now());
      script_.Apply(frame_, rig_->now(), rig_->server(), clients_, &recorder_);
      std::vector<const client::Client*> clients(clients_.begin(), clients_.end());
      recorder_.Record(frame_, rig_->now(), rig_->server(), clients);
      for (std::size_t i = 0; i < clients_.size(); ++i) {
        const client::FrameSample sample =
            samplers_[i].Sample(frame_, rig_->now(), 0, *clients_[i], rig_->server().world());
        samples_.push_back({i, sample});
        explainer_->Frame(i, sample, *clients_[i], rig_->server(), explanations_);
      }
    });
  }

  LoopbackRig& rig() { return *rig_; }
  const std::vector<Explanation>& explanations() const { return explanations_; }
  const Journal& journal() const { return journal_; }
  struct Sampled {
    std::size_t client;
    client::FrameSample sample;
  };
  const std::vector<Sampled>& samples() const { return samples_; }

  // Every cause with evidence points at a journal event of that kind, at that time, in that source.
  void ExpectEvidenceInJournal() const {
    for (const Explanation& e : explanations_) {
      for (const Cause& cause : e.causes) {
        if (!cause.has_evidence) {
          EXPECT_TRUE(cause.kind == CauseKind::kTechnique || cause.kind == CauseKind::kUnknown ||
                      cause.kind == CauseKind::kRewindCap)
              << e.line;
          continue;
        }
        const EventRing& ring =
            cause.evidence_source == 0 ? journal_.server() : journal_.client(cause.evidence_source - 1);
        bool found = false;
        ring.VisitBackward(cause.evidence_at, cause.evidence_at, [&](const Event& event) {
          found = event.kind == cause.evidence;
          if (found && cause.kind == CauseKind::kLoss && event.kind == EventKind::kPacketDown) {
            found = (event.flags & event_flags::kDropped) != 0;
          }
          return !found;
        });
        EXPECT_TRUE(found) << ToString(cause.kind) << " in " << e.line;
      }
    }
  }

 private:
  std::unique_ptr<LoopbackRig> rig_;
  Journal journal_;
  Recorder recorder_;
  LinkScriptPlayer script_;
  std::optional<Explainer> explainer_;
  std::vector<client::Client*> clients_;
  std::vector<client::FrameSampler> samplers_;
  std::vector<Explanation> explanations_;
  std::vector<Sampled> samples_;
  Micros next_frame_{0};
  std::int32_t frame_ = 0;
};

const Cause* FindCause(const Explanation& e, CauseKind kind) {
  const auto it =
      std::find_if(e.causes.begin(), e.causes.end(), [&](const Cause& c) { return c.kind == kind; });
  return it == e.causes.end() ? nullptr : &*it;
}

client::ClientConfig Player(std::string name, double latency_ms) {
  client::ClientConfig config;
  config.name = std::move(name);
  config.link.latency_ms = latency_ms;
  return config;
}

TEST(Explain, ABlackoutFreezesTheOtherCubeForLostSnapshotsWithTheirTicks) {
  std::string error;
  auto script = ParseLinkScript("3s blackout 400ms client 1", &error);
  ASSERT_TRUE(script) << error;
  JournaledRun run({}, 2, *script);
  run.Add(Player("watcher", 50));
  run.Add(Player("mover", 50));
  ASSERT_TRUE(run.rig().ConnectAll());
  // The mover runs right and left across the arena the whole time.
  run.rig().SetButtons(1, [](Micros now) {
    return static_cast<std::uint8_t>((now.count() / 2'000'000) % 2 == 0 ? sim::kRight : sim::kLeft);
  });
  run.Run(Micros(4'000'000));
  const Explanation* freeze = nullptr;
  for (const Explanation& e : run.explanations()) {
    if (e.client == 0 && e.time >= Micros(3'000'000) && e.time <= Micros(3'600'000) &&
        (e.kind == GlitchKind::kRemoteFrozen || e.kind == GlitchKind::kUnderrun) &&
        FindCause(e, CauseKind::kLoss)) {
      freeze = &e;
      break;
    }
  }
  ASSERT_NE(freeze, nullptr) << "no explained freeze of the watcher's view during the blackout";
  const Cause& loss = *FindCause(*freeze, CauseKind::kLoss);
  EXPECT_GT(loss.first_tick, 0);
  EXPECT_GE(loss.last_tick, loss.first_tick);
  // The first lost snapshot is one the server sent during the blackout: after 3 s at 60 ticks a second.
  EXPECT_GE(loss.first_tick, 170);
  EXPECT_LE(loss.first_tick, 3.4 * 60);
  EXPECT_GE(loss.evidence_at, Micros(3'000'000));
  EXPECT_LT(loss.evidence_at, Micros(3'400'000));
  EXPECT_NE(FindCause(*freeze, CauseKind::kLinkEvent), nullptr) << freeze->line;
  EXPECT_EQ(FindCause(*freeze, CauseKind::kCollision), nullptr) << freeze->line;
  // Each player named by its label, the one seen too (not by its player id).
  if (freeze->kind == GlitchKind::kRemoteFrozen) {
    EXPECT_NE(freeze->line.find("player 1 sees player 2 stop"), std::string::npos) << freeze->line;
  }
  // The mover's view is not touched by the watcher's blackout.
  for (const Explanation& e : run.explanations()) {
    if (e.client == 1) {
      EXPECT_EQ(FindCause(e, CauseKind::kLinkEvent), nullptr) << e.line;
    }
  }
  run.ExpectEvidenceInJournal();
}

TEST(Explain, DrivingIntoACubeIsACorrectionCausedByACollisionWithThatPlayer) {
  server::ServerConfig config;
  config.spawn_spacing_units = 4;
  JournaledRun run(config, 2);
  run.Add(Player("driver", 60));
  client::Client& standing = run.Add(Player("standing", 60));
  ASSERT_TRUE(run.rig().ConnectAll());
  const sim::PlayerCube* driver_cube = run.rig().ServerCube(*run.rig().player(0).player_id());
  const sim::PlayerCube* standing_cube = run.rig().ServerCube(*standing.player_id());
  ASSERT_TRUE(driver_cube != nullptr && standing_cube != nullptr);
  std::uint8_t toward = 0;
  if (standing_cube->state.x > driver_cube->state.x + sim::kCubeHalf) toward |= sim::kRight;
  if (standing_cube->state.x < driver_cube->state.x - sim::kCubeHalf) toward |= sim::kLeft;
  if (standing_cube->state.y > driver_cube->state.y + sim::kCubeHalf) toward |= sim::kDown;
  if (standing_cube->state.y < driver_cube->state.y - sim::kCubeHalf) toward |= sim::kUp;
  run.rig().SetButtons(0, [toward](Micros) { return toward; });
  run.Run(Micros(3'000'000));
  const sim::PlayerId other = *standing.player_id();
  int collisions = 0;
  for (const Explanation& e : run.explanations()) {
    if (e.client != 0 || e.kind != GlitchKind::kCorrection) continue;
    const Cause* collision = FindCause(e, CauseKind::kCollision);
    if (collision != nullptr) {
      EXPECT_EQ(collision->player, other) << e.line;
      EXPECT_NE(collision->text.find("collision with player 2 at"), std::string::npos) << e.line;
      ++collisions;
    }
    EXPECT_EQ(FindCause(e, CauseKind::kLoss), nullptr) << e.line;  // the link loses nothing
  }
  EXPECT_GT(collisions, 0) << "no correction explained by the collision";
  run.ExpectEvidenceInJournal();
}

TEST(Explain, AClientClockSteppedForwardIsNamedTheCauseOfWhatItSeesNext) {
  std::string error;
  auto script = ParseLinkScript("3s clock +300ms client 1", &error);
  ASSERT_TRUE(script) << error;
  server::ServerConfig config;
  config.collisions = false;
  JournaledRun run(config, 2, *script);
  client::Client& stepped = run.Add(Player("stepped", 50));
  run.Add(Player("mover", 50));
  ASSERT_TRUE(run.rig().ConnectAll());
  const auto back_and_forth = [](Micros now) {
    return static_cast<std::uint8_t>((now.count() / 700'000) % 2 == 0 ? sim::kRight : sim::kLeft);
  };
  run.rig().SetButtons(0, back_and_forth);
  run.rig().SetButtons(1, back_and_forth);
  run.Run(Micros(4'500'000));
  EXPECT_EQ(stepped.clock_step(), Micros(300'000));
  const Explanation* first = nullptr;
  for (const Explanation& e : run.explanations()) {
    const Cause* clock = FindCause(e, CauseKind::kClock);
    if (clock == nullptr) continue;
    EXPECT_EQ(e.client, 0U) << "only the stepped client's clock moved: " << e.line;
    EXPECT_GE(e.time, Micros(3'000'000)) << e.line;
    EXPECT_EQ(clock->evidence, EventKind::kClockStep);
    EXPECT_GE(clock->evidence_at, Micros(3'000'000));
    EXPECT_LT(clock->evidence_at, Micros(3'000'000) + kFrame);
    EXPECT_DOUBLE_EQ(clock->to, 300.0);
    if (first == nullptr) first = &e;
  }
  ASSERT_NE(first, nullptr) << "no glitch after the clock step names it";
  // At the tick it happened: the first glitch it explains is within a few frames of the step.
  EXPECT_LE(first->time, Micros(3'000'000) + 4 * kFrame) << first->line;
  std::printf("%s\n", first->line.c_str());
  // The stepped client's packets stay on the run's clock in the journal (in time order).
  const EventRing& ring = run.journal().client(0);
  for (std::size_t i = 1; i < ring.size(); ++i) {
    if (ring.at(i).kind == EventKind::kPacketUp || ring.at(i).kind == EventKind::kPacketDown) {
      EXPECT_LE(ring.at(i).at, run.rig().now());
    }
  }
  run.ExpectEvidenceInJournal();
}

TEST(Explain, ALateInputUnderJitterIsADryTickThatStopsTheCubeOthersSee) {
  server::ServerConfig config;
  config.input_buffer = false;  // a late input leaves a dry tick
  config.collisions = false;
  JournaledRun run(config, 2);
  client::ClientConfig watcher = Player("watcher", 0);
  watcher.settings = client::PresetSettings(client::Preset::kNaive);
  run.Add(watcher);
  client::ClientConfig jittery = Player("jittery", 40);
  jittery.link.jitter_ms = 25;
  client::Client& mover = run.Add(jittery);
  ASSERT_TRUE(run.rig().ConnectAll());
  run.rig().SetButtons(1, [](Micros now) {
    return static_cast<std::uint8_t>((now.count() / 1'500'000) % 2 == 0 ? sim::kRight : sim::kLeft);
  });
  run.Run(Micros(6'000'000));
  int dry = 0;
  for (const Explanation& e : run.explanations()) {
    if (e.client != 0) continue;
    if (const Cause* late = FindCause(e, CauseKind::kInputLate); late != nullptr) {
      EXPECT_GT(late->count, 0);
      EXPECT_EQ(late->player, *mover.player_id());
      EXPECT_EQ(late->evidence, EventKind::kDryTicks);
      ++dry;
    }
  }
  EXPECT_GT(dry, 0) << "no glitch of the watcher explained by the mover's dry ticks";
  run.ExpectEvidenceInJournal();
}

TEST(Explain, ASnapshotRateChangeMakesTheCubesAWatcherDrawsAsTheyComeJump) {
  // The watcher interpolates and asks for every tick's snapshot from the start; at 4 s it stops
  // interpolating, which leaves no buffer for more snapshots to shorten, and asks for the server's 20 a
  // second: drawing each snapshot as it comes, it sees the mover jump from then on.
  JournaledRun run({}, 2);
  client::Client& watcher = run.Add(Player("watcher", 30));
  run.Add(Player("mover", 30));
  ASSERT_TRUE(run.rig().ConnectAll());
  run.rig().SetButtons(1, [](Micros now) {
    return static_cast<std::uint8_t>((now.count() / 2'000'000) % 2 == 0 ? sim::kRight : sim::kLeft);
  });
  run.Run(Micros(8'000'000), [&](Micros now) {
    if (now < Micros(4'000'000) || !watcher.settings().interpolation) return;
    client::Settings settings = watcher.settings();
    settings.interpolation = false;
    watcher.SetSettings(settings);
  });
  Micros changed{-1};
  const EventRing& ring = run.journal().client(0);
  for (std::size_t i = 0; i < ring.size(); ++i) {
    if (ring.at(i).kind == EventKind::kRateChange && ring.at(i).b == 20) changed = ring.at(i).at;
  }
  ASSERT_GE(changed, Micros(0)) << "the watcher never went back to 20 snapshots a second";
  int explained = 0;
  for (const Explanation& e : run.explanations()) {
    if (e.client != 0 || e.time < changed) continue;
    if (const Cause* cause = FindCause(e, CauseKind::kRateChange); cause != nullptr) {
      EXPECT_EQ(cause->from, 60.0) << e.line;
      EXPECT_EQ(cause->to, 20.0) << e.line;
      EXPECT_EQ(cause->evidence_at, changed) << e.line;
      ++explained;
    }
  }
  EXPECT_GT(explained, 0) << "no glitch after the rate change names it";
  // Before it, the only rate change to name is the first ask, for every tick's snapshot.
  for (const Explanation& e : run.explanations()) {
    const Cause* cause = FindCause(e, CauseKind::kRateChange);
    if (cause != nullptr && e.time < changed) {
      EXPECT_EQ(cause->to, 60.0) << e.line;
    }
  }
  run.ExpectEvidenceInJournal();
}

TEST(Explain, AWatcherWithoutInterpolationIsToldOnceThatEachSnapshotIsDrawnAsItArrives) {
  // On a clean link the mover's cube, drawn as each snapshot arrives, stops and jumps 20 times a second:
  // the first is told, the rest (the same causes, each less than a second after the last) are folded.
  JournaledRun run({}, 2);
  client::ClientConfig watcher = Player("watcher", 30);
  watcher.settings.interpolation = false;
  run.Add(watcher);
  run.Add(Player("mover", 30));
  ASSERT_TRUE(run.rig().ConnectAll());
  run.rig().SetButtons(1, [](Micros now) {
    return static_cast<std::uint8_t>((now.count() / 1'500'000) % 2 == 0 ? sim::kUp : sim::kDown);
  });
  run.Run(Micros(6'000'000));
  int told = 0;
  for (const Explanation& e : run.explanations()) {
    if (e.client != 0 || (e.kind != GlitchKind::kRemoteJump && e.kind != GlitchKind::kRemoteFrozen)) continue;
    ASSERT_NE(FindCause(e, CauseKind::kTechnique), nullptr) << e.line;
    ++told;
  }
  EXPECT_GE(told, 1);
  EXPECT_LE(told, 4) << "stops and jumps at each snapshot told one by one";
}

TEST(Explain, ATagSeenHittingButJudgedAgainstTheWorldNowIsAMissExplainedByLagCompensationOff) {
  server::ServerConfig config;
  config.lag_compensation = false;  // judged against the world now, not as the shooter drew it
  config.collisions = false;
  config.spawn_spacing_units = 6;
  JournaledRun run(config, 2);
  client::Client& shooter = run.Add(Player("shooter", 100));
  run.Add(Player("runner", 100));
  ASSERT_TRUE(run.rig().ConnectAll());
  run.rig().SetButtons(1, [](Micros now) {
    return static_cast<std::uint8_t>((now.count() / 400'000) % 2 == 0 ? sim::kUp : sim::kDown);
  });
  Micros next_tag{0};
  run.Run(Micros(8'000'000), [&](Micros now) {
    if (now < next_tag) return;
    const std::optional<sim::Aim> aim = client::AimAtNearest(shooter);
    if (aim && shooter.Tag(now, *aim)) next_tag = now + Micros(300'000);
  });
  int explained = 0;
  for (const Explanation& e : run.explanations()) {
    if (e.kind != GlitchKind::kTagMissSeenHit) continue;
    EXPECT_EQ(e.client, 0U);
    const Cause* technique = FindCause(e, CauseKind::kTechnique);
    ASSERT_NE(technique, nullptr) << e.line;
    EXPECT_NE(technique->text.find("lag compensation off"), std::string::npos) << e.line;
    ++explained;
  }
  EXPECT_GT(explained, 0) << "no tag seen hitting was judged a miss";
  run.ExpectEvidenceInJournal();
}

TEST(Explain, EveryCorrectionAndUnderrunOfALossyComparisonIsExplainedAtItsFrame) {
  server::ServerConfig config;
  config.collisions = false;
  config.shared_spawn = true;
  JournaledRun run(config, 3);
  transport::LinkSettings lossy;
  lossy.latency_ms = 75;
  lossy.loss = 0.05;
  lossy.duplicate = 0.05;
  const client::Preset presets[] = {client::Preset::kNaive, client::Preset::kPredicted,
                                    client::Preset::kFull};
  for (std::size_t i = 0; i < 3; ++i) {
    client::ClientConfig player = Player(std::string(client::ToString(presets[i])), 0);
    player.link = lossy;
    player.seed = 7;
    player.settings = client::PresetSettings(presets[i]);
    player.settings.redundancy = 1;  // so that lost inputs show
    run.Add(player);
  }
  ASSERT_TRUE(run.rig().ConnectAll());
  for (std::size_t i = 0; i < 3; ++i) {
    run.rig().SetButtons(i, [](Micros now) {
      const std::int64_t phase = (now.count() / 700'000) % 4;
      return static_cast<std::uint8_t>(phase == 0   ? sim::kRight
                                       : phase == 1 ? sim::kDown
                                       : phase == 2 ? sim::kLeft
                                                    : 0);
    });
  }
  run.Run(Micros(20'000'000));
  std::vector<std::uint64_t> corrections(3, 0);
  int counted = 0;
  for (const auto& [client, sample] : run.samples()) {
    if (sample.corrections > corrections[client]) {
      ++counted;
      const bool explained =
          std::any_of(run.explanations().begin(), run.explanations().end(), [&](const Explanation& e) {
            return e.client == client && e.frame == sample.frame && e.kind == GlitchKind::kCorrection;
          });
      EXPECT_TRUE(explained) << "client " << client << " frame " << sample.frame;
    }
    corrections[client] = sample.corrections;
  }
  EXPECT_GT(counted, 0);
  // Every underrun the journal holds has its explanation at the same frame.
  for (std::size_t client = 0; client < 3; ++client) {
    const EventRing& ring = run.journal().client(client);
    for (std::size_t i = 0; i < ring.size(); ++i) {
      if (ring.at(i).kind != EventKind::kUnderrun) continue;
      const bool explained =
          std::any_of(run.explanations().begin(), run.explanations().end(), [&](const Explanation& e) {
            return e.client == client && e.frame == ring.at(i).frame && e.kind == GlitchKind::kUnderrun;
          });
      EXPECT_TRUE(explained) << "underrun of client " << client << " at frame " << ring.at(i).frame;
    }
  }
  std::size_t unknown = 0;
  for (const Explanation& e : run.explanations()) {
    EXPECT_EQ(FindCause(e, CauseKind::kCollision), nullptr) << e.line;  // collisions are off
    EXPECT_EQ(FindCause(e, CauseKind::kLinkEvent), nullptr) << e.line;  // no script
    if (e.client == 2) {                                                // full: every technique on
      EXPECT_EQ(FindCause(e, CauseKind::kTechnique), nullptr) << e.line;
    }
    if (FindCause(e, CauseKind::kUnknown) != nullptr) {
      ++unknown;
      std::printf("unexplained: %s\n", e.line.c_str());
    }
  }
  RecordProperty("explanations", static_cast<int>(run.explanations().size()));
  RecordProperty("unknown", static_cast<int>(unknown));
  std::printf("lossy: %zu explanations, %zu with an unknown cause, %d corrections counted\n",
              run.explanations().size(), unknown, counted);
  run.ExpectEvidenceInJournal();
}

}  // namespace
}  // namespace netcube::timeline
