// Tags from real clients over real loopback, on a virtual clock: the shooter aims at a cube exactly where
// it draws it; the server judges with or without lag compensation; both players count and measure.
#include <cmath>

#include "loopback_test.h"
#include "netcube/client/bot.h"

namespace netcube::client {
namespace {

// A shooter at rest and a target running down for a second, then up for a second, both 250 ms round trip
// from the server (125 ms each way), cubes passing through each other.
class Tagging : public ::testing::Test {
 protected:
  void SetUp() override {
    server::ServerConfig config;
    config.collisions = false;
    rig_ = StartRig(config);
    ClientConfig far = Named("shooter", PresetSettings(Preset::kFull));
    far.link.latency_ms = 125;
    shooter_ = &AddPlayer(*rig_, far);
    far.name = "target";
    target_ = &AddPlayer(*rig_, far);
    ASSERT_TRUE(rig_->ConnectAll());
    rig_->SetButtons(1, [](Micros now) {
      return static_cast<std::uint8_t>((now.count() / 1'000'000) % 2 == 0 ? sim::kDown : sim::kUp);
    });
    rig_->StepFor(milliseconds(1500));
  }

  // Fires late in a second of the target's script (so that it runs at full speed both where the shooter
  // draws it and when the tag is judged) at the target exactly as drawn; returns the judged shot.
  std::optional<ShotView> Fire() {
    EXPECT_TRUE(rig_->StepUntil([&] {
      const auto phase = rig_->now().count() % 1'000'000;
      return phase >= 820'000 && phase < 960'000;
    }));
    const RemoteView* drawn = FindRemote(*shooter_, *target_->player_id());
    if (drawn == nullptr) return std::nullopt;
    const Vec2 toward = drawn->drawn - shooter_->local().predicted;
    if (!shooter_->Tag(rig_->now(), sim::AimToward(toward.x, toward.y))) return std::nullopt;
    const std::uint8_t shot = shooter_->shots().back().shot;
    const auto judged = [&]() -> const ShotView* {
      for (const ShotView& s : shooter_->shots()) {
        if (s.shot == shot && s.judged) return &s;
      }
      return nullptr;
    };
    if (!rig_->StepUntil([&] { return judged() != nullptr; }, milliseconds(2000))) return std::nullopt;
    const ShotView result = *judged();
    rig_->StepFor(milliseconds(100));
    return result;
  }

  std::unique_ptr<testing::LoopbackRig> rig_;
  Client* shooter_ = nullptr;
  Client* target_ = nullptr;
};

TEST_F(Tagging, AimingAtAMovingCubeAsDrawnHitsWithCompensationAndMissesWithout) {
  for (int i = 0; i < 4; ++i) {
    const std::optional<ShotView> shot = Fire();
    ASSERT_TRUE(shot.has_value());
    EXPECT_EQ(shot->outcome, protocol::TagOutcome::kHit) << "tag " << i;
    EXPECT_EQ(shot->target, *target_->player_id());
    // Down 125 ms + the interpolation delay + up 125 ms, give or take a snapshot interval.
    EXPECT_GT(shot->rewind_ms, 250.0 + shooter_->metrics().interp_delay_ms - 60.0);
    EXPECT_LT(shot->rewind_ms, 250.0 + shooter_->metrics().interp_delay_ms + 60.0);
  }
  rig_->server().SetLagCompensation(false);
  for (int i = 0; i < 4; ++i) {
    const std::optional<ShotView> shot = Fire();
    ASSERT_TRUE(shot.has_value());
    EXPECT_EQ(shot->outcome, protocol::TagOutcome::kMiss) << "tag " << i;
  }
  rig_->StepFor(milliseconds(500));
  const Metrics shooter = shooter_->metrics();
  const Metrics target = target_->metrics();
  EXPECT_EQ(shooter.tags_fired, 8u);
  EXPECT_EQ(shooter.tags_hit, 4u);
  EXPECT_EQ(shooter.tags_missed, 4u);
  EXPECT_EQ(target.tags_taken, 4u);
  EXPECT_EQ(shooter.tags_taken, 0u);

  // The other side: the target had left the spot where it was hit well before it heard of the tag, by
  // about the whole chain (its input up, the shooter's view of it, the tag up, the result down).
  EXPECT_EQ(target.victim_view_samples, 4u);
  EXPECT_GT(target.victim_view_ms_mean, 400.0);
  EXPECT_LT(target.victim_view_ms_max, 900.0);
}

TEST_F(Tagging, TheCooldownHoldsOnTheClientAndFlashesFade) {
  const RemoteView* drawn = FindRemote(*shooter_, *target_->player_id());
  ASSERT_NE(drawn, nullptr);
  EXPECT_TRUE(shooter_->Tag(rig_->now(), 0));
  EXPECT_FALSE(shooter_->Tag(rig_->now() + milliseconds(100), 0));
  rig_->StepFor(milliseconds(sim::kTagCooldownMs));
  EXPECT_TRUE(shooter_->Tag(rig_->now(), 0));
  EXPECT_EQ(shooter_->metrics().tags_fired, 2u);
  ASSERT_TRUE(
      rig_->StepUntil([&] { return shooter_->metrics().tags_hit + shooter_->metrics().tags_missed == 2; }));
  EXPECT_LE(shooter_->shots().size(), kMaxShotViews);
  rig_->StepFor(kTagDisplayTime + milliseconds(50));
  EXPECT_TRUE(shooter_->shots().empty());
  EXPECT_TRUE(shooter_->tag_flashes().empty());
}

// The view starts at the client's first snapshot, and a cube appears when the render time reaches its
// join: whatever a player sees is somewhere the server's history has it, so a tag at the first frame a cube
// is drawn hits like any other (it used to be drawn at its first state at render times before its join).
TEST(TaggingFromTheFirstFrame, ACubeCanBeTaggedTheMomentItIsDrawn) {
  server::ServerConfig config;
  config.collisions = false;
  std::unique_ptr<testing::LoopbackRig> rig = StartRig(config);
  ClientConfig far = Named("shooter", PresetSettings(Preset::kFull));
  far.link.latency_ms = 125;
  Client& shooter = AddPlayer(*rig, far);
  ASSERT_TRUE(rig->ConnectAll());
  rig->StepFor(milliseconds(500));
  far.name = "target";
  Client& target = AddPlayer(*rig, far);
  rig->SetButtons(1, [](Micros) { return sim::kRight; });

  // From the target's join on, every frame: the shooter draws it only at render times after its join.
  std::optional<double> first_drawn_at;
  ASSERT_TRUE(rig->StepUntil(
      [&] {
        const std::optional<sim::PlayerId> id = target.player_id();
        if (!id) return false;
        const RemoteView* drawn = FindRemote(shooter, *id);
        if (drawn == nullptr) return false;
        EXPECT_NE(drawn->sample, SampleKind::kBeforeOldest);
        first_drawn_at = shooter.render_tick();
        const Vec2 toward = drawn->drawn - shooter.local().predicted;
        EXPECT_TRUE(shooter.Tag(rig->now(), sim::AimToward(toward.x, toward.y)));
        return true;
      },
      milliseconds(3000)));
  ASSERT_TRUE(rig->StepUntil([&] { return !shooter.shots().empty() && shooter.shots().back().judged; },
                             milliseconds(2000)));
  EXPECT_EQ(shooter.shots().back().outcome, protocol::TagOutcome::kHit);
  EXPECT_EQ(shooter.shots().back().target, *target.player_id());
}

TEST(TagScript, BotsTagTheNearestCubeAsDrawn) {
  server::ServerConfig config;
  config.collisions = false;
  const auto rig = StartRig(config);
  BotConfig bot;
  bot.port = rig->server().port();
  bot.count = 3;
  bot.duration_s = 3.0;
  std::string error;
  const std::optional<InputScript> script = InputScript::Parse("random", &error);
  ASSERT_TRUE(script.has_value()) << error;
  bot.script = *script;
  bot.tag_interval_ms = 300;
  std::unique_ptr<BotRun> run = BotRun::Start(bot, rig->now(), &error);
  ASSERT_NE(run, nullptr) << error;
  bool running = true;
  rig->StepUntil([&] { return !running; }, Micros(30'000'000), [&] { running = run->Update(rig->now()); });
  ASSERT_FALSE(run->failure().has_value()) << *run->failure();
  const BotReport report = run->Report();
  std::uint64_t fired = 0;
  std::uint64_t hit = 0;
  for (const BotPlayerReport& p : report.players) {
    fired += p.metrics.tags_fired;
    hit += p.metrics.tags_hit;
    EXPECT_EQ(p.metrics.tags_refused, 0u);
  }
  // About 10 each in 3 s; on a LAN every one of them hits what was drawn.
  EXPECT_GE(fired, 20u);
  EXPECT_EQ(rig->server().stats().tags_judged, fired);
  EXPECT_GE(static_cast<double>(hit), 0.95 * static_cast<double>(fired));
}

// A tag by hand with the cube at rest and no point aimed at (Space with the mouse off the arena) goes where
// the player last looked, never along +x for want of a better idea: toward the other cube before the own
// one has moved, along its last motion once it stopped, and along the last tag's aim after that.
TEST(HandAim, AtRestATagGoesWhereTheCubeLastFaced) {
  server::ServerConfig config;
  config.collisions = false;
  const auto rig = StartRig(config);
  Client& shooter = AddPlayer(*rig, Named("shooter", PresetSettings(Preset::kFull)));
  Client& other = AddPlayer(*rig, Named("other", PresetSettings(Preset::kFull)));
  ASSERT_TRUE(rig->ConnectAll());
  rig->StepFor(milliseconds(500));
  const RemoteView* seen = FindRemote(shooter, *other.player_id());
  ASSERT_NE(seen, nullptr);
  EXPECT_FALSE(shooter.local().facing.has_value());
  const Vec2 toward = seen->drawn - shooter.local().predicted;
  EXPECT_EQ(HandAim(shooter, std::nullopt), sim::AimToward(toward.x, toward.y));

  // Up for 300 ms, then at rest: the cube faces up.
  rig->SetButtons(0, [start = rig->now()](Micros now) {
    return static_cast<std::uint8_t>(now - start < milliseconds(300) ? sim::kUp : 0);
  });
  rig->StepFor(milliseconds(1500));
  ASSERT_EQ(shooter.local().predicted_state.vy, 0);
  EXPECT_EQ(HandAim(shooter, std::nullopt), sim::AimToward(0.0, -1.0));

  // A tag toward a point to the left: the cube faces that way until it moves.
  const Vec2 left = shooter.local().predicted - Vec2{5.0, 0.0};
  const sim::Aim aim = HandAim(shooter, left);
  EXPECT_EQ(aim, sim::AimToward(-1.0, 0.0));
  ASSERT_TRUE(shooter.Tag(rig->now(), aim));
  rig->StepFor(milliseconds(100));
  EXPECT_EQ(HandAim(shooter, std::nullopt), aim);
}

}  // namespace
}  // namespace netcube::client
