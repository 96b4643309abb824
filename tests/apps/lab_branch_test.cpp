// The lab's time machine in process: a branch gone back to a frame, forward again, or resumed from it shows
// each frame as the live run did (the hands, a panel's change and a tag by hand replayed from the tape), a
// paused frame's panel changes are put back, one made while the tape plays goes on it, a Reconnect pressed
// after a player lost the server is on the tape too, and a fork from a frame of a comparison shares its past
// with the original and changes its future.
#include "lab_branch.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "compare_csv.h"
#include "netcube/client/input_script.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/timeline/link_script.h"
#include "runner.h"

namespace netcube::apps {
namespace {

// What a frame of the lab shows and measures, every double at full precision.
std::string Digest(gui::Lab& lab) {
  std::ostringstream out;
  out.precision(17);
  out << lab.server().tick() << ':';
  for (const sim::PlayerCube& cube : lab.server().world())
    out << int{cube.id} << ' ' << cube.state.x << ' ' << cube.state.y << ' ' << cube.state.last_input << ';';
  for (std::size_t i = 0; i < lab.players(); ++i) {
    const client::Client& player = lab.player(i);
    const client::Metrics m = player.metrics();
    out << '|' << player.local().drawn.x << ' ' << player.local().drawn.y << ' ' << player.render_tick()
        << ' ' << client::TechniquesOf(player.settings());
    for (const client::RemoteView& remote : player.remotes())
      out << ' ' << remote.drawn.x << ',' << remote.drawn.y;
    out << ' ' << m.snapshots_received << ' ' << m.corrections << ' ' << m.interp_delay_ms << ' '
        << m.bytes_down << ' ' << m.tags_hit << ' ' << m.tags_taken << ' ' << player.shots().size();
  }
  out << " explained " << lab.timeline().explanations().size();
  return out.str();
}

class Keys {
 public:
  Keys() {
    std::string error;
    scripts_ = {*client::InputScript::Parse("random", &error), *client::InputScript::Parse("circle", &error)};
  }
  // The buttons of frame `frame` for each player (a comparison's players all take the first script's).
  void Fill(std::int64_t frame, std::vector<std::uint8_t>& held, bool shared) const {
    const Micros now = gui::VirtualFrameTime(static_cast<int>(frame));
    for (std::size_t i = 0; i < held.size(); ++i)
      held[i] = scripts_[shared ? 0 : i % 2].ButtonsAt(now, shared ? 1 : i + 1);
  }

 private:
  std::vector<client::InputScript> scripts_;
};

transport::LinkSettings Bumpy() {
  transport::LinkSettings link;
  link.latency_ms = 80.0;
  link.jitter_ms = 15.0;
  link.loss = 0.05;
  return link;
}

constexpr std::int64_t kFrames = 600;
constexpr std::int64_t kPanelChangeFrame = 200;
constexpr std::int64_t kHandTagFrame = 300;

TEST(LabBranch, GoingBackForwardAndResumingShowsEachFrameAsTheLiveRunDid) {
  LabRunOptions options;
  options.journal = true;
  for (gui::LabPlayer& player : options.lab.players) player.client.link = Bumpy();
  options.lab.tag_interval_ms = 700;
  LabBranch branch(options, options.lab, std::nullopt, {});
  std::string error;
  ASSERT_TRUE(branch.Start(&error)) << error;
  const Keys keys;
  std::vector<std::string> live;
  for (std::int64_t frame = 0; frame < kFrames; ++frame) {
    ASSERT_TRUE(branch.Step([&](std::vector<std::uint8_t>& held) { keys.Fill(frame, held, false); }));
    gui::Lab& lab = branch.shown().lab();
    // As the window would: a preset button in player 2's panel, a tag by hand of player 1.
    if (frame == kPanelChangeFrame) lab.player(1).SetSettings(client::PresetSettings(client::Preset::kFull));
    if (frame == kHandTagFrame) lab.TagByHand(gui::VirtualFrameTime(static_cast<int>(frame)), {0, {}});
    branch.KeepDrawn(lab.TakeHandTags(), lab.TakeReconnects());
    live.push_back(Digest(lab));
  }
  ASSERT_EQ(branch.tape().player_changes.size(), 1U);
  ASSERT_EQ(branch.tape().hands.hand_tags.size(), 1U);
  EXPECT_NE(live[kHandTagFrame + 30], live[kHandTagFrame - 30]);

  // Back (a fresh lab from the start), forward (the same lab on), back again, each to the live frame.
  for (const std::int64_t target :
       {std::int64_t{450}, std::int64_t{520}, std::int64_t{150}, kPanelChangeFrame}) {
    ASSERT_TRUE(branch.SeekTo(target, &error)) << error;
    ASSERT_EQ(branch.frame(), target);
    ASSERT_EQ(Digest(branch.shown().lab()), live[static_cast<std::size_t>(target)]) << "frame " << target;
  }
  // A change in a paused frame's panel is put back.
  branch.shown().lab().player(0).SetSettings(client::PresetSettings(client::Preset::kNaive));
  branch.UndoDrawn();
  EXPECT_EQ(Digest(branch.shown().lab()), live[kPanelChangeFrame]);
  // A server tick forward and back: the tick changes, and the frame is the nearest one.
  const std::int64_t tick_later = branch.FrameOfTickStep(1);
  EXPECT_GT(tick_later, branch.frame());
  EXPECT_LE(tick_later, branch.frame() + 2);

  // Resumed: the tape plays to its end (the same frames again), then the hands are live.
  bool went_live = false;
  while (!went_live) {
    went_live =
        branch.Step([&](std::vector<std::uint8_t>& held) { keys.Fill(branch.frame() + 1, held, false); });
    if (!went_live) {
      ASSERT_EQ(Digest(branch.shown().lab()), live[static_cast<std::size_t>(branch.frame())]);
    }
  }
  EXPECT_EQ(branch.frame(), kFrames);
  EXPECT_EQ(branch.edge(), kFrames + 1);

  // A panel's change while the tape plays goes on it at its frame: the run has it from there on.
  ASSERT_TRUE(branch.SeekTo(400, &error)) << error;
  branch.Step(nullptr);
  branch.shown().lab().player(0).SetSettings(client::PresetSettings(client::Preset::kNaive));
  branch.KeepDrawn({}, {});
  ASSERT_EQ(branch.tape().player_changes.size(), 2U);
  EXPECT_EQ(branch.tape().player_changes.back().frame, 401);
  ASSERT_TRUE(branch.SeekTo(100, &error)) << error;
  EXPECT_EQ(branch.shown().lab().player(0).settings(), client::PresetSettings(client::Preset::kFull));
  ASSERT_TRUE(branch.SeekTo(450, &error)) << error;
  EXPECT_EQ(branch.shown().lab().player(0).settings(), client::PresetSettings(client::Preset::kNaive));
}

TEST(LabBranch, AReconnectPressedAfterTheServerWasLostIsReplayedBySeeks) {
  // Player 1's link blacks out for 1.5 s from 1 s: it hears nothing for longer than its 1 s timeout and
  // loses the server; its Reconnect is pressed at 4 s (the link is back) and the run goes on to 8 s.
  constexpr std::int64_t kReconnectFrame = 240;
  constexpr std::int64_t kLast = 480;
  LabRunOptions options;
  options.lab.players[0].client.timeout_ms = 1000;
  std::string error;
  auto script = timeline::ParseLinkScript("1s blackout 1500ms client 1", &error);
  ASSERT_TRUE(script) << error;
  options.link_script = std::move(*script);
  LabBranch branch(options, options.lab, std::nullopt, {});
  ASSERT_TRUE(branch.Start(&error)) << error;
  const Keys keys;
  std::vector<std::string> live;
  for (std::int64_t frame = 0; frame < kLast; ++frame) {
    ASSERT_TRUE(branch.Step([&](std::vector<std::uint8_t>& held) { keys.Fill(frame, held, false); }));
    gui::Lab& lab = branch.shown().lab();
    // As the button in player 1's panel does, pressed as this frame is drawn.
    std::vector<std::size_t> pressed;
    if (frame == kReconnectFrame) {
      ASSERT_EQ(lab.player(0).state(), client::ConnectionState::kLost);
      lab.Reconnect(0, gui::VirtualFrameTime(static_cast<int>(frame)));
      pressed.push_back(0);
    }
    branch.KeepDrawn(lab.TakeHandTags(), pressed);
    live.push_back(Digest(lab) + " " + client::ToString(lab.player(0).state()));
  }
  ASSERT_EQ(branch.tape().reconnects.size(), 1U);
  EXPECT_EQ(branch.tape().reconnects.front().frame, kReconnectFrame);
  EXPECT_EQ(branch.shown().lab().player(0).state(), client::ConnectionState::kConnected);

  // Back before the press (a fresh lab: lost again), then past it: the tape presses Reconnect at its frame.
  for (const std::int64_t target :
       {std::int64_t{200}, kReconnectFrame, std::int64_t{400}, std::int64_t{100}, kLast - 1}) {
    ASSERT_TRUE(branch.SeekTo(target, &error)) << error;
    ASSERT_EQ(Digest(branch.shown().lab()) + " " + client::ToString(branch.shown().lab().player(0).state()),
              live[static_cast<std::size_t>(target)])
        << "frame " << target;
  }
  EXPECT_EQ(branch.shown().lab().player(0).state(), client::ConnectionState::kConnected);
}

TEST(LabBranch, AForkFromAFrameOfAComparisonSharesItsPastAndChangesItsFuture) {
  const std::vector<client::TechniqueSet> entries = {
      {"naive", client::PresetSettings(client::Preset::kNaive)},
      {"full", client::PresetSettings(client::Preset::kFull)}};
  LabRunOptions options;
  options.compare = true;
  options.lab = gui::CompareLabConfig(entries, Bumpy(), 7);
  LabBranch original(options, options.lab, std::nullopt, {});
  std::string error;
  ASSERT_TRUE(original.Start(&error)) << error;
  const Keys keys;
  std::vector<client::FrameSample> samples;  // entry 0's, frame by frame
  constexpr std::int64_t kForkFrame = 200;
  for (std::int64_t frame = 0; frame < kFrames; ++frame) {
    original.Step([&](std::vector<std::uint8_t>& held) { keys.Fill(frame, held, true); });
    samples.push_back(original.shown().samples()[0]);
  }
  ASSERT_TRUE(original.SeekTo(kForkFrame, &error)) << error;
  LabFork change;
  change.with = client::TechniqueSet{"predicted", client::PresetSettings(client::Preset::kPredicted)};
  const std::unique_ptr<LabBranch> fork = original.ForkAt(change, &error);
  ASSERT_NE(fork, nullptr) << error;
  ASSERT_EQ(fork->frame(), kForkFrame);
  ASSERT_EQ(fork->shown().lab().players(), 4U);
  ASSERT_EQ(fork->fork()->frame, kForkFrame + 1);

  // The fork replays the original's hands to the tape's end; entry 0 and its copy are one until the fork.
  int differing = 0;
  // Its bytes down aside: the copy joined after its original, and was told of the players already there in
  // one PlayerJoined where its original heard of them one by one.
  const auto row = [&](std::size_t player) {
    client::FrameSample sample = fork->shown().samples()[player];
    sample.bytes_down = 0;
    return CompareCsvRow("entry", "", sample);
  };
  EXPECT_EQ(row(1), row(0));
  while (fork->frame() + 1 < kFrames) {
    ASSERT_FALSE(fork->Step(nullptr)) << "the tape holds these frames";
    // The fork's original entry draws its own cube as in the original run (what it measures over the other
    // cubes changes: the fork has more of them, and a comparison's cubes part on the server, as each entry's
    // snapshot rate paces its inputs).
    const client::FrameSample& now = fork->shown().samples()[0];
    const client::FrameSample& was = samples[static_cast<std::size_t>(fork->frame())];
    ASSERT_EQ(now.drawn, was.drawn) << fork->frame();
    ASSERT_EQ(now.server, was.server) << fork->frame();
    ASSERT_EQ(now.own_error, was.own_error) << fork->frame();
    ASSERT_EQ(now.interp_delay_ms, was.interp_delay_ms) << fork->frame();
    if (row(1) != row(0)) ++differing;
  }
  EXPECT_GT(differing, 30) << "naive forked to predicted draws its own cube elsewhere";

  // The default lab is no comparison: its players collide and have their own keys.
  LabRunOptions lab_options;
  LabBranch lab(lab_options, lab_options.lab, std::nullopt, {});
  ASSERT_TRUE(lab.Start(&error)) << error;
  lab.Step(nullptr);
  EXPECT_EQ(lab.ForkAt(change, &error), nullptr);
  EXPECT_NE(error.find("comparison"), std::string::npos) << error;
}

}  // namespace
}  // namespace netcube::apps
