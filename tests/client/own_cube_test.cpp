// The own cube's fixed-step sampling against a frame clock at the tick rate, and what it sends when the
// server dropped its last inputs for good.
#include "own_cube.h"

#include <gtest/gtest.h>

#include <vector>

#include "netcube/sim/move.h"

namespace netcube::client {
namespace {

// The lab's virtual clock puts frame i at i/60 s in whole microseconds (16,666, 33,333, 50,000, ...), a
// fraction of a microsecond before each sampling interval ends. Unpaced, every frame takes one sample: taken
// a frame late, one would leave the drawn cube still for a frame and then step it twice.
TEST(OwnCube, AFrameClockAtTheTickRateTakesOneSampleEveryFrame) {
  OwnCube cube;
  cube.OnServerState(sim::CubeState{}, false, 0, Settings{});
  cube.StartSampling(Micros{0}, sim::kStandardArena);
  int sent = 0;
  const OwnCube::Send send = [&sent](const protocol::InputMessage&) {
    ++sent;
    return true;
  };
  for (int frame = 0; frame <= 600; ++frame) {
    cube.Sample(Micros(std::int64_t{frame} * 1'000'000 / 60), sim::kRight, 1, 1, send);
    ASSERT_EQ(sent, frame + 1) << "frame " << frame;
  }
}

// The server's queue was full when the player's last inputs came (a burst after a stall): it dropped them
// for good and acknowledged only the ones before. At rest, the client would send nothing more and wait
// forever; after a second of samples it sends one no-key input, and that input's ack clears the others.
TEST(OwnCube, InputsTheServerDroppedAreClearedByANoKeyInputAfterASecond) {
  OwnCube cube;
  cube.OnServerState(sim::CubeState{}, false, 0, Settings{});
  cube.StartSampling(Micros{0}, sim::kStandardArena);
  std::vector<protocol::InputMessage> sent;
  const OwnCube::Send send = [&sent](const protocol::InputMessage& m) {
    sent.push_back(m);
    return true;
  };
  int frame = 0;
  const auto sample = [&](std::uint8_t held) {
    cube.Sample(Micros(std::int64_t{frame++} * 1'000'000 / 60), held, 1, 32, send);
    cube.RefreshView(Micros{0}, Settings{});
  };
  // Right for 20 samples; the server applies inputs 0..9 and drops every one after.
  for (int i = 0; i < 20; ++i) sample(sim::kRight);
  sim::CubeState server;
  for (sim::Seq seq = 0; seq < 10; ++seq) server = sim::Move(server, {seq, sim::kRight}, sim::kStandardArena);
  ASSERT_TRUE(cube.OnServerState(server, true, 9, Settings{}));
  cube.Reconcile(Settings{}, nullptr);
  // Released: the prediction slides to rest on no-key inputs, which the server drops too.
  while (cube.view().predicted_state.vx != 0) sample(0);
  const sim::Seq last = sent.back().inputs.back().seq;
  const std::size_t pending = cube.pending().size();
  ASSERT_GT(pending, 10u);
  // At rest, samples send nothing new (each resends the pending inputs) for a second...
  for (int i = 0; i + 1 < sim::kTicksPerSecond; ++i) sample(0);
  EXPECT_EQ(cube.pending().size(), pending);
  EXPECT_EQ(sent.back().inputs.back().seq, last);
  // ...then one no-key input.
  sample(0);
  ASSERT_EQ(cube.pending().size(), pending + 1);
  const sim::Input nudge = sent.back().inputs.back();
  EXPECT_EQ(nudge.seq, static_cast<sim::Seq>(last + 1));
  EXPECT_EQ(nudge.buttons, 0);
  // The server applies it on its own state: its ack clears everything, and the prediction follows it.
  server = sim::Move(server, nudge, sim::kStandardArena);
  ASSERT_TRUE(cube.OnServerState(server, true, nudge.seq, Settings{}));
  cube.Reconcile(Settings{}, nullptr);
  cube.RefreshView(Micros{0}, Settings{});
  EXPECT_TRUE(cube.pending().empty());
  EXPECT_TRUE(sim::SamePhysics(cube.view().predicted_state, server));
}

}  // namespace
}  // namespace netcube::client
