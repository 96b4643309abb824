#include "netcube/gui/keys.h"

#include <SDL.h>
#include <gtest/gtest.h>

#include <memory>

#include "headless_app.h"
#include "netcube/sim/move.h"

namespace netcube::gui {
namespace {

KeyState Held(std::initializer_list<Key> keys) {
  KeyState state;
  for (const Key key : keys) state.Set(key);
  return state;
}

TEST(GuiKeys, ArrowsMovePlayerOneAndWasdPlayerTwo) {
  const auto state = Held({Key::kUp, Key::kRight, Key::kS});
  EXPECT_EQ(ButtonsFromKeyboard(state, KeyBinding::kArrows), sim::kUp | sim::kRight);
  EXPECT_EQ(ButtonsFromKeyboard(state, KeyBinding::kWasd), sim::kDown);
  EXPECT_EQ(ButtonsFromKeyboard(state, KeyBinding::kArrowsAndWasd), sim::kUp | sim::kRight | sim::kDown);
}

TEST(GuiKeys, EveryDirection) {
  EXPECT_EQ(ButtonsFromKeyboard(Held({Key::kW, Key::kA}), KeyBinding::kWasd), sim::kUp | sim::kLeft);
  EXPECT_EQ(ButtonsFromKeyboard(Held({Key::kDown, Key::kLeft}), KeyBinding::kArrows),
            sim::kDown | sim::kLeft);
  EXPECT_EQ(ButtonsFromKeyboard(Held({Key::kD}), KeyBinding::kArrows), 0);
  EXPECT_EQ(ButtonsFromKeyboard(Held({}), KeyBinding::kArrowsAndWasd), 0);
}

// App maps the platform's keys to the game's: a key pressed and released between two polls is a press.
TEST(GuiKeys, AppRecordsThePressesOfTheGameKeysAlone) {
  std::unique_ptr<App> app = OpenHeadlessApp(320, 240);
  ASSERT_NE(app, nullptr);
  for (const SDL_Scancode scancode : {SDL_SCANCODE_P, SDL_SCANCODE_LEFT, SDL_SCANCODE_Q, SDL_SCANCODE_TAB}) {
    PushKeyTap(scancode);
  }
  ASSERT_TRUE(app->PollEvents());
  const KeyState& pressed = App::PressedKeys();
  EXPECT_TRUE(pressed[Key::kP]);
  EXPECT_TRUE(pressed[Key::kLeft]);
  EXPECT_FALSE(pressed[Key::kRight]);
  EXPECT_TRUE(pressed[Key::kTab]) << "a spectator's next player";
  EXPECT_FALSE(pressed[Key::kF]);
  EXPECT_FALSE(App::HeldKeys()[Key::kLeft]) << "released again before the frame";
  ASSERT_TRUE(app->PollEvents());
  EXPECT_FALSE(App::PressedKeys()[Key::kP]) << "a press lasts one poll";
  EXPECT_EQ(App::ImGuiKeyIndex(Key::kP), SDL_SCANCODE_P);
}

}  // namespace
}  // namespace netcube::gui
