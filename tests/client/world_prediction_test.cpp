#include "world_prediction.h"

#include <gtest/gtest.h>

#include <vector>

namespace netcube::client {
namespace {

constexpr sim::PlayerId kOwn = 1;

// Three cubes: the own one at rest, one gliding right into it (collisions), one turning down.
std::vector<sim::PlayerCube> World() {
  std::vector<sim::PlayerCube> world(3);
  world[0].id = kOwn;
  world[0].state.x = 20 * sim::kSubUnitsPerUnit;
  world[0].state.y = 10 * sim::kSubUnitsPerUnit;
  world[1].id = 4;
  world[1].state.x = 14 * sim::kSubUnitsPerUnit;
  world[1].state.y = 10 * sim::kSubUnitsPerUnit;
  world[1].state.vx = sim::kMaxSpeed;
  world[1].state.buttons = sim::kRight;
  world[2].id = 9;
  world[2].state.x = 40 * sim::kSubUnitsPerUnit;
  world[2].state.y = 20 * sim::kSubUnitsPerUnit;
  world[2].state.vx = 100;
  world[2].state.buttons = sim::kDown;
  return world;
}

// The own cube's inputs after the snapshot: up and left, then left.
void PushInputs(PendingInputs& pending, int count) {
  for (int i = 0; i < count; ++i) {
    const auto seq = static_cast<sim::Seq>(100 + pending.size());
    const std::uint8_t buttons = pending.size() < 5 ? sim::kUp | sim::kLeft : sim::kLeft;
    pending.Push({sim::Input{seq, buttons}, {}});
  }
}

// The same world stepped tick by tick by hand: the own cube's inputs one a tick, the others holding theirs.
std::vector<sim::PlayerCube> Straight(std::vector<sim::PlayerCube> world, const PendingInputs& pending,
                                      int ticks) {
  sim::OverlapResolver resolver;
  for (int k = 0; k < ticks; ++k) {
    std::vector<sim::Input> inputs(world.size());
    std::vector<sim::PlayerStep> steps;
    for (std::size_t i = 0; i < world.size(); ++i) {
      sim::CubeState& s = world[i].state;
      if (world[i].id == kOwn) {
        if (static_cast<std::size_t>(k) >= pending.size()) continue;
        inputs[i] = pending[static_cast<std::size_t>(k)].input;
      } else {
        inputs[i] = sim::Input{static_cast<sim::Seq>(s.last_input + 1), s.buttons};
      }
      steps.push_back({&world[i], std::span<const sim::Input>(&inputs[i], 1)});
    }
    sim::StepWorld(world, steps, true, sim::kStandardArena, resolver);
  }
  return world;
}

WorldPrediction::Frame FrameAt(double present, const PendingInputs& pending, int window = 60) {
  WorldPrediction::Frame frame;
  frame.present_tick = present;
  frame.own = kOwn;
  frame.pending = &pending;
  frame.window_ticks = window;
  frame.smoothing = false;
  return frame;
}

TEST(WorldPrediction, IncrementalAndRolledBackEqualOneStraightSimulation) {
  const std::vector<sim::PlayerCube> world = World();
  PendingInputs pending;
  WorldPrediction prediction;
  // An older snapshot first, simulated far ahead, so the next one rolls back over it.
  std::vector<sim::PlayerCube> older = world;
  older[1].state.x -= 3 * sim::kMaxSpeed;
  prediction.OnSnapshot(97, older);
  prediction.Predict(FrameAt(110.0, pending));

  prediction.OnSnapshot(100, world);
  // Frame by frame: the present moves on a tick and the own cube gets an input per frame.
  for (int frame = 0; frame < 12; ++frame) {
    PushInputs(pending, 1);
    prediction.Predict(FrameAt(100.0 + frame + 0.5, pending));
  }
  const std::uint64_t incremental_ticks = prediction.metrics().ticks_simulated;

  const std::vector<sim::PlayerCube> straight = Straight(world, pending, 12);
  ASSERT_TRUE(prediction.own_state().has_value());
  EXPECT_EQ(*prediction.own_state(), straight[0].state);
  // The cube gliding right met the own cube: pushed, as the server would push it.
  EXPECT_NE(straight[0].state.x, Straight(std::vector<sim::PlayerCube>{world[0]}, pending, 12)[0].state.x);

  // Remote cubes at the present (111.5): halfway between the straight simulation's ticks 11 and 12.
  const std::vector<sim::PlayerCube> at11 = Straight(world, pending, 11);
  ASSERT_TRUE(prediction.others_predicted());
  for (std::size_t i = 1; i < world.size(); ++i) {
    const std::optional<Vec2> drawn = prediction.RemoteAt(world[i].id);
    ASSERT_TRUE(drawn.has_value());
    const Vec2 expected = (PositionOf(at11[i].state) + PositionOf(straight[i].state)) * 0.5;
    EXPECT_NEAR(drawn->x, expected.x, 1e-9);
    EXPECT_NEAR(drawn->y, expected.y, 1e-9);
  }

  // A fresh room given the whole queue at once lands on the same world; the incremental one re-simulated
  // only from each new input on (plus the margin), not everything every frame.
  WorldPrediction once;
  once.OnSnapshot(100, world);
  once.Predict(FrameAt(111.5, pending));
  EXPECT_EQ(*once.own_state(), *prediction.own_state());
  EXPECT_EQ(once.RemoteAt(9)->x, prediction.RemoteAt(9)->x);
  EXPECT_LT(incremental_ticks, 12u * 14u / 2u);
}

TEST(WorldPrediction, ASnapshotRollsBackAndItsMispredictionIsSmoothed) {
  std::vector<sim::PlayerCube> world = World();
  PendingInputs pending;
  WorldPrediction prediction;
  WorldPrediction::Frame frame = FrameAt(105.0, pending);
  frame.smoothing = true;
  prediction.OnSnapshot(100, world);
  prediction.Predict(frame);
  const Vec2 before = *prediction.RemoteAt(9);
  // Cube 9 let go of its key at tick 100: the next snapshot (tick 101) says it slows instead.
  world[2].state.buttons = 0;
  prediction.OnSnapshot(100, world);
  prediction.Predict(frame);
  EXPECT_EQ(prediction.metrics().rollbacks, 2u);
  EXPECT_EQ(prediction.metrics().remote_corrections, 1u);  // only cube 9 moved at the present
  EXPECT_GT(prediction.metrics().remote_correction_max, 0.0);
  // Drawn where it was: the jump became the smoothing offset, which then decays.
  EXPECT_NEAR(prediction.RemoteAt(9)->x, before.x, 1e-9);
  EXPECT_NEAR(prediction.RemoteAt(9)->y, before.y, 1e-9);
  prediction.AdvanceSmoothing(Micros(200'000), frame);
  EXPECT_NE(prediction.RemoteAt(9)->y, before.y);
}

TEST(WorldPrediction, NothingIsSimulatedBeyondTheWindow) {
  const std::vector<sim::PlayerCube> world = World();
  PendingInputs pending;
  PushInputs(pending, 20);
  WorldPrediction prediction;
  prediction.OnSnapshot(100, world);
  // The present 12 ticks ahead, the own cube's inputs 20: a window of 8 holds neither.
  prediction.Predict(FrameAt(112.0, pending, 8));
  EXPECT_FALSE(prediction.others_predicted());
  EXPECT_FALSE(prediction.RemoteAt(4).has_value());
  EXPECT_FALSE(prediction.own_state().has_value());
  EXPECT_EQ(prediction.metrics().ticks_simulated, 8u);
  // A window of 16 holds the present (others predicted) but not the own cube's 20 inputs.
  prediction.OnSnapshot(100, world);
  prediction.Predict(FrameAt(112.0, pending, 16));
  EXPECT_TRUE(prediction.others_predicted());
  EXPECT_FALSE(prediction.own_state().has_value());
  EXPECT_EQ(prediction.metrics().ticks_simulated, 8u + 16u);
}

}  // namespace
}  // namespace netcube::client
