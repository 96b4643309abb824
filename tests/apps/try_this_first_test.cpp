// The README's "Try this first", step by step, as a newcomer does it in the lab's window: the lab on its
// defaults, the README's keys held for a second and let go, each checkbox, button and slider changed as
// its panel does, every step starting where the one before it left the lab. Each step's promise is
// checked in the frame samples the lab's --csv writes (one per frame and player).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "lab_branch.h"
#include "link_profiles.h"
#include "runner.h"

namespace netcube::apps {
namespace {

constexpr std::size_t kPlayer1 = 0;  // arrow keys, every technique
constexpr std::size_t kPlayer2 = 1;  // W A S D, none
constexpr std::uint8_t kNone = 0;
constexpr int kHoldFrames = 60;     // a key held for a second
constexpr int kReleaseFrames = 60;  // and a second to watch what follows
constexpr double kFrameMs = 1000.0 / 60.0;
constexpr double kRoundTripMs = 2.0 * gui::kLabDefaultLatencyMs;

// What one step did: player i's sample at each of its frames, and the frame its key was let go.
struct StepRun {
  std::vector<std::array<client::FrameSample, 2>> frames;
  int released = 0;

  std::vector<client::FrameSample> Of(std::size_t player) const {
    std::vector<client::FrameSample> samples;
    for (const auto& frame : frames) samples.push_back(frame[player]);
    return samples;
  }
};

// The first press's delay to motion, ms, if the drawn cube moved.
std::optional<double> PressDelay(const std::vector<client::FrameSample>& samples) {
  for (const client::FrameSample& s : samples) {
    if (s.press_delay_ms) return s.press_delay_ms;
  }
  return std::nullopt;
}

std::size_t MostPending(const std::vector<client::FrameSample>& samples) {
  std::size_t most = 0;
  for (const client::FrameSample& s : samples) most = std::max(most, s.pending_inputs);
  return most;
}

// The last frame (from the step's start) on which the drawn own cube moved.
int LastMotion(const std::vector<client::FrameSample>& samples) {
  int last = -1;
  for (std::size_t i = 1; i < samples.size(); ++i) {
    if (samples[i].drawn.x != samples[i - 1].drawn.x || samples[i].drawn.y != samples[i - 1].drawn.y)
      last = static_cast<int>(i);
  }
  return last;
}

double MeanKeysError(const std::vector<client::FrameSample>& samples) {
  return client::Summarize(samples).keys_error.mean;
}

// The lab as `netcube-client --lab` opens it, and a newcomer's hands on it.
class Newcomer {
 public:
  Newcomer() {
    std::string error;
    instance_ = LabInstance::Create(options_, options_.lab, std::nullopt, &error);
    EXPECT_NE(instance_, nullptr) << error;
  }

  gui::Lab& lab() { return instance_->lab(); }
  client::Client& player(std::size_t index) { return lab().player(index); }
  void Change(std::size_t index, bool client::Settings::*toggle, bool on) {
    client::Settings settings = player(index).settings();
    settings.*toggle = on;
    player(index).SetSettings(settings);
  }

  // Holds `keys` (player 1's, player 2's) for a second, then lets go for a second.
  StepRun Hold(std::uint8_t player1, std::uint8_t player2) {
    StepRun run;
    for (int i = 0; i < kHoldFrames + kReleaseFrames; ++i) {
      const bool held = i < kHoldFrames;
      Frame(held ? player1 : kNone, held ? player2 : kNone, run);
    }
    run.released = kHoldFrames;
    return run;
  }
  // Reads the README for `frames` frames, touching nothing.
  StepRun Wait(int frames) {
    StepRun run;
    for (int i = 0; i < frames; ++i) Frame(kNone, kNone, run);
    return run;
  }

  // The README's steps, each from where the one before left the lab.
  void Open() {
    const StepRun opened = Wait(120);  // both cubes known: the join takes two round trips
    ASSERT_TRUE(opened.frames.back()[kPlayer1].present);
    ASSERT_TRUE(opened.frames.back()[kPlayer2].present);
  }
  StepRun Step1() { return Hold(kNone, sim::kRight); }  // hold D
  StepRun Step2() { return Hold(sim::kRight, kNone); }  // hold →
  StepRun Step3() {
    Change(kPlayer1, &client::Settings::prediction, false);
    StepRun run = Hold(sim::kLeft, kNone);  // back the way step 2 went
    Change(kPlayer1, &client::Settings::prediction, true);
    return run;
  }
  StepRun Step4() {
    Change(kPlayer1, &client::Settings::reconciliation, false);
    StepRun run = Hold(sim::kRight, kNone);
    Change(kPlayer1, &client::Settings::reconciliation, true);
    return run;
  }
  // The "lossy" button after "Link:" in player 1's panel, its redundancy slider to 1, and a drive around.
  StepRun Step5() {
    std::string error;
    const auto profiles = LoadLinkProfiles(LinkProfilesPath(), &error);
    const auto lossy = transport::FindLinkProfile(profiles, "lossy");
    EXPECT_TRUE(lossy) << error;
    if (lossy) player(kPlayer1).SetLink(lossy->settings);
    client::Settings settings = player(kPlayer1).settings();
    settings.redundancy = 1;
    player(kPlayer1).SetSettings(settings);
    StepRun run;
    for (const std::uint8_t keys : {sim::kUp, sim::kLeft, sim::kDown, sim::kRight}) {
      for (int i = 0; i < kHoldFrames; ++i) Frame(keys, kNone, run);
    }
    for (int i = 0; i < kReleaseFrames; ++i) Frame(kNone, kNone, run);
    run.released = 4 * kHoldFrames;
    return run;
  }
  // Interpolation off in player 1's panel and player 2 driven (step6_keys), then on again and driven back.
  std::pair<StepRun, StepRun> Step6(std::uint8_t keys, std::uint8_t back) {
    Change(kPlayer1, &client::Settings::interpolation, false);
    StepRun off = Hold(kNone, keys);
    Change(kPlayer1, &client::Settings::interpolation, true);
    StepRun on = Hold(kNone, back);
    return {std::move(off), std::move(on)};
  }

 private:
  void Frame(std::uint8_t player1, std::uint8_t player2, StepRun& run) {
    const std::uint8_t held[] = {player1, player2};
    instance_->Step(held, tape_);
    run.frames.push_back({instance_->samples()[kPlayer1], instance_->samples()[kPlayer2]});
  }

  LabRunOptions options_;
  LabTape tape_;
  std::unique_ptr<LabInstance> instance_;
};

// Player 2's cube as player 1 draws it: the frames it jumped, and the frames it moved in truth.
struct Jumps {
  int jumps = 0;
  int moving = 0;
};
Jumps JumpsSeen(const StepRun& run, sim::PlayerId seen) {
  Jumps counted;
  for (const auto& frame : run.frames) {
    const client::FrameSample& s = frame[kPlayer1];
    counted.moving += s.remote_moving;
    if (s.jumped_cube == seen) ++counted.jumps;
  }
  return counted;
}

TEST(TryThisFirst, Step1PlayerTwoStartsARoundTripLateRunsOnAndItsPendingInputsFill) {
  Newcomer you;
  you.Open();
  const StepRun step = you.Step1();
  const std::vector<client::FrameSample> p2 = step.Of(kPlayer2);
  const std::optional<double> delay = PressDelay(p2);
  ASSERT_TRUE(delay);
  EXPECT_GE(*delay, kRoundTripMs);
  EXPECT_LE(*delay, kRoundTripMs + 150.0);  // the round trip, the frames and the server's input buffer
  // It runs on for about a round trip after the key is let go.
  EXPECT_GE((LastMotion(p2) - step.released) * kFrameMs, kRoundTripMs - 2.0 * kFrameMs);
  // The strip holds a round trip of inputs, 60 a second.
  EXPECT_GE(static_cast<double>(MostPending(p2)), kRoundTripMs / kFrameMs);
}

TEST(TryThisFirst, Step2PlayerOneMovesOnTheVeryFrameWithItsStripJustAsFull) {
  Newcomer you;
  you.Open();
  const std::size_t player2_pending = MostPending(you.Step1().Of(kPlayer2));
  const std::vector<client::FrameSample> p1 = you.Step2().Of(kPlayer1);
  EXPECT_EQ(PressDelay(p1), 0.0);
  EXPECT_NEAR(static_cast<double>(MostPending(p1)), static_cast<double>(player2_pending), 3.0);
  EXPECT_EQ(client::Summarize(p1).keys_error.max, 0.0);  // nothing waits: drawn where the keys put it
}

TEST(TryThisFirst, Step3WithoutPredictionPlayerOneWaitsLikePlayerTwo) {
  Newcomer you;
  you.Open();
  const std::vector<client::FrameSample> p2 = you.Step1().Of(kPlayer2);
  you.Step2();
  const std::vector<client::FrameSample> p1 = you.Step3().Of(kPlayer1);
  const std::optional<double> delay = PressDelay(p1);
  ASSERT_TRUE(delay);
  EXPECT_NEAR(*delay, *PressDelay(p2), 2.0 * kFrameMs);
  EXPECT_NEAR(MeanKeysError(p1), MeanKeysError(p2), 0.15 * MeanKeysError(p2));
  EXPECT_TRUE(you.player(kPlayer1).settings().prediction);  // ticked again
}

TEST(TryThisFirst, Step4WithoutReconciliationSnapshotsPutTheCubeBackAsLateAsNoPrediction) {
  Newcomer you;
  you.Open();
  you.Step1();
  you.Step2();
  const std::vector<client::FrameSample> unpredicted = you.Step3().Of(kPlayer1);
  const std::uint64_t snapshots = you.player(kPlayer1).metrics().snapshots_received;
  const StepRun step = you.Step4();
  const std::vector<client::FrameSample> p1 = step.Of(kPlayer1);
  // Most snapshots of the held second (half the step) are corrections: the prediction put back at the
  // server's state.
  const std::uint64_t corrections = p1.back().corrections - p1.front().corrections;
  EXPECT_GE(static_cast<double>(corrections),
            0.25 * static_cast<double>(you.player(kPlayer1).metrics().snapshots_received - snapshots));
  // Drawn behind where the server has the cube now (prediction draws it ahead), while → is held.
  int behind = 0;
  for (int i = 0; i < step.released; ++i) {
    const client::FrameSample& s = p1[static_cast<std::size_t>(i)];
    if (s.drawn.x < s.server.x - 0.5) ++behind;
  }
  EXPECT_GE(behind, step.released / 2);
  // As far behind the keys as without prediction.
  EXPECT_GE(MeanKeysError(p1), 0.8 * MeanKeysError(unpredicted));
  EXPECT_TRUE(you.player(kPlayer1).settings().reconciliation);
}

TEST(TryThisFirst, Step5OnALossyLinkWithRedundancyOneLostInputsBecomeSmoothedCorrections) {
  Newcomer you;
  you.Open();
  you.Step1();
  you.Step2();
  you.Step3();
  const std::uint64_t before = you.player(kPlayer1).metrics().corrections;
  const std::vector<client::FrameSample> p1 = you.Step5().Of(kPlayer1);
  const client::SampleSummary summary = client::Summarize(p1);
  EXPECT_GE(p1.back().corrections - before, 3U);
  EXPECT_GT(summary.correction_max, 0.0);
  // Smoothed over 100 ms: the drawn cube never steps farther in a frame than two ticks of motion (a
  // paced sampling clock's second input in a frame), whatever the correction.
  double largest_step = 0.0;
  for (std::size_t i = 1; i < p1.size(); ++i) {
    largest_step = std::max(largest_step,
                            std::hypot(p1[i].drawn.x - p1[i - 1].drawn.x, p1[i].drawn.y - p1[i - 1].drawn.y));
  }
  EXPECT_LE(largest_step, 2.0 * client::kTopSpeedUnitsPerS / 60.0 + 0.01);
}

TEST(TryThisFirst, Step6WithoutInterpolationPlayerTwoJumpsAsPlayerOneSeesIt) {
  Newcomer you;
  you.Open();
  you.Step1();
  you.Step2();
  you.Step3();
  you.Step4();
  you.Step5();
  const sim::PlayerId player2 = *you.player(kPlayer2).player_id();
  const auto [off, on] = you.Step6(sim::kDown, sim::kUp);  // hold S (D pinned it to the wall), then W
  const Jumps without = JumpsSeen(off, player2);
  const Jumps with = JumpsSeen(on, player2);
  EXPECT_GE(without.moving, kHoldFrames);
  EXPECT_GE(with.moving, kHoldFrames);
  RecordProperty("jumps_without_interpolation", without.jumps);
  RecordProperty("jumps_with_interpolation", with.jumps);
  EXPECT_GE(without.jumps, 10) << "in " << without.moving << " moving frames";
  EXPECT_EQ(with.jumps, 0) << "in " << with.moving << " moving frames";
}

}  // namespace
}  // namespace netcube::apps
