#pragma once
// The application shell (Dear ImGui's example order): SDL2 window and SDL_Renderer, ImGui context and
// backends, then per frame: PollEvents, BeginFrame, the caller's UI, Render, optionally Capture, Present
// (or DiscardFrame instead of the last three).
// Headless mode uses SDL's offscreen video driver and the software renderer: real frames, no display.
#include <imgui.h>

#include <memory>
#include <string>

#include "netcube/gui/image.h"
#include "netcube/gui/keys.h"

struct SDL_Window;
struct SDL_Renderer;

namespace netcube::gui {

struct AppConfig {
  std::string title = "netcube";
  int width = 1280;  // window size in points
  int height = 720;
  bool vsync = true;
  // SDL's offscreen video driver and the software renderer, whatever the environment says.
  bool headless = false;
};

class App {
 public:
  // One App per process at a time (it owns SDL's video subsystem and the ImGui context). nullptr with
  // `error` set when SDL cannot open a window or a renderer.
  static std::unique_ptr<App> Create(const AppConfig& config, std::string* error);
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  // Handles pending events. False once the window was closed or the user asked to quit (Escape, unless a
  // menu is open or a text field is being edited).
  bool PollEvents();
  // Starts an ImGui frame.
  void BeginFrame();
  // Finishes the ImGui frame and draws it into the back buffer (not yet shown).
  void Render();
  // Finishes the ImGui frame without drawing it: a screenshot run only needs its last frame's pixels.
  void DiscardFrame();
  // The back buffer as drawn by Render, in framebuffer pixels.
  Image Capture() const;
  // Shows the frame; with vsync this waits for the display.
  void Present();

  // Points the UI is laid out in (ImGui's display size).
  ImVec2 display_size() const noexcept;
  // Framebuffer pixels per point: 2 on a HiDPI display, else 1.
  float pixel_scale() const noexcept { return pixel_scale_; }
  bool has_vsync() const noexcept { return has_vsync_; }
  // Whether the window is minimised (nothing is shown, so nothing paces the loop).
  bool minimised() const noexcept;

  // The keyboard in the game's keys; static as the platform's keyboard is one per process. The keys held
  // now: the state when the frame starts, so a tap shorter than a frame never shows in it.
  static KeyState HeldKeys() noexcept;
  // The keys that went down (key repeats aside) between the last two PollEvents, released again or not.
  static const KeyState& PressedKeys() noexcept;
  // ImGui's index of `key`, for ImGui::IsKeyPressed: ImGui 1.86 names only the navigation keys itself.
  static int ImGuiKeyIndex(Key key) noexcept;

 private:
  App() = default;
  void BuildFonts();

  SDL_Window* window_ = nullptr;
  SDL_Renderer* renderer_ = nullptr;
  ImGuiContext* imgui_ = nullptr;
  bool backends_ready_ = false;
  float pixel_scale_ = 1.0F;
  bool has_vsync_ = false;
};

}  // namespace netcube::gui
