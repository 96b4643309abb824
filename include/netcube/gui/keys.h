#pragma once
// Keyboard to sim::Button bits. Player 1 (and the standalone client) uses the arrow keys, player 2 W A S D.
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "netcube/client/client.h"
#include "netcube/client/input_script.h"
#include "netcube/sim/time.h"

namespace netcube::gui {

enum class KeyBinding : std::uint8_t { kArrows, kWasd, kArrowsAndWasd };

// The keys the game reads, in its own terms: App maps the platform's keys to them (by position, so W A S D
// sit in the same place on every keyboard layout).
enum class Key : std::uint8_t { kUp, kDown, kLeft, kRight, kW, kA, kS, kD, kE, kSpace, kP, kTab, kF };
inline constexpr std::size_t kKeyCount = 13;

// Which keys are down, or went down.
class KeyState {
 public:
  bool operator[](Key key) const noexcept { return bits_.test(static_cast<std::size_t>(key)); }
  void Set(Key key, bool down = true) noexcept { bits_.set(static_cast<std::size_t>(key), down); }
  void Clear() noexcept { bits_.reset(); }

 private:
  std::bitset<kKeyCount> bits_;
};

// The buttons held in `keys`.
std::uint8_t ButtonsFromKeyboard(const KeyState& keys, KeyBinding binding) noexcept;

// The buttons held in `keys` that move the cube; none while ImGui uses the keyboard (typing in a field,
// dragging a slider), as the latest ImGui::NewFrame decided from the frame before.
std::uint8_t GameButtons(const KeyState& keys, KeyBinding binding) noexcept;

// The tag key: Space for the arrow keys' player (and the standalone client), E for W A S D's; none while
// ImGui uses the keyboard.
bool TagKeyHeld(const KeyState& keys, KeyBinding binding) noexcept;

// Whether the tag key went down since the last frame (a tap shorter than a frame included); never while
// ImGui uses the keyboard.
bool TagKeyPressedNow(KeyBinding binding) noexcept;

// Whether `key` went down since the last frame; never while ImGui uses the keyboard (a spectator's Tab
// and F).
bool KeyPressedNow(Key key) noexcept;

// One player's buttons: from a script (netcube-client --script) once the player is connected, so a slow
// handshake eats none of it; from the keyboard when there is no script. A key tapped between two frames
// counts as held until the player has sent an input with it, so a tap moves the cube.
class PlayerKeys {
 public:
  PlayerKeys(std::optional<client::InputScript> script, std::uint64_t seed, KeyBinding binding);
  std::uint8_t Held(Micros now, const client::Client& player);
  // The same from a given keyboard: what is held now and what went down since the last frame.
  std::uint8_t FromKeyboard(const KeyState& held, const KeyState& pressed, const client::Client& player);

 private:
  std::optional<client::InputScript> script_;
  std::uint64_t seed_;
  KeyBinding binding_;
  std::optional<Micros> start_;  // when the player was first seen connected
  std::uint8_t tapped_ = 0;      // buttons pressed since the player last sent an input
  std::uint64_t inputs_sent_ = 0;
};

}  // namespace netcube::gui
