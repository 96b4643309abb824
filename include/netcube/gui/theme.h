#pragma once
// The colours every view uses, as data: the renderer draws with them and the image tests look for them.
#include <imgui.h>

#include <cstdint>

#include "netcube/sim/world.h"

namespace netcube::gui {

struct Rgb {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

// `alpha` in [0, 255].
ImU32 ToImU32(Rgb colour, std::uint8_t alpha = 255) noexcept;

inline constexpr Rgb kBackground{24, 26, 33};       // around the panels and arenas (gui/backdrop.h)
inline constexpr Rgb kPanelBackground{38, 43, 54};  // the panels: the frame's clear, and other ImGui windows
inline constexpr Rgb kArenaFloor{12, 14, 18};
inline constexpr Rgb kArenaGrid{34, 38, 48};
inline constexpr Rgb kArenaBorder{110, 116, 130};
inline constexpr Rgb kHeaderText{220, 224, 232};
inline constexpr Rgb kLabelText{235, 235, 235};
inline constexpr Rgb kOwnCubeOutline{255, 255, 255};  // marks "you" around the own cube's fill
inline constexpr Rgb kCorrectionArrow{255, 70, 70};
inline constexpr Rgb kPendingCell{55, 70, 105};  // a cell of the pending-input strip
inline constexpr Rgb kPendingCellBorder{95, 115, 160};
inline constexpr Rgb kPendingGlyph{255, 220, 120};  // the held directions drawn in a cell
inline constexpr Rgb kGoodText{120, 220, 120};
inline constexpr Rgb kBadText{255, 110, 100};
inline constexpr Rgb kNoticeText{255, 220, 120};  // what the lab does besides running live (a replay)
inline constexpr Rgb kRayPending{200, 200, 210};  // a tag's ray before its result
inline constexpr Rgb kRayHit{120, 240, 120};
inline constexpr Rgb kRayMiss{255, 110, 100};
inline constexpr Rgb kTagFlash{255, 240, 120};  // the ring around a tagged cube
inline constexpr Rgb kTagReach{120, 130, 160};  // the circle a tag's ray reaches, around the own cube
// Interest management in the crowd lab: player 1's relevance circles and the rings on its set's members
// (brighter the more important), the members sent in every snapshot, and the dimming of the cubes left out.
inline constexpr Rgb kInterestCircle{140, 225, 255};
inline constexpr Rgb kInterestMust{255, 170, 50};
inline constexpr std::uint8_t kLeftOutDimming = 150;  // the floor's alpha over a cube left out

// A cube's fill colour, by player id, the same in every view (player 1 looks the same on its own screen, on
// the server's and on player 2's). Neighbouring ids get clearly different hues.
Rgb PlayerColour(sim::PlayerId id) noexcept;
// The lighter tint for that player's outlines (server ghost, raw prediction) and trail.
Rgb PlayerTint(sim::PlayerId id) noexcept;

// ImGui's dark style with the colours above (opaque window backgrounds, square like the panels on the
// backdrop).
void ApplyTheme(ImGuiStyle& style) noexcept;

}  // namespace netcube::gui
