#include "netcube/gui/keys.h"

#include <imgui.h>

#include <utility>

#include "netcube/gui/app.h"
#include "netcube/sim/move.h"

namespace netcube::gui {
namespace {

struct KeyMap {
  Key up;
  Key down;
  Key left;
  Key right;
};

constexpr KeyMap kArrowKeys{Key::kUp, Key::kDown, Key::kLeft, Key::kRight};
constexpr KeyMap kWasdKeys{Key::kW, Key::kS, Key::kA, Key::kD};

std::uint8_t Read(const KeyState& keys, const KeyMap& map) {
  std::uint8_t buttons = 0;
  if (keys[map.up]) buttons |= sim::kUp;
  if (keys[map.down]) buttons |= sim::kDown;
  if (keys[map.left]) buttons |= sim::kLeft;
  if (keys[map.right]) buttons |= sim::kRight;
  return buttons;
}

bool ImGuiUsesKeyboard() {
  const ImGuiIO& io = ImGui::GetIO();
  return io.WantCaptureKeyboard || io.WantTextInput;  // the keys are going into a field or slider
}

}  // namespace

std::uint8_t ButtonsFromKeyboard(const KeyState& keys, KeyBinding binding) noexcept {
  switch (binding) {
    case KeyBinding::kArrows:
      return Read(keys, kArrowKeys);
    case KeyBinding::kWasd:
      return Read(keys, kWasdKeys);
    case KeyBinding::kArrowsAndWasd:
      return static_cast<std::uint8_t>(Read(keys, kArrowKeys) | Read(keys, kWasdKeys));
  }
  return 0;
}

std::uint8_t GameButtons(const KeyState& keys, KeyBinding binding) noexcept {
  if (ImGuiUsesKeyboard()) return 0;
  return ButtonsFromKeyboard(keys, binding);
}

bool TagKeyHeld(const KeyState& keys, KeyBinding binding) noexcept {
  if (ImGuiUsesKeyboard()) return false;
  return keys[binding == KeyBinding::kWasd ? Key::kE : Key::kSpace];
}

bool TagKeyPressedNow(KeyBinding binding) noexcept { return TagKeyHeld(App::PressedKeys(), binding); }

bool KeyPressedNow(Key key) noexcept { return !ImGuiUsesKeyboard() && App::PressedKeys()[key]; }

PlayerKeys::PlayerKeys(std::optional<client::InputScript> script, std::uint64_t seed, KeyBinding binding)
    : script_(std::move(script)), seed_(seed), binding_(binding) {}

std::uint8_t PlayerKeys::Held(Micros now, const client::Client& player) {
  if (!script_) return FromKeyboard(App::HeldKeys(), App::PressedKeys(), player);
  if (player.state() != client::ConnectionState::kConnected) return 0;
  if (!start_) start_ = now;
  return script_->ButtonsAt(now - *start_, seed_);
}

std::uint8_t PlayerKeys::FromKeyboard(const KeyState& held, const KeyState& pressed,
                                      const client::Client& player) {
  // A spectator sends no input: its keys move a camera every frame, so a tap counts for its frame only.
  if (player.spectator()) {
    tapped_ = 0;
    return static_cast<std::uint8_t>(GameButtons(held, binding_) | GameButtons(pressed, binding_));
  }
  // The sampler takes an input at its own pace, not every frame: a tap waits for the next one.
  const std::uint64_t sent = player.metrics().inputs_sent;
  if (sent != inputs_sent_) tapped_ = 0;
  inputs_sent_ = sent;
  tapped_ |= GameButtons(pressed, binding_);
  return static_cast<std::uint8_t>(GameButtons(held, binding_) | tapped_);
}

}  // namespace netcube::gui
