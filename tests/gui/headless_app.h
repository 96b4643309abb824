#pragma once
// Real frames without a display, for the GUI's tests: an App on SDL's offscreen video driver and software
// renderer, ImGui frames whose input (keys, mouse, wheel) the test sets itself, and a player's keys from a
// script.
#include <SDL.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <cfloat>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "netcube/client/input_script.h"
#include "netcube/gui/app.h"
#include "netcube/gui/keys.h"

namespace netcube::gui {

// A headless window of `width` x `height` points, without vsync.
inline std::unique_ptr<App> OpenHeadlessApp(int width, int height) {
  AppConfig config;
  config.width = width;
  config.height = height;
  config.vsync = false;
  config.headless = true;
  std::string error;
  std::unique_ptr<App> app = App::Create(config, &error);
  EXPECT_NE(app, nullptr) << error;
  return app;
}

// A key pressed and released, as SDL's events: the App's next poll reads them.
inline void PushKeyTap(SDL_Scancode scancode) {
  for (const Uint32 type : {SDL_KEYDOWN, SDL_KEYUP}) {
    SDL_Event event{};
    event.type = type;
    event.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
    event.key.keysym.scancode = scancode;
    ASSERT_EQ(SDL_PushEvent(&event), 1) << SDL_GetError();
  }
}

// What the test's hands do during one frame.
struct FrameInput {
  int key = -1;  // an SDL scancode held down, or -1
  bool shift = false;
  ImVec2 mouse{-FLT_MAX, -FLT_MAX};
  bool click = false;  // the left button held down
  float wheel = 0.0F;  // the wheel's turn (negative: down)
};

// An App whose frames take their input from the test (InputFrame) rather than from SDL's events.
inline std::unique_ptr<App> OpenHeadlessAppForInput(int width, int height) {
  std::unique_ptr<App> app = OpenHeadlessApp(width, height);
  if (app == nullptr) return app;
  // The backend's frame sets the display's size; InputFrame's frames then set ImGui's input themselves.
  EXPECT_TRUE(app->PollEvents());
  app->BeginFrame();
  app->DiscardFrame();
  return app;
}

// Starts an ImGui frame 1/60 s after the last with `input` alone; the test draws, then calls
// app.DiscardFrame().
inline void InputFrame(App& app, const FrameInput& input) {
  EXPECT_TRUE(app.PollEvents());
  ImGuiIO& io = ImGui::GetIO();
  io.DeltaTime = 1.0F / 60.0F;
  io.MousePos = input.mouse;
  io.MouseDown[ImGuiMouseButton_Left] = input.click;
  io.MouseWheel = input.wheel;
  for (bool& down : io.KeysDown) down = false;
  if (input.key >= 0) io.KeysDown[input.key] = true;
  io.KeyShift = input.shift;
  ImGui::NewFrame();
}

// A player's keys held as `text` (an InputScript) says, on the arrow keys.
inline PlayerKeys Scripted(const std::string& text) {
  std::string error;
  std::optional<client::InputScript> script = client::InputScript::Parse(text, &error);
  EXPECT_TRUE(script.has_value()) << error;
  return PlayerKeys(std::move(script), 1, KeyBinding::kArrows);
}

}  // namespace netcube::gui
