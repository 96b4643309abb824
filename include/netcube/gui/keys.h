#pragma once
// Keyboard to sim::Button bits. Player 1 (and the standalone client) uses the arrow keys, player 2 W A S D.
#include <cstdint>
#include <optional>
#include <span>

#include "netcube/client/client.h"
#include "netcube/client/input_script.h"
#include "netcube/sim/time.h"

namespace netcube::gui {

enum class KeyBinding : std::uint8_t { kArrows, kWasd, kArrowsAndWasd };

// The buttons held in an SDL keyboard state (SDL_GetKeyboardState: one byte per SDL_Scancode).
std::uint8_t ButtonsFromKeyboard(std::span<const std::uint8_t> scancode_state, KeyBinding binding) noexcept;

// The buttons held in `scancode_state` that move the cube; none while ImGui uses the keyboard (typing in a
// field, dragging a slider), as the latest ImGui::NewFrame decided from the frame before.
std::uint8_t GameButtons(std::span<const std::uint8_t> scancode_state, KeyBinding binding) noexcept;
// GameButtons of the keyboard now.
std::uint8_t HeldButtons(KeyBinding binding) noexcept;

// The tag key: Space for the arrow keys' player (and the standalone client), E for W A S D's; none while
// ImGui uses the keyboard.
bool TagKeyHeld(std::span<const std::uint8_t> scancode_state, KeyBinding binding) noexcept;
bool TagKeyHeldNow(KeyBinding binding) noexcept;

// One player's buttons: from a script (netcube-client --script) once the player is connected, so a slow
// handshake eats none of it; from the keyboard when there is no script.
class PlayerKeys {
 public:
  PlayerKeys(std::optional<client::InputScript> script, std::uint64_t seed, KeyBinding binding);
  std::uint8_t Held(Micros now, const client::Client& player);

 private:
  std::optional<client::InputScript> script_;
  std::uint64_t seed_;
  KeyBinding binding_;
  std::optional<Micros> start_;  // when the player was first seen connected
};

}  // namespace netcube::gui
