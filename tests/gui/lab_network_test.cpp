// The lab on its in-memory hub: its server and two players for a simulated minute under the `lossy`
// profile, run twice, give the same bytes at every frame (the server's world, what each player draws and
// measures), and no socket is opened. The run reads the lossy profile from assets/link_profiles.json.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "../support/open_sockets.h"
#include "netcube/client/input_script.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/lab.h"
#include "netcube/transport/link_profile.h"

namespace netcube::gui {
namespace {

constexpr int kMinuteOfFrames = 60 * kFramesPerSecond;

transport::LinkSettings LossyProfile() {
  const char* assets = std::getenv("NETCUBE_ASSETS_DIR");
  std::ifstream file(std::string(assets != nullptr ? assets : ".") + "/link_profiles.json");
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::string error;
  const std::optional<transport::LinkProfile> lossy =
      transport::FindLinkProfile(transport::ParseLinkProfiles(text, &error), "lossy");
  EXPECT_TRUE(lossy.has_value()) << error;
  return lossy ? lossy->settings : transport::LinkSettings{};
}

// What one frame of the lab shows and measures, as text with every double at full precision.
std::string FrameDigest(Lab& lab) {
  std::ostringstream out;
  out.precision(17);
  out << lab.server().tick() << ':';
  for (const sim::PlayerCube& cube : lab.server().world()) {
    out << int{cube.id} << ' ' << cube.state.x << ' ' << cube.state.y << ' ' << cube.state.vx << ' '
        << cube.state.vy << ' ' << cube.state.last_input << ';';
  }
  for (std::size_t i = 0; i < lab.players(); ++i) {
    const client::Client& player = lab.player(i);
    const client::Metrics m = player.metrics();
    out << '|' << client::ToString(player.state()) << ' ' << player.local().drawn.x << ' '
        << player.local().drawn.y << ' ' << player.render_tick();
    for (const client::RemoteView& remote : player.remotes())
      out << ' ' << remote.drawn.x << ',' << remote.drawn.y;
    out << ' ' << m.rtt_ms << ' ' << m.snapshots_received << ' ' << m.snapshot_loss << ' ' << m.corrections
        << ' ' << m.interp_delay_ms << ' ' << m.inputs_acked << ' ' << m.bytes_down << ' ' << m.bytes_up
        << ' ' << m.tags_hit << ' ' << m.tags_taken;
  }
  return out.str();
}

struct LabRun {
  std::vector<std::string> frames;
  std::uint64_t packets_dropped = 0;  // by the players' incoming conditioners
  std::uint64_t snapshots = 0;
  std::uint64_t corrections = 0;
  int sockets_during = -1;
};

LabRun RunMinute(const transport::LinkSettings& link) {
  LabConfig config = DefaultLabConfig();
  EXPECT_EQ(config.network, transport::NetworkKind::kMemory) << "the lab's default";
  for (LabPlayer& player : config.players) player.client.link = link;
  config.tag_interval_ms = 700;
  std::string error;
  const std::vector<client::InputScript> scripts = {*client::InputScript::Parse("random", &error),
                                                    *client::InputScript::Parse("circle", &error)};
  LabRun run;
  std::unique_ptr<Lab> lab = Lab::Create(config, VirtualFrameTime(0), &error);
  EXPECT_NE(lab, nullptr) << error;
  if (lab == nullptr) return run;
  run.sockets_during = test::OpenSockets();
  std::vector<std::uint8_t> held(lab->players(), 0);
  for (int frame = 0; frame < kMinuteOfFrames; ++frame) {
    const Micros now = VirtualFrameTime(frame);
    for (std::size_t i = 0; i < held.size(); ++i) held[i] = scripts[i].ButtonsAt(now, i + 1);
    lab->Update(now, held);
    run.frames.push_back(FrameDigest(*lab));
  }
  for (std::size_t i = 0; i < lab->players(); ++i) {
    run.packets_dropped += lab->player(i).transport_counters().incoming.dropped;
    run.snapshots += lab->player(i).metrics().snapshots_received;
    run.corrections += lab->player(i).metrics().corrections;
  }
  return run;
}

TEST(GuiLabNetwork, AMinuteUnderLossyIsTheSameOnEveryRunAndOpensNoSocket) {
  const transport::LinkSettings lossy = LossyProfile();
  ASSERT_GT(lossy.loss, 0.0);
  const int sockets_before = test::OpenSockets();
  ASSERT_GE(sockets_before, 0);
  const LabRun first = RunMinute(lossy);
  const LabRun second = RunMinute(lossy);
  EXPECT_EQ(first.sockets_during, sockets_before);
  EXPECT_EQ(second.sockets_during, sockets_before);
  EXPECT_EQ(test::OpenSockets(), sockets_before);

  // A real minute: both players connected, snapshots arrived, the conditioners lost some, cubes moved.
  ASSERT_EQ(first.frames.size(), static_cast<std::size_t>(kMinuteOfFrames));
  EXPECT_NE(first.frames.back().find("|connected"), std::string::npos) << first.frames.back();
  EXPECT_GT(first.snapshots, 2U * 50 * 20) << "20 Hz for most of a minute, for two players";
  EXPECT_GT(first.packets_dropped, 50U) << "5% of a minute's packets";
  EXPECT_NE(first.frames[600], first.frames.back());

  ASSERT_EQ(second.frames.size(), first.frames.size());
  for (std::size_t frame = 0; frame < first.frames.size(); ++frame) {
    ASSERT_EQ(second.frames[frame], first.frames[frame]) << "frame " << frame;
  }
  EXPECT_EQ(second.packets_dropped, first.packets_dropped);
}

}  // namespace
}  // namespace netcube::gui
