#pragma once
// What lies behind a screen's panels. Every frame is cleared to the panels' colour (kPanelBackground) and
// the panels are windows without a background of their own: a clear costs a software rasterizer nothing,
// where a window's background is a blended quad over its whole area (in the browser lab, on SwiftShader,
// a fifth of a frame; docs/BENCHMARKS.md). Each screen then paints kBackground around its panels and floors.
#include <imgui.h>

#include <cstddef>
#include <span>

#include "netcube/gui/arena.h"

namespace netcube::gui {

// The flags of a panel laid out on the backdrop: the clear is its background.
inline constexpr ImGuiWindowFlags kBackdropPanelFlags = ImGuiWindowFlags_NoBackground;

// The most rectangles a screen shows on the backdrop (a lab's columns each show a floor and a panel).
inline constexpr std::size_t kMaxShownOnBackdrop = 16;

// Paints kBackground over all of `display` but `shown` (at most kMaxShownOnBackdrop rectangles that do not
// overlap: the panels, and the arena floors, which paint themselves). Called before anything else is drawn
// on `draw`; allocates nothing.
void PaintBackdropAround(ImDrawList& draw, ImVec2 display, std::span<const Rect> shown);

}  // namespace netcube::gui
