#include "netcube/gui/arena.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "netcube/gui/client_screen.h"
#include "netcube/gui/lab.h"
#include "netcube/gui/theme.h"

namespace netcube::gui {
namespace {

TEST(GuiArenaMapping, FitsTheWholeArenaKeepingItsAspect) {
  // 64 x 36 units into 640 x 600 points: 10 points per unit, centred vertically.
  const ArenaMapping mapping = ArenaMapping::Fit({100.0F, 50.0F, 640.0F, 600.0F}, sim::kStandardArena);
  EXPECT_FLOAT_EQ(mapping.pixels_per_unit(), 10.0F);
  EXPECT_FLOAT_EQ(mapping.arena().x, 100.0F);
  EXPECT_FLOAT_EQ(mapping.arena().y, 50.0F + (600.0F - 360.0F) / 2.0F);
  EXPECT_FLOAT_EQ(mapping.arena().w, 640.0F);
  EXPECT_FLOAT_EQ(mapping.arena().h, 360.0F);
}

TEST(GuiArenaMapping, MapsCornersAndCentre) {
  const ArenaMapping mapping = ArenaMapping::Fit({0.0F, 0.0F, 1280.0F, 720.0F}, sim::kStandardArena);
  const ImVec2 origin = mapping.ToScreen({0.0, 0.0});
  const ImVec2 far = mapping.ToScreen({64.0, 36.0});
  const ImVec2 centre = mapping.ToScreen(client::PositionOf(sim::CubeState{}));  // a new cube is centred
  EXPECT_FLOAT_EQ(origin.x, 0.0F);
  EXPECT_FLOAT_EQ(origin.y, 0.0F);
  EXPECT_FLOAT_EQ(far.x, 1280.0F);
  EXPECT_FLOAT_EQ(far.y, 720.0F);
  EXPECT_FLOAT_EQ(centre.x, 640.0F);
  EXPECT_FLOAT_EQ(centre.y, 360.0F);
  // y grows downward, as in the simulation.
  EXPECT_GT(mapping.ToScreen({1.0, 2.0}).y, mapping.ToScreen({1.0, 1.0}).y);
}

TEST(GuiArenaMapping, WideAreaIsCentredHorizontally) {
  const ArenaMapping mapping = ArenaMapping::Fit({0.0F, 0.0F, 1000.0F, 180.0F}, sim::kStandardArena);
  EXPECT_FLOAT_EQ(mapping.pixels_per_unit(), 5.0F);
  EXPECT_FLOAT_EQ(mapping.arena().x, (1000.0F - 320.0F) / 2.0F);
}

TEST(GuiArenaMapping, FollowingTheStandardArenaShowsAllOfIt) {
  const Rect area{0.0F, 0.0F, 1280.0F, 720.0F};
  const ArenaMapping followed = ArenaMapping::Follow(area, sim::kStandardArena, {3.0, 3.0});
  const ArenaMapping fitted = ArenaMapping::Fit(area, sim::kStandardArena);
  EXPECT_TRUE(followed.whole());
  EXPECT_FLOAT_EQ(followed.pixels_per_unit(), fitted.pixels_per_unit());
  EXPECT_FLOAT_EQ(followed.ToScreen({3.0, 3.0}).x, fitted.ToScreen({3.0, 3.0}).x);
}

// A larger arena is drawn at the standard arena's scale around the followed cube, which stays in the
// middle until the part drawn reaches a wall.
TEST(GuiArenaMapping, FollowingALargeArenaKeepsTheCubeInSightWithinTheWalls) {
  const Rect area{100.0F, 50.0F, 640.0F, 360.0F};
  const sim::Arena large = sim::Arena::OfUnits(1024, 576);
  const ArenaMapping middle = ArenaMapping::Follow(area, large, {500.0, 300.0});
  EXPECT_FALSE(middle.whole());
  EXPECT_FLOAT_EQ(middle.pixels_per_unit(), 10.0F);
  EXPECT_FLOAT_EQ(middle.ToScreen({500.0, 300.0}).x, 100.0F + 320.0F);
  EXPECT_FLOAT_EQ(middle.ToScreen({500.0, 300.0}).y, 50.0F + 180.0F);
  EXPECT_FLOAT_EQ(middle.arena().w, 640.0F);
  EXPECT_NEAR(middle.visible_min().x, 468.0, 1e-3);
  EXPECT_NEAR(middle.visible_max().y, 318.0, 1e-3);
  // Near a corner the walls stop the view: the arena's corner is the area's.
  const ArenaMapping corner = ArenaMapping::Follow(area, large, {2.0, 570.0});
  EXPECT_FLOAT_EQ(corner.ToScreen({0.0, 576.0}).x, 100.0F);
  EXPECT_FLOAT_EQ(corner.ToScreen({0.0, 576.0}).y, 50.0F + 360.0F);
  EXPECT_TRUE(corner.Contains(corner.ToScreen({2.0, 570.0})));
  const client::Vec2 back = corner.ToWorld(corner.ToScreen({10.0, 560.0}));
  EXPECT_NEAR(back.x, 10.0, 1e-3);
  EXPECT_NEAR(back.y, 560.0, 1e-3);
  // A narrow arena is centred along its short side and followed along its long one.
  const ArenaMapping narrow = ArenaMapping::Follow(area, sim::Arena::OfUnits(32, 400), {16.0, 200.0});
  EXPECT_FLOAT_EQ(narrow.arena().w, 320.0F);
  EXPECT_FLOAT_EQ(narrow.arena().x, 100.0F + 160.0F);
  EXPECT_FLOAT_EQ(narrow.arena().h, 360.0F);
}

bool Overlap(const Rect& a, const Rect& b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

bool Inside(const Rect& inner, ImVec2 display) {
  return inner.x >= 0.0F && inner.y >= 0.0F && inner.x + inner.w <= display.x &&
         inner.y + inner.h <= display.y;
}

TEST(GuiLabLayout, ColumnsOfArenaAbovePanelNothingOverlappingServerInTheMiddle) {
  for (const std::size_t players : {std::size_t{2}, std::size_t{3}, std::size_t{4}}) {
    for (const ImVec2 display : {ImVec2(1600.0F, 900.0F), ImVec2(1280.0F, 720.0F), ImVec2(900.0F, 1200.0F)}) {
      const LabLayout layout = LabLayout::For(display, players);
      ASSERT_EQ(layout.columns, players + 1);
      std::vector<Rect> rects;
      for (std::size_t c = 0; c < layout.columns; ++c) {
        const Rect& arena = layout.arena[c];
        const Rect& panel = layout.panel[c];
        EXPECT_TRUE(Inside(arena, display));
        EXPECT_TRUE(Inside(panel, display));
        EXPECT_LE(arena.y + arena.h, panel.y) << "the panel lies below the arena";
        EXPECT_LE(layout.title[c].y + layout.title[c].h, arena.y + 0.01F);
        rects.push_back(arena);
        rects.push_back(panel);
        if (c > 0) {
          EXPECT_LT(layout.arena[c - 1].x, arena.x);
        }
      }
      for (std::size_t i = 0; i < rects.size(); ++i) {
        for (std::size_t j = i + 1; j < rects.size(); ++j)
          EXPECT_FALSE(Overlap(rects[i], rects[j])) << i << " " << j;
      }
      // Every player has its own column, none of them the server's.
      std::vector<std::size_t> columns{layout.server_column};
      for (std::size_t p = 0; p < players; ++p) columns.push_back(layout.ColumnOf(p));
      std::sort(columns.begin(), columns.end());
      EXPECT_EQ(std::unique(columns.begin(), columns.end()), columns.end());
      EXPECT_LT(columns.back(), layout.columns);
    }
  }
  const LabLayout two = LabLayout::For(ImVec2(1600.0F, 900.0F), 2);
  EXPECT_EQ(two.ColumnOf(0), 0U);
  EXPECT_EQ(two.server_column, 1U);
  EXPECT_EQ(two.ColumnOf(1), 2U);
}

TEST(GuiClientLayout, ArenaLeftPanelRight) {
  const ImVec2 display(1280.0F, 720.0F);
  const ClientLayout layout = ClientLayout::For(display);
  EXPECT_TRUE(Inside(layout.arena, display));
  EXPECT_TRUE(Inside(layout.panel, display));
  EXPECT_FALSE(Overlap(layout.arena, layout.panel));
  EXPECT_LT(layout.arena.x, layout.panel.x);
}

TEST(GuiTrails, RecordsAtTheirIntervalCapsTheirLengthAndForgetsGoneCubes) {
  Trails trails;
  const std::array<CubeMark, 2> both = {CubeMark{1, {1.0, 1.0}}, CubeMark{2, {5.0, 5.0}}};
  trails.Record(Micros(0), both);
  trails.Record(Trails::kInterval / 2, both);  // too soon: ignored
  EXPECT_EQ(trails.Of(1).size(), 1U);
  for (int i = 1; i < 100; ++i) {
    const std::array<CubeMark, 2> moved = {CubeMark{1, {1.0 + i, 1.0}}, CubeMark{2, {5.0, 5.0}}};
    trails.Record(Trails::kInterval * i, moved);
  }
  ASSERT_EQ(trails.Of(1).size(), Trails::kLength);
  EXPECT_EQ(trails.Of(1).back(), (client::Vec2{100.0, 1.0}));
  const std::array<CubeMark, 1> one = {CubeMark{1, {0.0, 0.0}}};
  trails.Record(Trails::kInterval * 100, one);
  EXPECT_TRUE(trails.Of(2).empty());
  EXPECT_FALSE(trails.Of(1).empty());
  EXPECT_TRUE(trails.Of(9).empty());
}

TEST(GuiTheme, NeighbouringPlayersGetDistinctColours) {
  for (sim::PlayerId a = 0; a < 8; ++a) {
    for (sim::PlayerId b = static_cast<sim::PlayerId>(a + 1); b < 8; ++b)
      EXPECT_NE(PlayerColour(a), PlayerColour(b));
    EXPECT_NE(PlayerColour(a), PlayerTint(a));
    EXPECT_NE(PlayerColour(a), kArenaFloor);
  }
}

}  // namespace
}  // namespace netcube::gui
