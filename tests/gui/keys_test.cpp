#include "netcube/gui/keys.h"

#include <SDL_scancode.h>
#include <gtest/gtest.h>

#include <vector>

#include "netcube/sim/move.h"

namespace netcube::gui {
namespace {

std::vector<std::uint8_t> Held(std::initializer_list<SDL_Scancode> keys) {
  std::vector<std::uint8_t> state(SDL_NUM_SCANCODES, 0);
  for (const SDL_Scancode key : keys) state[static_cast<std::size_t>(key)] = 1;
  return state;
}

TEST(GuiKeys, ArrowsMovePlayerOneAndWasdPlayerTwo) {
  const auto state = Held({SDL_SCANCODE_UP, SDL_SCANCODE_RIGHT, SDL_SCANCODE_S});
  EXPECT_EQ(ButtonsFromKeyboard(state, KeyBinding::kArrows), sim::kUp | sim::kRight);
  EXPECT_EQ(ButtonsFromKeyboard(state, KeyBinding::kWasd), sim::kDown);
  EXPECT_EQ(ButtonsFromKeyboard(state, KeyBinding::kArrowsAndWasd), sim::kUp | sim::kRight | sim::kDown);
}

TEST(GuiKeys, EveryDirection) {
  EXPECT_EQ(ButtonsFromKeyboard(Held({SDL_SCANCODE_W, SDL_SCANCODE_A}), KeyBinding::kWasd),
            sim::kUp | sim::kLeft);
  EXPECT_EQ(ButtonsFromKeyboard(Held({SDL_SCANCODE_DOWN, SDL_SCANCODE_LEFT}), KeyBinding::kArrows),
            sim::kDown | sim::kLeft);
  EXPECT_EQ(ButtonsFromKeyboard(Held({SDL_SCANCODE_D}), KeyBinding::kArrows), 0);
  EXPECT_EQ(ButtonsFromKeyboard(Held({}), KeyBinding::kArrowsAndWasd), 0);
}

TEST(GuiKeys, ShortStateArrayIsSafe) {
  const std::vector<std::uint8_t> tiny(SDL_SCANCODE_A, 1);  // ends before the lowest key used
  EXPECT_EQ(ButtonsFromKeyboard(tiny, KeyBinding::kArrowsAndWasd), 0);
  EXPECT_EQ(ButtonsFromKeyboard({}, KeyBinding::kArrows), 0);
}

}  // namespace
}  // namespace netcube::gui
