#include "netcube/gui/backdrop.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "netcube/gui/theme.h"

namespace netcube::gui {

void PaintBackdropAround(ImDrawList& draw, ImVec2 display, std::span<const Rect> shown) {
  const ImU32 colour = ToImU32(kBackground);
  // Bands between consecutive top and bottom edges: within a band every rectangle spans it all or none of it,
  // so the backdrop there is the gaps between the spans of those that do.
  std::vector<float> edges = {0.0F, display.y};
  for (const Rect& rect : shown) {
    edges.push_back(std::clamp(rect.y, 0.0F, display.y));
    edges.push_back(std::clamp(rect.y + rect.h, 0.0F, display.y));
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  std::vector<std::pair<float, float>> spans;
  for (std::size_t band = 0; band + 1 < edges.size(); ++band) {
    const float top = edges[band];
    const float bottom = edges[band + 1];
    spans.clear();
    for (const Rect& rect : shown) {
      if (rect.y <= top && rect.y + rect.h >= bottom) spans.emplace_back(rect.x, rect.x + rect.w);
    }
    std::sort(spans.begin(), spans.end());
    float x = 0.0F;
    for (const auto& [left, right] : spans) {
      if (left > x) draw.AddRectFilled({x, top}, {left, bottom}, colour);
      x = std::max(x, right);
    }
    if (x < display.x) draw.AddRectFilled({x, top}, {display.x, bottom}, colour);
  }
}

}  // namespace netcube::gui
