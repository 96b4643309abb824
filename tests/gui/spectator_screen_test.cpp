// netcube-client --spectate's screen, rendered headless from an in-process server over loopback on a virtual
// clock: a spectator's view of a larger arena follows the player it was given (its cube in the middle of the
// view, drawn there), Tab follows the next player, and the arrow keys free the camera and move it, always
// within the arena; the title says whom it watches, and the camera is what it tells the server.
#include <SDL_events.h>
#include <SDL_scancode.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "headless_app.h"
#include "netcube/client/input_script.h"
#include "netcube/gui/client_screen.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/keys.h"
#include "netcube/gui/theme.h"
#include "netcube/server/server.h"

namespace netcube::gui {
namespace {

constexpr int kSpectatorWidth = 1280;
constexpr int kSpectatorHeight = 720;

const client::RemoteView* Remote(const client::Client& client, sim::PlayerId id) {
  for (const client::RemoteView& remote : client.remotes()) {
    if (remote.id == id) return &remote;
  }
  return nullptr;
}

class GuiSpectatorScreen : public ::testing::Test {
 protected:
  void SetUp() override {
    app_ = OpenHeadlessApp(kSpectatorWidth, kSpectatorHeight);
    ASSERT_NE(app_, nullptr);
    server::ServerConfig server_config;
    server_config.bind_address = "127.0.0.1";
    server_config.port = 0;
    server_config.arena = sim::Arena::OfUnits(256, 144);
    std::string error;
    server_ = server::Server::Create(server_config, Micros(0), &error);
    ASSERT_NE(server_, nullptr) << error;
    for (const char* name : {"ann", "bob"}) {
      client::ClientConfig config;
      config.name = name;
      players_.push_back(std::make_unique<client::Client>(config));
      ASSERT_TRUE(players_.back()->Connect("127.0.0.1", server_->port(), Micros(0), &error)) << error;
    }
    // The players first, so that the spectator is given one to follow.
    for (int frame = 0; frame < 60 && !(Connected(0) && Connected(1)); ++frame) Step(VirtualFrameTime(frame));
    ASSERT_TRUE(Connected(0) && Connected(1));
  }

  bool Connected(std::size_t i) const { return players_[i]->state() == client::ConnectionState::kConnected; }

  void Step(Micros now) {
    server_->Update(now);
    for (std::size_t i = 0; i < players_.size(); ++i)
      players_[i]->Update(now, keys_[i].Held(now, *players_[i]));
  }

  // `frames` frames from `first`, the spectator's held buttons `held`; the last one rendered and returned.
  Image Run(ClientScreen& screen, int first, int frames, std::uint8_t held = 0,
            std::optional<SDL_Scancode> press_first = std::nullopt) {
    const ClientLayout layout = ClientLayout::For(app_->display_size());
    for (int frame = first; frame < first + frames; ++frame) {
      if (press_first && frame == first) PushKeyTap(*press_first);
      EXPECT_TRUE(app_->PollEvents());
      const Micros now = VirtualFrameTime(frame);
      Step(now);
      screen.Update(now, held);
      app_->BeginFrame();
      screen.Draw(layout, now, {});
      if (frame + 1 < first + frames) {
        app_->DiscardFrame();
        continue;
      }
      app_->Render();
    }
    Image image = app_->Capture();
    app_->Present();
    return image;
  }

  std::unique_ptr<App> app_;
  std::unique_ptr<server::Server> server_;
  std::vector<std::unique_ptr<client::Client>> players_;
  // ann stands; bob drives right and down away from the spawn, then stops, well inside the walls.
  std::vector<PlayerKeys> keys_ = [] {
    std::vector<PlayerKeys> keys;
    keys.push_back(Scripted("-:60000"));
    keys.push_back(Scripted("R:900,D:500,-:60000"));
    return keys;
  }();
};

TEST_F(GuiSpectatorScreen, TheViewFollowsTheGivenPlayerAndTabTheNext) {
  const sim::PlayerId ann = *players_[0]->player_id();
  const sim::PlayerId bob = *players_[1]->player_id();
  ClientScreenConfig config;
  config.client.spectate = true;
  config.client.follow = bob;
  config.host = "127.0.0.1";
  config.port = server_->port();
  config.connect_at_start = true;
  config.browse = false;
  ClientScreen screen(config, VirtualFrameTime(60));
  ASSERT_TRUE(screen.connect_error().empty()) << screen.connect_error();
  const Image image = Run(screen, 60, 150);

  const client::Client& watcher = screen.client();
  ASSERT_TRUE(watcher.spectator());
  EXPECT_FALSE(watcher.player_id().has_value());
  const client::RemoteView* followed = Remote(watcher, bob);
  ASSERT_NE(followed, nullptr);
  ASSERT_NE(followed->sample, client::SampleKind::kEmpty);
  EXPECT_EQ(screen.camera().Viewpoint(watcher), (protocol::Viewpoint{true, bob, 0, 0}));
  EXPECT_NE(screen.Title().find("watching 127.0.0.1:" + std::to_string(server_->port()) + ", following #" +
                                std::to_string(bob)),
            std::string::npos)
      << screen.Title();

  // bob's cube in the middle of the view, drawn there in its colour.
  const ClientLayout layout = ClientLayout::For(app_->display_size());
  const ArenaMapping mapping = screen.MappingFor(layout.arena);
  EXPECT_FALSE(mapping.whole());
  const ImVec2 centre = mapping.ToScreen(followed->drawn);
  EXPECT_NEAR(centre.x, layout.arena.x + layout.arena.w / 2.0F, 1.0F);
  EXPECT_NEAR(centre.y, layout.arena.y + layout.arena.h / 2.0F, 1.0F);
  const float scale = app_->pixel_scale();
  int in_colour = 0;
  for (int dy = -2; dy <= 2; ++dy) {
    for (int dx = -2; dx <= 2; ++dx) {
      if (image.At(static_cast<int>(centre.x * scale) + dx, static_cast<int>(centre.y * scale) + dy) ==
          PlayerColour(bob))
        ++in_colour;
    }
  }
  EXPECT_GE(in_colour, 20) << "bob's cube drawn in the middle of the view";

  // Tab: the next player in id order, cycling past the last.
  Run(screen, 210, 2, 0, SDL_SCANCODE_TAB);
  EXPECT_EQ(screen.camera().following(), std::optional<sim::PlayerId>(ann)) << "two players: the other one";
  EXPECT_NE(screen.Title().find("following #" + std::to_string(ann)), std::string::npos) << screen.Title();
}

TEST_F(GuiSpectatorScreen, TheArrowKeysFreeTheCameraAndMoveItWithinTheArena) {
  ClientScreenConfig config;
  config.client.spectate = true;
  config.client.follow = players_[1]->player_id();
  config.host = "127.0.0.1";
  config.port = server_->port();
  config.connect_at_start = true;
  config.browse = false;
  ClientScreen screen(config, VirtualFrameTime(60));
  Run(screen, 60, 90);
  ASSERT_TRUE(screen.client().spectator());
  const client::Vec2 before = screen.camera().Centre(screen.client());

  // Half a second to the right: free, 20 units further (a frame's rounding aside).
  Run(screen, 150, 30, sim::kRight);
  EXPECT_FALSE(screen.camera().following().has_value());
  const client::Vec2 after = screen.camera().Centre(screen.client());
  EXPECT_NEAR(after.x - before.x, SpectatorCamera::kPanUnitsPerSecond * 0.5, 1.5);
  EXPECT_NE(screen.Title().find("free camera"), std::string::npos) << screen.Title();
  const protocol::Viewpoint free = screen.camera().Viewpoint(screen.client());
  EXPECT_FALSE(free.follow);
  EXPECT_EQ(free.x_units, static_cast<int>(after.x));

  // Ten seconds up and to the left: stopped by the arena's corner, and told as its first whole unit.
  Run(screen, 180, 600, sim::kLeft | sim::kUp);
  EXPECT_EQ(screen.camera().Viewpoint(screen.client()), (protocol::Viewpoint{false, 0, 0, 0}));
  const ArenaMapping mapping = screen.MappingFor(ClientLayout::For(app_->display_size()).arena);
  EXPECT_NEAR(mapping.visible_min().x, 0.0, 1e-3) << "the view stops at the wall";
  EXPECT_NEAR(mapping.visible_min().y, 0.0, 1e-3);

  // Ten seconds down and to the right: the last whole unit.
  Run(screen, 780, 600, sim::kRight | sim::kDown);
  EXPECT_EQ(screen.camera().Viewpoint(screen.client()), (protocol::Viewpoint{false, 0, 255, 143}));
}

}  // namespace
}  // namespace netcube::gui
