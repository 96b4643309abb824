// Renders the lab and a connected client headless (SDL's offscreen driver, software renderer) with scripted
// motion under lag, on a virtual clock, and checks the pixels: the background, the panels, and each cube's
// colour where the client (or server) state says it is, through the library's world -> screen mapping.
// Also, in a live ImGui frame, that keys typed into a field do not reach the game.
#include <SDL_events.h>
#include <SDL_scancode.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "headless_app.h"
#include "netcube/client/input_script.h"
#include "netcube/gui/app.h"
#include "netcube/gui/client_screen.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/keys.h"
#include "netcube/gui/lab.h"
#include "netcube/gui/theme.h"
#include "netcube/server/server.h"
#include "netcube/sim/move.h"

namespace netcube::gui {
namespace {

constexpr int kRenderWidth = 1600;
constexpr int kRenderHeight = 900;

std::unique_ptr<App> OpenHeadless() { return OpenHeadlessApp(kRenderWidth, kRenderHeight); }

bool Near(Rgb a, Rgb b, int tolerance) {
  return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance &&
         std::abs(a.b - b.b) <= tolerance;
}

// The share of pixels within `tolerance` of `colour` in the square of `radius` pixels around a point given in
// display points.
double PatchShare(const Image& image, float pixel_scale, ImVec2 point, Rgb colour, int radius = 3,
                  int tolerance = 6) {
  const int cx = static_cast<int>(std::floor(point.x * pixel_scale));
  const int cy = static_cast<int>(std::floor(point.y * pixel_scale));
  int matching = 0;
  int total = 0;
  for (int y = cy - radius; y <= cy + radius; ++y) {
    for (int x = cx - radius; x <= cx + radius; ++x) {
      if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
      ++total;
      if (Near(image.At(x, y), colour, tolerance)) ++matching;
    }
  }
  return total == 0 ? 0.0 : static_cast<double>(matching) / total;
}

// The share of pixels of exactly `colour` inside a display rectangle.
double RectShare(const Image& image, float pixel_scale, const Rect& rect, Rgb colour) {
  int matching = 0;
  int total = 0;
  for (int y = static_cast<int>(rect.y * pixel_scale); y < static_cast<int>((rect.y + rect.h) * pixel_scale);
       ++y) {
    for (int x = static_cast<int>(rect.x * pixel_scale);
         x < static_cast<int>((rect.x + rect.w) * pixel_scale); ++x) {
      ++total;
      if (image.At(x, y) == colour) ++matching;
    }
  }
  return total == 0 ? 0.0 : static_cast<double>(matching) / total;
}

// A cube's body is drawn where its state says: most of the patch around its centre has its colour.
void ExpectCubeAt(const Image& image, float scale, const ArenaMapping& mapping, client::Vec2 position,
                  sim::PlayerId id, const std::string& what) {
  const ImVec2 point = mapping.ToScreen(position);
  EXPECT_GE(PatchShare(image, scale, point, PlayerColour(id)), 0.75)
      << what << ": cube #" << static_cast<int>(id) << " at (" << position.x << ", " << position.y
      << ") units = (" << point.x << ", " << point.y << ") points";
}

// Keys for a player from a script, starting once it is connected (like netcube-client --script).
// Runs `frames` frames on the virtual clock and returns the last one's pixels (only it is rasterised).
Image RunFrames(App& app, int frames, const std::function<void(Micros)>& update,
                const std::function<void(Micros)>& draw) {
  for (int frame = 0; frame < frames; ++frame) {
    EXPECT_TRUE(app.PollEvents());
    const Micros now = VirtualFrameTime(frame);
    update(now);
    app.BeginFrame();
    draw(now);
    if (frame + 1 < frames) {
      app.DiscardFrame();
      continue;
    }
    app.Render();
  }
  Image image = app.Capture();
  app.Present();
  return image;
}

TEST(GuiLabRender, ThreeViewsShowEveryCubeWhereItsViewSaysUnderLag) {
  std::unique_ptr<App> app = OpenHeadless();
  ASSERT_NE(app, nullptr);
  std::string error;
  // The defaults: 125 ms each way for both players, player 1 full, player 2 naive; player 1 with a fixed
  // 150 ms interpolation delay (the adaptive one is 50 ms on loopback), so the latest received state of
  // player 2 lies clear of where it is drawn.
  LabConfig config = DefaultLabConfig();
  config.players[0].client.settings.adaptive_delay = false;
  config.players[0].client.settings.interp_delay_ms = 150;
  std::unique_ptr<Lab> lab = Lab::Create(config, VirtualFrameTime(0), &error);
  ASSERT_NE(lab, nullptr) << error;
  PlayerKeys one = Scripted("R:600,D:600,L:3000");
  PlayerKeys two = Scripted("U:400,-:300,R:3000");
  const LabLayout layout = LabLayout::For(app->display_size(), lab->players());

  constexpr int kFrames = 150;  // 2.5 s: player 1 is moving left, player 2 right
  const Image image = RunFrames(
      *app, kFrames,
      [&](Micros now) {
        const std::array<std::uint8_t, 2> held{one.Held(now, lab->player(0)), two.Held(now, lab->player(1))};
        lab->Update(now, held);
      },
      [&](Micros now) { lab->Draw(layout, now, {}); });
  ASSERT_EQ(image.width, static_cast<int>(kRenderWidth * app->pixel_scale()));
  const float scale = app->pixel_scale();

  client::Client& p1 = lab->player(0);
  client::Client& p2 = lab->player(1);
  ASSERT_EQ(p1.state(), client::ConnectionState::kConnected);
  ASSERT_EQ(p2.state(), client::ConnectionState::kConnected);
  ASSERT_TRUE(p1.local().present && p2.local().present);
  const sim::PlayerId id1 = *p1.player_id();
  const sim::PlayerId id2 = *p2.player_id();

  // Background in the margins, the panels' opaque colour, the arena floors.
  EXPECT_EQ(image.At(1, 1), kBackground);
  EXPECT_EQ(image.At(image.width / 2, image.height - 1), kBackground);
  const auto pixel = [&](float x, float y) {
    return image.At(static_cast<int>(x * scale), static_cast<int>(y * scale));
  };
  for (std::size_t column = 0; column < layout.columns; ++column) {
    // The backdrop (painted around the panels and floors) left of each column and between floor and panel.
    const Rect& panel = layout.panel[column];
    EXPECT_EQ(pixel(panel.x - 4.0F, panel.y + panel.h / 2.0F), kBackground) << "left of column " << column;
    EXPECT_EQ(pixel(panel.x + panel.w / 2.0F, panel.y - 4.0F), kBackground) << "above panel " << column;
    EXPECT_GT(RectShare(image, scale, layout.panel[column], kPanelBackground), 0.3) << "panel " << column;
    const ImVec2 corner = ArenaMapping::Fit(layout.arena[column], sim::kStandardArena)
                              .ToScreen({1.0, 1.0});  // between grid lines, away from cubes
    EXPECT_GT(PatchShare(image, scale, corner, kArenaFloor, 2, 0), 0.9) << "arena " << column;
  }

  // Player 1 predicts: under a 250 ms round trip its cube is ahead of the server's. Player 2 is naive: it
  // draws its own cube at the server state.
  const client::LocalView& local1 = p1.local();
  EXPECT_GT(client::Length(local1.drawn - local1.server), 2.0)
      << "player 1 should be ahead of its server ghost";
  EXPECT_EQ(p2.local().drawn, p2.local().server);

  // In the standard arena every view shows all of it.
  const ArenaMapping view1 = ArenaMapping::Fit(layout.arena[layout.ColumnOf(0)], sim::kStandardArena);
  const ArenaMapping view2 = ArenaMapping::Fit(layout.arena[layout.ColumnOf(1)], sim::kStandardArena);
  const ArenaMapping truth = ArenaMapping::Fit(layout.arena[layout.server_column], sim::kStandardArena);
  ExpectCubeAt(image, scale, view1, local1.drawn, id1, "player 1's own cube");
  ASSERT_EQ(p1.remotes().size(), 1U);
  ExpectCubeAt(image, scale, view1, p1.remotes()[0].drawn, id2, "player 2 seen by player 1");
  ExpectCubeAt(image, scale, view2, p2.local().drawn, id2, "player 2's own cube");
  ASSERT_EQ(p2.remotes().size(), 1U);
  ExpectCubeAt(image, scale, view2, p2.remotes()[0].drawn, id1, "player 1 seen by player 2");
  for (const sim::PlayerCube& cube : lab->server().world()) {
    ExpectCubeAt(image, scale, truth, client::PositionOf(cube.state), cube.id, "the server's world");
  }

  // Overlays, each clear of the solid cubes (at 15 units/s, 150 ms is 2.25 units), so only they can cover
  // the floor there. The server ghost: where the lab's server has player 1 now, a one-way trip behind its
  // prediction.
  const auto is_drawn_over_floor = [&](const ArenaMapping& view, client::Vec2 at) {
    return PatchShare(image, scale, view.ToScreen(at), kArenaFloor, 3, 0) < 0.5;
  };
  const std::span<const sim::PlayerCube> world = lab->server().world();
  const auto one_on_server =
      std::find_if(world.begin(), world.end(), [&](const sim::PlayerCube& cube) { return cube.id == id1; });
  ASSERT_NE(one_on_server, world.end());
  const client::Vec2 truth1 = client::PositionOf(one_on_server->state);
  ASSERT_GT(client::Length(truth1 - local1.drawn), 1.5);
  EXPECT_TRUE(is_drawn_over_floor(view1, truth1)) << "player 1's server ghost";
  // The latest received state of player 2, which player 1 interpolates an interpolation delay behind.
  const client::RemoteView& two_seen = p1.remotes()[0];
  ASSERT_GT(client::Length(two_seen.latest - two_seen.drawn), 1.5);
  EXPECT_TRUE(is_drawn_over_floor(view1, two_seen.latest)) << "player 2's latest received state";
  // The pending-input strip: each player's queue holds the inputs in flight, a round trip of them, whether
  // it reconciles (player 1) or not (naive player 2).
  EXPECT_GT(p1.pending().size(), 10U);
  EXPECT_GT(p2.pending().size(), 10U);
  EXPECT_GT(RectShare(image, scale, layout.panel[0], kPendingCell), 0.0);
  EXPECT_GT(RectShare(image, scale, layout.panel[2], kPendingCell), 0.0);
  // The plots follow the client's metrics: the round trip is at least the 250 ms the conditioners add.
  EXPECT_GE(lab->player_view(0).history().rtt_ms.latest(), 250.0F);
  EXPECT_GT(lab->player_view(0).history().bytes_up_per_s.max(), 0.0F);
}

// Alice (on screen) and bob on a server of `arena`, alice driven by `alice_keys_text`: the last frame
// shows every cube where alice's views say.
void ExpectClientDrawsWhereItsViewsSay(const sim::Arena& arena, const std::string& alice_keys_text) {
  std::unique_ptr<App> app = OpenHeadless();
  ASSERT_NE(app, nullptr);
  server::ServerConfig server_config;
  server_config.bind_address = "127.0.0.1";
  server_config.port = 0;
  server_config.arena = arena;
  std::string error;
  std::unique_ptr<server::Server> server = server::Server::Create(server_config, Micros(0), &error);
  ASSERT_NE(server, nullptr) << error;

  ClientScreenConfig config;
  config.client.name = "alice";
  config.client.link.latency_ms = 60.0;
  config.host = "127.0.0.1";
  config.port = server->port();
  config.connect_at_start = true;
  ClientScreen screen(config, Micros(0));
  ASSERT_TRUE(screen.connect_error().empty()) << screen.connect_error();

  client::ClientConfig bob_config;
  bob_config.name = "bob";
  client::Client bob(bob_config);
  ASSERT_TRUE(bob.Connect("127.0.0.1", server->port(), Micros(0), &error)) << error;

  PlayerKeys alice_keys = Scripted(alice_keys_text);
  PlayerKeys bob_keys = Scripted("L:500");
  const ClientLayout layout = ClientLayout::For(app->display_size());
  const Image image = RunFrames(
      *app, 120,
      [&](Micros now) {
        server->Update(now);
        screen.Update(now, alice_keys.Held(now, screen.client()));
        bob.Update(now, bob_keys.Held(now, bob));
      },
      [&](Micros now) { screen.Draw(layout, now, {}); });
  const float scale = app->pixel_scale();

  client::Client& alice = screen.client();
  ASSERT_EQ(alice.state(), client::ConnectionState::kConnected);
  ASSERT_TRUE(alice.local().present);
  EXPECT_EQ(alice.welcome().arena, arena);
  EXPECT_EQ(image.At(1, image.height - 1), kBackground);
  EXPECT_GT(RectShare(image, scale, layout.panel, kPanelBackground), 0.3);
  const ArenaMapping mapping = PlayerView::MappingFor(layout.arena, alice);
  ExpectCubeAt(image, scale, mapping, alice.local().drawn, *alice.player_id(), "alice's own cube");
  ASSERT_EQ(alice.remotes().size(), 1U);
  EXPECT_EQ(alice.remotes()[0].name, "bob");
  if (mapping.Contains(mapping.ToScreen(alice.remotes()[0].drawn))) {
    ExpectCubeAt(image, scale, mapping, alice.remotes()[0].drawn, alice.remotes()[0].id, "bob seen by alice");
  }
  EXPECT_NE(PlayerColour(*alice.player_id()), PlayerColour(alice.remotes()[0].id));
  if (arena == sim::kStandardArena) {
    EXPECT_TRUE(mapping.whole());
    return;
  }
  // A larger arena is followed: alice's cube in the middle of the view, and its dot on the minimap.
  EXPECT_FALSE(mapping.whole());
  const ImVec2 own = mapping.ToScreen(alice.local().drawn);
  EXPECT_NEAR(own.x, layout.arena.x + layout.arena.w / 2.0F, 1.0F);
  EXPECT_NEAR(own.y, layout.arena.y + layout.arena.h / 2.0F, 1.0F);
  const ArenaMapping minimap = MinimapOf(mapping);
  EXPECT_GE(
      PatchShare(image, scale, minimap.ToScreen(alice.local().drawn), PlayerColour(*alice.player_id()), 1),
      0.75)
      << "alice's dot on the minimap";
}

TEST(GuiClientRender, ConnectedClientDrawsItsCubeAndARemoteOneWhereItsViewsSay) {
  ExpectClientDrawsWhereItsViewsSay(sim::kStandardArena, "D:500,R:3000");
}

TEST(GuiClientRender, InALargerArenaTheViewFollowsTheOwnCubeWithAMinimap) {
  ExpectClientDrawsWhereItsViewsSay(sim::Arena::OfUnits(256, 144), "D:500,R:3000");
}

TEST(GuiKeysInImGui, KeysTypedIntoAFieldDoNotMoveTheCube) {
  std::unique_ptr<App> app = OpenHeadless();
  ASSERT_NE(app, nullptr);
  KeyState keyboard;
  keyboard.Set(Key::kRight);
  keyboard.Set(Key::kD);
  char text[32] = "";
  // Frame by frame: the buttons the game sees while ImGui has (or has not) a text field focused.
  const auto frame = [&](bool with_focused_field) {
    EXPECT_TRUE(app->PollEvents());
    app->BeginFrame();
    const std::uint8_t seen = GameButtons(keyboard, KeyBinding::kArrowsAndWasd);
    ImGui::Begin("field");
    if (with_focused_field) {
      ImGui::SetKeyboardFocusHere();
      ImGui::InputText("name", text, sizeof text);
    }
    ImGui::End();
    app->DiscardFrame();
    return seen;
  };
  EXPECT_EQ(frame(false), sim::kRight);
  frame(true);                // asks for the focus: the field takes it in the next frame,
  frame(true);                // and ImGui says so from the one after
  EXPECT_EQ(frame(true), 0);  // typing into it moves nothing
  frame(false);               // the field is gone
  EXPECT_EQ(frame(false), sim::kRight);
}

TEST(GuiClientRender, RefusalIsShownNotFatal) {
  std::unique_ptr<App> app = OpenHeadless();
  ASSERT_NE(app, nullptr);
  server::ServerConfig server_config;
  server_config.bind_address = "127.0.0.1";
  server_config.port = 0;
  server_config.max_clients = 1;
  std::string error;
  std::unique_ptr<server::Server> server = server::Server::Create(server_config, Micros(0), &error);
  ASSERT_NE(server, nullptr) << error;
  client::Client first(client::ClientConfig{});
  ASSERT_TRUE(first.Connect("127.0.0.1", server->port(), Micros(0), &error)) << error;

  ClientScreenConfig config;
  config.host = "127.0.0.1";
  config.port = server->port();
  ClientScreen screen(config, Micros(0));  // not connecting yet: the first player takes the only slot
  const ClientLayout layout = ClientLayout::For(app->display_size());
  bool asked = false;
  RunFrames(
      *app, 90,
      [&](Micros now) {
        server->Update(now);
        first.Update(now, 0);
        if (!asked && first.state() == client::ConnectionState::kConnected) {
          asked = true;
          EXPECT_TRUE(screen.Connect(now)) << screen.connect_error();
        }
        screen.Update(now, 0);
      },
      [&](Micros now) { screen.Draw(layout, now, {}); });
  EXPECT_TRUE(asked);
  EXPECT_EQ(screen.client().state(), client::ConnectionState::kRefused);
  EXPECT_FALSE(screen.client().status().empty());
}

TEST(GuiClientRender, BadPortIsAnErrorMessage) {
  ClientScreenConfig config;
  config.port = 0;
  ClientScreen screen(config, Micros(0));
  EXPECT_FALSE(screen.Connect(Micros(0)));
  EXPECT_FALSE(screen.connect_error().empty());
  EXPECT_EQ(screen.client().state(), client::ConnectionState::kDisconnected);
}

// A click in a player's arena is a tag by hand toward the clicked point: that player fires it, and the lab
// hands it back to be recorded. With hand tags off (a replay) the same click does nothing.
TEST(GuiLabHandTags, AClickInAnArenaTagsThatPlayerAndIsHandedBack) {
  std::unique_ptr<App> app = OpenHeadless();
  ASSERT_NE(app, nullptr);
  std::string error;
  for (const bool hand_tags : {true, false}) {
    LabConfig config =
        CompareLabConfig(*client::ParseTechniqueSets("naive,full", &error), {.latency_ms = 20}, 3);
    config.hand_tags = hand_tags;
    std::unique_ptr<Lab> lab = Lab::Create(config, VirtualFrameTime(0), &error);
    ASSERT_NE(lab, nullptr) << error;
    const LabLayout layout = LabLayout::For(app->display_size(), lab->players());
    const client::Vec2 target{10.0, 5.0};
    const ImVec2 point =
        ArenaMapping::Fit(layout.arena[layout.ColumnOf(1)], sim::kStandardArena).ToScreen(target);
    std::vector<LabHandTag> taken;
    for (int frame = 0; frame < 90; ++frame) {
      const Micros now = VirtualFrameTime(frame);
      const std::uint8_t none[] = {0, 0};
      lab->Update(now, none);
      EXPECT_TRUE(app->PollEvents());
      if (frame < 2) {
        app->BeginFrame();
      } else {
        // The SDL backend reads the machine's mouse: here ImGui's own is set instead, over player 2's arena
        // from frame 87, its button down in frame 88 only.
        ImGuiIO& io = ImGui::GetIO();
        io.DeltaTime = 1.0F / 60.0F;
        io.MousePos = frame >= 87 ? point : ImVec2(-FLT_MAX, -FLT_MAX);
        io.MouseDown[ImGuiMouseButton_Left] = frame == 88;
        ImGui::NewFrame();
      }
      lab->Draw(layout, now, {});
      app->DiscardFrame();
      for (const LabHandTag& tag : lab->TakeHandTags()) taken.push_back(tag);
    }
    EXPECT_TRUE(lab->player(0).shots().empty()) << "the click was in the other arena";
    if (!hand_tags) {
      EXPECT_TRUE(taken.empty());
      EXPECT_TRUE(lab->player(1).shots().empty());
      continue;
    }
    ASSERT_EQ(taken.size(), 1U);
    EXPECT_EQ(taken[0].player, 1U);
    ASSERT_TRUE(taken[0].request.target.has_value());
    EXPECT_NEAR(taken[0].request.target->x, target.x, 0.25) << "within a pixel";
    EXPECT_NEAR(taken[0].request.target->y, target.y, 0.25);
    EXPECT_EQ(lab->player(1).shots().size(), 1U);
  }
}

// A key pressed and released between two frames (a quick tap; xdotool's `key` takes 12 ms) never shows in
// SDL's keyboard state, which says what is held as a frame starts. The press events do: a tap of Space tags
// and a tap of an arrow moves the cube, once.
TEST(GuiLabTaps, ATapShorterThanAFrameTagsAndMoves) {
  std::unique_ptr<App> app = OpenHeadless();
  ASSERT_NE(app, nullptr);
  std::string error;
  std::unique_ptr<Lab> lab = Lab::Create(DefaultLabConfig(), VirtualFrameTime(0), &error);
  ASSERT_NE(lab, nullptr) << error;
  const LabLayout layout = LabLayout::For(app->display_size(), lab->players());
  PlayerKeys keys(std::nullopt, 1, KeyBinding::kArrows);
  std::uint64_t inputs_before_tap = 0;
  std::int32_t x_before_tap = 0;
  for (int frame = 0; frame < 240; ++frame) {
    const Micros now = VirtualFrameTime(frame);
    if (frame == 120) {
      PushKeyTap(SDL_SCANCODE_SPACE);
      PushKeyTap(SDL_SCANCODE_RIGHT);
      inputs_before_tap = lab->player(0).metrics().inputs_sent;
      x_before_tap = lab->player(0).local().predicted_state.x;
    }
    EXPECT_TRUE(app->PollEvents());
    const std::array<std::uint8_t, 2> held{keys.Held(now, lab->player(0)), 0};
    if (frame == 120) {
      EXPECT_EQ(held[0], sim::kRight) << "the tapped arrow counts until an input carries it";
    }
    lab->Update(now, held);
    app->BeginFrame();
    lab->Draw(layout, now, {});
    app->DiscardFrame();
  }
  client::Client& one = lab->player(0);
  ASSERT_EQ(one.state(), client::ConnectionState::kConnected);
  EXPECT_EQ(one.metrics().tags_fired, 1U) << "one tap, one tag";
  EXPECT_EQ(lab->player(1).metrics().tags_fired, 0U) << "Space is player 1's tag key";
  // One input with the arrow, then the few that let friction stop the cube: the tap is not held on.
  EXPECT_GE(one.metrics().inputs_sent - inputs_before_tap, 1U);
  EXPECT_LE(one.metrics().inputs_sent - inputs_before_tap, 4U);
  EXPECT_GT(one.local().server_state.x, x_before_tap) << "the server moved the cube right";
  EXPECT_EQ(one.local().server_state.vx, 0) << "and it came to rest";
}

// The lab's players spawn well apart: player 1 holding right for half a second is no collision.
TEST(GuiLab, PlayersSpawnApartSoAFirstPressIsNoCollision) {
  std::string error;
  std::unique_ptr<Lab> lab = Lab::Create(DefaultLabConfig(), VirtualFrameTime(0), &error);
  ASSERT_NE(lab, nullptr) << error;
  PlayerKeys right = Scripted("R:500");
  for (int frame = 0; frame < 180; ++frame) {
    const Micros now = VirtualFrameTime(frame);
    const std::array<std::uint8_t, 2> held{right.Held(now, lab->player(0)), 0};
    lab->Update(now, held);
  }
  const std::span<const sim::PlayerCube> world = lab->server().world();
  ASSERT_EQ(world.size(), 2U);
  EXPECT_GE(std::abs(world[0].state.x - world[1].state.x), 8 * sim::kSubUnitsPerUnit);
  EXPECT_EQ(lab->player(0).metrics().corrections, 0U) << "a correction here would be a push";
  EXPECT_EQ(lab->player(1).metrics().corrections, 0U);
}

// The client's title names the server only while connected or connecting to it.
TEST(GuiClientScreen, TheTitleNamesTheServerOnlyWhileConnected) {
  server::ServerConfig server_config;
  server_config.bind_address = "127.0.0.1";
  server_config.port = 0;
  std::string error;
  std::unique_ptr<server::Server> server = server::Server::Create(server_config, Micros(0), &error);
  ASSERT_NE(server, nullptr) << error;
  ClientScreenConfig config;
  config.client.name = "dora";
  config.host = "127.0.0.1";
  config.port = server->port();
  config.browse = false;
  ClientScreen screen(config, Micros(0));
  EXPECT_NE(screen.Title().find("dora, not connected"), std::string::npos) << screen.Title();
  EXPECT_EQ(screen.Title().find('@'), std::string::npos) << screen.Title();
  ASSERT_TRUE(screen.Connect(Micros(0))) << screen.connect_error();
  EXPECT_NE(screen.Title().find("dora @ 127.0.0.1:" + std::to_string(server->port())), std::string::npos)
      << screen.Title();
  screen.Disconnect(Micros(1000));
  EXPECT_NE(screen.Title().find("not connected"), std::string::npos) << screen.Title();
}

}  // namespace
}  // namespace netcube::gui
