#include "netcube/gui/backdrop.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <utility>

#include "netcube/gui/theme.h"

namespace netcube::gui {

void PaintBackdropAround(ImDrawList& draw, ImVec2 display, std::span<const Rect> shown) {
  assert(shown.size() <= kMaxShownOnBackdrop);
  shown = shown.first(std::min(shown.size(), kMaxShownOnBackdrop));
  const ImU32 colour = ToImU32(kBackground);
  // Bands between consecutive top and bottom edges: within a band every rectangle spans it all or none of it,
  // so the backdrop there is the gaps between the spans of those that do.
  std::array<float, 2 * kMaxShownOnBackdrop + 2> edges{0.0F, display.y};
  std::size_t edge_count = 2;
  for (const Rect& rect : shown) {
    edges[edge_count++] = std::clamp(rect.y, 0.0F, display.y);
    edges[edge_count++] = std::clamp(rect.y + rect.h, 0.0F, display.y);
  }
  std::sort(edges.begin(), edges.begin() + static_cast<std::ptrdiff_t>(edge_count));
  std::array<std::pair<float, float>, kMaxShownOnBackdrop> spans;
  for (std::size_t band = 0; band + 1 < edge_count; ++band) {
    const float top = edges[band];
    const float bottom = edges[band + 1];
    if (bottom <= top) continue;
    std::size_t span_count = 0;
    for (const Rect& rect : shown) {
      if (rect.y <= top && rect.y + rect.h >= bottom) spans[span_count++] = {rect.x, rect.x + rect.w};
    }
    std::sort(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(span_count));
    float x = 0.0F;
    for (std::size_t k = 0; k < span_count; ++k) {
      if (spans[k].first > x) draw.AddRectFilled({x, top}, {spans[k].first, bottom}, colour);
      x = std::max(x, spans[k].second);
    }
    if (x < display.x) draw.AddRectFilled({x, top}, {display.x, bottom}, colour);
  }
}

}  // namespace netcube::gui
