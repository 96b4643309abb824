// Inputs: applied exactly once and in order whatever the network does to them, and never faster than the
// tick rate.
#include <gtest/gtest.h>

#include <random>

#include "netcube/server/server.h"
#include "support/input_driver.h"
#include "support/loopback_rig.h"
#include "tuning.h"  // the server's limits, which these tests push against

namespace netcube::server {
namespace {

using testing::InputDriver;
using testing::LoopbackRig;
using testing::TestClient;

constexpr Micros kLongWait{60'000'000};

std::unique_ptr<LoopbackRig> MakeRigWithoutCollisions() {
  ServerConfig config;
  config.collisions = false;  // each cube's path depends on its own inputs only
  return LoopbackRig::Start(config);
}

TEST(ServerInputs, AppliedOnceAndInOrderUnderDuplicationAndReordering) {
  auto rig = MakeRigWithoutCollisions();
  transport::HostConfig bad_network;
  bad_network.link.latency_ms = 10;
  bad_network.link.jitter_ms = 8;
  bad_network.link.duplicate = 0.3;
  bad_network.link.reorder = 0.3;
  bad_network.seed = 99;
  TestClient* ann = rig->Join("ann", bad_network);
  ASSERT_NE(ann, nullptr);
  const sim::CubeState spawn = rig->server().world()[0].state;

  // Sequence numbers cross the 16-bit wrap; every packet is also sent twice by hand.
  InputDriver driver(*ann, {.first_seq = 65'450, .copies = 2});
  std::mt19937 rng(7);
  const auto random_buttons = [&rng] { return static_cast<std::uint8_t>(rng() & sim::kButtonMask); };
  constexpr std::size_t kInputs = 240;
  ASSERT_TRUE(rig->StepUntil(
      [&] {
        driver.Update(rig->now(), random_buttons, driver.sent().size() < kInputs);
        return driver.sent().size() == kInputs && driver.AllAcknowledged();
      },
      kLongWait));

  const sim::CubeState expected = testing::Replay(spawn, driver.sent());
  const sim::CubeState actual = rig->server().world()[0].state;
  EXPECT_TRUE(sim::SamePhysics(actual, expected));
  EXPECT_EQ(actual.last_input, driver.sent().back().seq);
  // The snapshot that acknowledged the last input shows the same state.
  const protocol::Snapshot& snapshot = *ann->inbox().last_snapshot;
  ASSERT_EQ(snapshot.players.size(), 1u);
  EXPECT_TRUE(sim::SamePhysics(snapshot.players[0].state, expected));

  const ClientInfo info = rig->server().clients()[0];
  EXPECT_EQ(info.last_processed_seq, driver.sent().back().seq);
  EXPECT_EQ(info.inputs.processed, kInputs);
  EXPECT_EQ(info.inputs.lost, 0u);
  EXPECT_EQ(info.inputs.dropped_rate_limit, 0u);
  EXPECT_GT(info.inputs.duplicate, kInputs);  // two copies of everything, plus the redundancy
  EXPECT_GT(ann->host().counters().outgoing.duplicated, 0u);
  EXPECT_GT(ann->host().counters().outgoing.reordered, 0u);
  EXPECT_EQ(rig->server().stats().inputs.processed, kInputs);
}

TEST(ServerInputs, SpeedHackGainsNoDistance) {
  auto rig = MakeRigWithoutCollisions();
  TestClient* cheat = rig->Join("cheat");
  TestClient* honest = rig->Join("honest");
  ASSERT_TRUE(cheat && honest);
  const sim::CubeState cheat_start = rig->server().world()[0].state;
  const sim::CubeState honest_start = rig->server().world()[1].state;

  InputDriver cheat_driver(*cheat, {.inputs_per_send = 2});
  InputDriver honest_driver(*honest, {});
  const auto right = [] { return std::uint8_t{sim::kRight}; };
  // 1.5 s of holding right: about 22 units, which keeps the honest cube off the wall.
  const Micros end = rig->now() + Micros(1'500'000);
  rig->StepUntil(
      [&] {
        cheat_driver.Update(rig->now(), right);
        honest_driver.Update(rig->now(), right);
        return rig->now() >= end;
      },
      kLongWait);

  const std::int32_t cheat_distance = rig->server().world()[0].state.x - cheat_start.x;
  const std::int32_t honest_distance = rig->server().world()[1].state.x - honest_start.x;
  EXPECT_GT(honest_distance, 15 * sim::kSubUnitsPerUnit);
  // The cheat gets the credit it saved up while idle (the backlog) and a tick or two of timing, no more.
  EXPECT_LE(cheat_distance, honest_distance + (kMaxInputBacklogSteps + 2) * sim::kMaxSpeed);

  const auto clients = rig->server().clients();
  EXPECT_GT(clients[0].inputs.dropped_rate_limit, 0u);
  EXPECT_EQ(clients[1].inputs.dropped_rate_limit, 0u);
  EXPECT_GT(rig->server().stats().inputs.dropped_rate_limit, 0u);
}

}  // namespace
}  // namespace netcube::server
