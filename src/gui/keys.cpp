#include "netcube/gui/keys.h"

#include <SDL.h>
#include <imgui.h>

#include <utility>

#include "netcube/sim/move.h"

namespace netcube::gui {
namespace {

struct KeyMap {
  SDL_Scancode up;
  SDL_Scancode down;
  SDL_Scancode left;
  SDL_Scancode right;
};

// Scancodes are physical positions: W A S D sit in the same place on every keyboard layout.
constexpr KeyMap kArrowKeys{SDL_SCANCODE_UP, SDL_SCANCODE_DOWN, SDL_SCANCODE_LEFT, SDL_SCANCODE_RIGHT};
constexpr KeyMap kWasdKeys{SDL_SCANCODE_W, SDL_SCANCODE_S, SDL_SCANCODE_A, SDL_SCANCODE_D};

std::uint8_t Read(std::span<const std::uint8_t> state, const KeyMap& keys) {
  const auto held = [state](SDL_Scancode code) {
    const auto index = static_cast<std::size_t>(code);
    return index < state.size() && state[index] != 0;
  };
  std::uint8_t buttons = 0;
  if (held(keys.up)) buttons |= sim::kUp;
  if (held(keys.down)) buttons |= sim::kDown;
  if (held(keys.left)) buttons |= sim::kLeft;
  if (held(keys.right)) buttons |= sim::kRight;
  return buttons;
}

}  // namespace

std::uint8_t ButtonsFromKeyboard(std::span<const std::uint8_t> scancode_state, KeyBinding binding) noexcept {
  switch (binding) {
    case KeyBinding::kArrows:
      return Read(scancode_state, kArrowKeys);
    case KeyBinding::kWasd:
      return Read(scancode_state, kWasdKeys);
    case KeyBinding::kArrowsAndWasd:
      return static_cast<std::uint8_t>(Read(scancode_state, kArrowKeys) | Read(scancode_state, kWasdKeys));
  }
  return 0;
}

std::uint8_t GameButtons(std::span<const std::uint8_t> scancode_state, KeyBinding binding) noexcept {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard || io.WantTextInput) return 0;  // the keys are going into a field or slider
  return ButtonsFromKeyboard(scancode_state, binding);
}

bool TagKeyHeld(std::span<const std::uint8_t> scancode_state, KeyBinding binding) noexcept {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard || io.WantTextInput) return false;
  const auto index =
      static_cast<std::size_t>(binding == KeyBinding::kWasd ? SDL_SCANCODE_E : SDL_SCANCODE_SPACE);
  return index < scancode_state.size() && scancode_state[index] != 0;
}

static_assert(KeyPresses::kScancodes == SDL_NUM_SCANCODES);

void KeyPresses::Press(int scancode) noexcept {
  if (scancode >= 0 && static_cast<std::size_t>(scancode) < kScancodes) {
    pressed_[static_cast<std::size_t>(scancode)] = 1;
  }
}

KeyPresses& FramePresses() noexcept {
  static KeyPresses presses;
  return presses;
}

bool TagKeyPressedNow(KeyBinding binding) noexcept { return TagKeyHeld(FramePresses().state(), binding); }

PlayerKeys::PlayerKeys(std::optional<client::InputScript> script, std::uint64_t seed, KeyBinding binding)
    : script_(std::move(script)), seed_(seed), binding_(binding) {}

std::uint8_t PlayerKeys::Held(Micros now, const client::Client& player) {
  if (!script_) {
    int count = 0;
    const Uint8* state = SDL_GetKeyboardState(&count);
    return FromKeyboard({state, static_cast<std::size_t>(count)}, FramePresses().state(), player);
  }
  if (player.state() != client::ConnectionState::kConnected) return 0;
  if (!start_) start_ = now;
  return script_->ButtonsAt(now - *start_, seed_);
}

std::uint8_t PlayerKeys::FromKeyboard(std::span<const std::uint8_t> held,
                                      std::span<const std::uint8_t> pressed, const client::Client& player) {
  // The sampler takes an input at its own pace, not every frame: a tap waits for the next one.
  const std::uint64_t sent = player.metrics().inputs_sent;
  if (sent != inputs_sent_) tapped_ = 0;
  inputs_sent_ = sent;
  tapped_ |= GameButtons(pressed, binding_);
  return static_cast<std::uint8_t>(GameButtons(held, binding_) | tapped_);
}

}  // namespace netcube::gui
