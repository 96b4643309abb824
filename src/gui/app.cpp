#include "netcube/gui/app.h"

#include <SDL.h>

#include <array>
#include <cmath>
#include <optional>

#include "imgui_impl_sdl.h"
#include "imgui_impl_sdlrenderer.h"
#include "netcube/gui/keys.h"
#include "netcube/gui/theme.h"

namespace netcube::gui {
namespace {

constexpr float kBaseFontPixels = 13.0F;  // ImGui's built-in font at its native size

std::string SdlError(const char* what) { return std::string(what) + ": " + SDL_GetError(); }

// Escape quits as closing the window does, unless ImGui has a use for it: closing a menu or leaving a text
// field.
bool QuitsOnEscape() {
  return !ImGui::GetIO().WantTextInput && !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId);
}

// The game's keys by SDL scancode: physical positions, whatever the layout.
constexpr std::array<SDL_Scancode, kKeyCount> kScancodes{
    SDL_SCANCODE_UP, SDL_SCANCODE_DOWN, SDL_SCANCODE_LEFT, SDL_SCANCODE_RIGHT, SDL_SCANCODE_W,
    SDL_SCANCODE_A,  SDL_SCANCODE_S,    SDL_SCANCODE_D,    SDL_SCANCODE_E,     SDL_SCANCODE_SPACE,
    SDL_SCANCODE_P,  SDL_SCANCODE_TAB,  SDL_SCANCODE_F};
static_assert(kScancodes[static_cast<std::size_t>(Key::kF)] == SDL_SCANCODE_F);

std::optional<Key> KeyOf(SDL_Scancode scancode) {
  for (std::size_t i = 0; i < kScancodes.size(); ++i) {
    if (kScancodes[i] == scancode) return static_cast<Key>(i);
  }
  return std::nullopt;
}

KeyState& Presses() noexcept {
  static KeyState presses;
  return presses;
}

// The offscreen video driver and the software renderer, whatever the environment asks for.
void AskForOffscreenSoftware() {
  // Override, so that an SDL_VIDEODRIVER in the environment cannot send a headless run to a display.
  SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, "offscreen", SDL_HINT_OVERRIDE);
  SDL_SetHintWithPriority(SDL_HINT_RENDER_DRIVER, "software", SDL_HINT_OVERRIDE);
  // The software renderer then draws straight into the window's surface instead of a GL texture: no GL
  // driver is loaded (Mesa's leaks its configuration strings at exit, which LeakSanitizer reports).
  SDL_SetHintWithPriority(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0", SDL_HINT_OVERRIDE);
}

// HiDPI: the pixels of the renderer's output a point of the window has, when more than one.
std::optional<float> HiDpiScale(SDL_Renderer* renderer, SDL_Window* window) {
  int output_width = 0;
  int output_height = 0;
  int window_width = 0;
  int window_height = 0;
  SDL_GetRendererOutputSize(renderer, &output_width, &output_height);
  SDL_GetWindowSize(window, &window_width, &window_height);
  if (window_width <= 0 || output_width <= window_width) return std::nullopt;
  return static_cast<float>(output_width) / static_cast<float>(window_width);
}

}  // namespace

std::unique_ptr<App> App::Create(const AppConfig& config, std::string* error) {
  if (config.headless) AskForOffscreenSoftware();
  if (SDL_Init(SDL_INIT_VIDEO) != 0) {
    *error = SdlError("cannot initialise SDL video");
    return nullptr;
  }
  std::unique_ptr<App> app(new App());
  app->window_ =
      SDL_CreateWindow(config.title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, config.width,
                       config.height, SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  if (app->window_ == nullptr) {
    *error = SdlError("cannot open a window");
    return nullptr;
  }
  if (!config.headless) {
    Uint32 flags = SDL_RENDERER_ACCELERATED;
    if (config.vsync) flags |= SDL_RENDERER_PRESENTVSYNC;
    app->renderer_ = SDL_CreateRenderer(app->window_, -1, flags);
  }
  if (app->renderer_ == nullptr) app->renderer_ = SDL_CreateRenderer(app->window_, -1, SDL_RENDERER_SOFTWARE);
  if (app->renderer_ == nullptr) {
    *error = SdlError("cannot create a renderer");
    return nullptr;
  }
  SDL_RendererInfo info;
  // SDL 2.26's software renderer reports PRESENTVSYNC whatever it was asked, yet its present (a window
  // surface update, nothing at all offscreen) never waits: only an accelerated renderer asked for vsync
  // paces the frames.
  if (SDL_GetRendererInfo(app->renderer_, &info) == 0) {
    app->has_vsync_ = config.vsync && (info.flags & SDL_RENDERER_PRESENTVSYNC) != 0 &&
                      (info.flags & SDL_RENDERER_SOFTWARE) == 0;
  }

  if (const std::optional<float> scale = HiDpiScale(app->renderer_, app->window_)) {
    app->pixel_scale_ = *scale;
    // The UI is laid out in points; SDL scales it to pixels (and the ImGui backend then leaves it alone).
    SDL_RenderSetScale(app->renderer_, app->pixel_scale_, app->pixel_scale_);
  }

  IMGUI_CHECKVERSION();
  app->imgui_ = ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is computed every frame: nothing worth saving
  ApplyTheme(ImGui::GetStyle());
  app->BuildFonts();
  ImGui_ImplSDL2_InitForSDLRenderer(app->window_);
  ImGui_ImplSDLRenderer_Init(app->renderer_);
  app->backends_ready_ = true;
  return app;
}

App::~App() {
  if (backends_ready_) {
    ImGui_ImplSDLRenderer_Shutdown();
    ImGui_ImplSDL2_Shutdown();
  }
  if (imgui_ != nullptr) ImGui::DestroyContext(imgui_);
  if (renderer_ != nullptr) SDL_DestroyRenderer(renderer_);
  if (window_ != nullptr) SDL_DestroyWindow(window_);
  SDL_Quit();
}

void App::BuildFonts() {
  // Rasterise the font at the framebuffer's resolution and scale it back to points: crisp text on HiDPI.
  ImGuiIO& io = ImGui::GetIO();
  ImFontConfig font;
  font.SizePixels = std::round(kBaseFontPixels * pixel_scale_);
  io.Fonts->AddFontDefault(&font);
  io.FontGlobalScale = 1.0F / pixel_scale_;
}

bool App::PollEvents() {
  bool keep_running = true;
  KeyState& presses = Presses();
  presses.Clear();
  SDL_Event event;
  while (SDL_PollEvent(&event) != 0) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    if (event.type == SDL_KEYDOWN && event.key.repeat == 0) {
      if (const std::optional<Key> key = KeyOf(event.key.keysym.scancode)) presses.Set(*key);
    }
    if (event.type == SDL_QUIT) keep_running = false;
    if (event.type == SDL_KEYDOWN && event.key.keysym.scancode == SDL_SCANCODE_ESCAPE && QuitsOnEscape())
      keep_running = false;
    if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE &&
        event.window.windowID == SDL_GetWindowID(window_)) {
      keep_running = false;
    }
  }
  return keep_running;
}

void App::BeginFrame() {
  ImGui_ImplSDLRenderer_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
}

void App::Render() {
  ImGui::Render();
  // The panels' colour: they are drawn by the clear (gui/backdrop.h).
  SDL_SetRenderDrawColor(renderer_, kPanelBackground.r, kPanelBackground.g, kPanelBackground.b, 255);
  SDL_RenderClear(renderer_);
  ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
}

void App::DiscardFrame() { ImGui::Render(); }

Image App::Capture() const {
  Image image;
  if (SDL_GetRendererOutputSize(renderer_, &image.width, &image.height) != 0) return {};
  image.rgba.resize(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4);
  // ABGR8888 is a packed format: on a little-endian machine its bytes are R, G, B, A.
  const Uint32 format = SDL_BYTEORDER == SDL_LIL_ENDIAN ? SDL_PIXELFORMAT_ABGR8888 : SDL_PIXELFORMAT_RGBA8888;
  if (SDL_RenderReadPixels(renderer_, nullptr, format, image.rgba.data(), image.width * 4) != 0) return {};
  return image;
}

void App::Present() { SDL_RenderPresent(renderer_); }

ImVec2 App::display_size() const noexcept {
  int width = 0;
  int height = 0;
  SDL_GetWindowSize(window_, &width, &height);
  return {static_cast<float>(width), static_cast<float>(height)};
}

KeyState App::HeldKeys() noexcept {
  int count = 0;
  const Uint8* state = SDL_GetKeyboardState(&count);
  KeyState held;
  for (std::size_t i = 0; i < kScancodes.size(); ++i) {
    const auto scancode = static_cast<int>(kScancodes[i]);
    if (scancode < count && state[scancode] != 0) held.Set(static_cast<Key>(i));
  }
  return held;
}

const KeyState& App::PressedKeys() noexcept { return Presses(); }

// The SDL backend indexes ImGui's keys by scancode.
int App::ImGuiKeyIndex(Key key) noexcept { return kScancodes[static_cast<std::size_t>(key)]; }

bool App::minimised() const noexcept { return (SDL_GetWindowFlags(window_) & SDL_WINDOW_MINIMIZED) != 0; }

}  // namespace netcube::gui
