// A comparison in the lab (CompareLabConfig): every client behind the same network, driven by the same
// keys, on a server where the compared cubes never touch. Over real loopback on the virtual clock. And a
// lab whose player cannot connect, which fails with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "netcube/client/input_script.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/lab.h"

namespace netcube::gui {
namespace {

std::vector<client::TechniqueSet> ThreeBuilds() {
  std::string error;
  return *client::ParseTechniqueSets("naive,predicted,full", &error);
}

// Runs `frames` frames with every player holding the script's buttons after a second to connect;
// `after_frame` sees the lab after each.
void DriveAll(
    Lab& lab, int frames, const std::string& script_text,
    const std::function<void(int frame)>& after_frame = [](int) {}) {
  std::string error;
  const client::InputScript script = *client::InputScript::Parse(script_text, &error);
  std::vector<std::uint8_t> held(lab.players(), 0);
  for (int frame = 0; frame < frames; ++frame) {
    const Micros now = VirtualFrameTime(frame);
    std::fill(held.begin(), held.end(), frame < 60 ? 0 : script.ButtonsAt(now - VirtualFrameTime(60), 1));
    lab.Update(now, held);
    after_frame(frame);
  }
}

TEST(GuiCompare, EveryClientLosesItsPacketsAtTheSameMoments) {
  const transport::LinkSettings lossy{.latency_ms = 60, .jitter_ms = 15, .loss = 0.1};
  LabConfig config = CompareLabConfig(ThreeBuilds(), lossy, 42);
  // Per client, the fate its incoming conditioner drew for each moment: dropped, or the delay. The clients
  // need not receive at the same moments (only the interpolating one asks for every tick's snapshot).
  using Fate = std::pair<bool, std::int64_t>;  // the first packet of the moment: dropped, delay
  std::vector<std::map<std::int64_t, Fate>> fates(config.players.size());
  for (std::size_t i = 0; i < config.players.size(); ++i) {
    config.players[i].client.incoming_link_log = [&, i](const transport::LinkDecision& d) {
      if (!d.reliable) fates[i].emplace(d.at.count(), Fate{d.dropped, d.delay.count()});
    };
  }
  std::string error;
  std::unique_ptr<Lab> lab = Lab::Create(config, VirtualFrameTime(0), &error);
  ASSERT_NE(lab, nullptr) << error;
  DriveAll(*lab, 600, "circle");

  const auto drops = [](const std::map<std::int64_t, Fate>& fate) {
    return std::count_if(fate.begin(), fate.end(), [](const auto& entry) { return entry.second.first; });
  };
  ASSERT_GT(drops(fates[0]), 10) << "10% loss over 10 s of snapshots";
  for (std::size_t i = 1; i < fates.size(); ++i) {
    int shared = 0;
    for (const auto& [at, fate] : fates[i]) {
      const auto other = fates[0].find(at);
      if (other == fates[0].end()) continue;
      EXPECT_EQ(fate, other->second) << config.players[i].title << " at " << at;
      ++shared;
    }
    EXPECT_GT(shared, 100) << config.players[i].title;
  }
}

TEST(GuiCompare, ComparedCubesStartAlikeAndNeverPushEachOther) {
  LabConfig config = CompareLabConfig(ThreeBuilds(), {.latency_ms = 50, .jitter_ms = 10}, 7);
  std::string error;
  std::unique_ptr<Lab> lab = Lab::Create(config, VirtualFrameTime(0), &error);
  ASSERT_NE(lab, nullptr) << error;
  sim::CubeState start;
  bool moved = false;
  DriveAll(*lab, 300, "R:800,D:600,L:1500,U:400", [&](int frame) {
    const auto world = lab->server().world();
    if (world.size() < config.players.size()) return;
    if (frame == 60) start = world[0].state;
    // No loss: every client's inputs reach the server at the same ticks, so their cubes, overlapping from
    // the start, move as one; a push would separate them.
    for (const sim::PlayerCube& cube : world) {
      ASSERT_TRUE(sim::SamePhysics(cube.state, world[0].state))
          << "frame " << frame << " cube " << int{cube.id};
    }
    moved = moved || (frame > 60 && (world[0].state.x != start.x || world[0].state.y != start.y));
  });
  EXPECT_TRUE(moved);
  for (std::size_t i = 0; i < lab->players(); ++i) {
    EXPECT_EQ(lab->player(i).state(), client::ConnectionState::kConnected);
    EXPECT_EQ(lab->player(i).settings(), config.players[i].client.settings);
  }
}

// A player the lab cannot connect (here a name no server would take) fails the lab with the reason, rather
// than leaving an empty column.
TEST(GuiCompare, APlayerThatCannotConnectFailsTheLabWithTheReason) {
  LabConfig config = CompareLabConfig(ThreeBuilds(), {}, 1);
  config.players[1].client.name = "tab\there";
  std::string error;
  EXPECT_EQ(Lab::Create(config, VirtualFrameTime(0), &error), nullptr);
  EXPECT_NE(error.find("lab player 2: bad name"), std::string::npos) << error;
}

}  // namespace
}  // namespace netcube::gui
