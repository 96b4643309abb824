#pragma once
// Keyboard to sim::Button bits. Player 1 (and the standalone client) uses the arrow keys, player 2 W A S D.
#include <array>
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

// The tag key: Space for the arrow keys' player (and the standalone client), E for W A S D's; none while
// ImGui uses the keyboard.
bool TagKeyHeld(std::span<const std::uint8_t> scancode_state, KeyBinding binding) noexcept;

// The keys that went down since the events were last polled, released again or not, in the layout of
// SDL_GetKeyboardState. That state only says what is held when the frame starts, so a tap shorter than a
// frame (press and release in one poll) never shows in it: these do.
class KeyPresses {
 public:
  static constexpr std::size_t kScancodes = 512;  // SDL_NUM_SCANCODES
  void Clear() noexcept { pressed_.fill(0); }
  // A key went down (key repeats are not presses).
  void Press(int scancode) noexcept;
  std::span<const std::uint8_t> state() const noexcept { return pressed_; }

 private:
  std::array<std::uint8_t, kScancodes> pressed_{};
};
// The process's presses, which App::PollEvents records: one per process, as SDL's keyboard state is.
KeyPresses& FramePresses() noexcept;

// Whether the tag key went down since the last frame (a tap shorter than a frame included); never while
// ImGui uses the keyboard.
bool TagKeyPressedNow(KeyBinding binding) noexcept;

// One player's buttons: from a script (netcube-client --script) once the player is connected, so a slow
// handshake eats none of it; from the keyboard when there is no script. A key tapped between two frames
// counts as held until the player has sent an input with it, so a tap moves the cube.
class PlayerKeys {
 public:
  PlayerKeys(std::optional<client::InputScript> script, std::uint64_t seed, KeyBinding binding);
  std::uint8_t Held(Micros now, const client::Client& player);
  // The same from a given keyboard: what is held now and what went down since the last frame.
  std::uint8_t FromKeyboard(std::span<const std::uint8_t> held, std::span<const std::uint8_t> pressed,
                            const client::Client& player);

 private:
  std::optional<client::InputScript> script_;
  std::uint64_t seed_;
  KeyBinding binding_;
  std::optional<Micros> start_;  // when the player was first seen connected
  std::uint8_t tapped_ = 0;      // buttons pressed since the player last sent an input
  std::uint64_t inputs_sent_ = 0;
};

}  // namespace netcube::gui
