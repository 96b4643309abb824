// The pending-input strip: the inputs sent and not yet acknowledged, as cells of sequence numbers and
// held directions, oldest first.
#include <algorithm>
#include <cstdio>

#include "netcube/gui/player_view.h"
#include "netcube/gui/theme.h"

namespace netcube::gui {
namespace {

// One small arrow per held direction, around `centre`; a dot when nothing is held.
void DrawButtonGlyphs(ImDrawList& draw, ImVec2 centre, float half_base, std::uint8_t buttons, ImU32 colour) {
  if ((buttons & sim::kButtonMask) == 0) {
    draw.AddCircleFilled(centre, 1.5F, colour);
    return;
  }
  const float s = half_base;
  const float d = half_base * 1.2F;  // each arrow sits this far from the centre, pointing outward
  if ((buttons & sim::kUp) != 0) {
    draw.AddTriangleFilled({centre.x, centre.y - d - s}, {centre.x - s, centre.y - d},
                           {centre.x + s, centre.y - d}, colour);
  }
  if ((buttons & sim::kDown) != 0) {
    draw.AddTriangleFilled({centre.x, centre.y + d + s}, {centre.x + s, centre.y + d},
                           {centre.x - s, centre.y + d}, colour);
  }
  if ((buttons & sim::kLeft) != 0) {
    draw.AddTriangleFilled({centre.x - d - s, centre.y}, {centre.x - d, centre.y + s},
                           {centre.x - d, centre.y - s}, colour);
  }
  if ((buttons & sim::kRight) != 0) {
    draw.AddTriangleFilled({centre.x + d + s, centre.y}, {centre.x + d, centre.y - s},
                           {centre.x + d, centre.y + s}, colour);
  }
}

}  // namespace

void DrawPendingStrip(const client::PendingInputs& pending) {
  constexpr int kRows = 1;  // the panel's height goes to its tabs
  const float font = ImGui::GetFontSize();
  const float cell_w = font * 3.2F;
  const float cell_h = font * 2.7F;
  const float gap = 2.0F;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float avail = std::max(cell_w, ImGui::GetContentRegionAvail().x);
  const auto per_row = static_cast<std::size_t>(std::max(1.0F, (avail + gap) / (cell_w + gap)));
  const std::size_t room = per_row * kRows;
  ImGui::Dummy(ImVec2(avail, kRows * (cell_h + gap)));  // the strip keeps its height: the panel does not jump

  ImDrawList& draw = *ImGui::GetWindowDrawList();
  const ImU32 text = ToImU32(kLabelText);
  if (pending.empty()) {
    draw.AddText(ImVec2(origin.x + 4.0F, origin.y + cell_h / 2.0F - font / 2.0F), ToImU32({140, 145, 160}),
                 "(empty: every input acknowledged)");
    return;
  }
  const std::size_t cells = pending.size() <= room ? pending.size() : room - 1;
  char buffer[32];
  for (std::size_t i = 0; i < cells + (pending.size() > room ? 1 : 0); ++i) {
    const ImVec2 min(origin.x + static_cast<float>(i % per_row) * (cell_w + gap),
                     origin.y + static_cast<float>(i / per_row) * (cell_h + gap));
    const ImVec2 max(min.x + cell_w, min.y + cell_h);
    draw.AddRectFilled(min, max, ToImU32(kPendingCell), 2.0F);
    draw.AddRect(min, max, ToImU32(kPendingCellBorder), 2.0F);
    if (i == cells) {
      std::snprintf(buffer, sizeof buffer, "+%zu", pending.size() - cells);
      const ImVec2 size = ImGui::CalcTextSize(buffer);
      draw.AddText(ImVec2(min.x + (cell_w - size.x) / 2.0F, min.y + (cell_h - size.y) / 2.0F), text, buffer);
      continue;
    }
    const client::PendingInput& entry = pending[i];
    DrawButtonGlyphs(draw, ImVec2(min.x + cell_w / 2.0F, min.y + cell_h * 0.33F), font * 0.22F,
                     entry.input.buttons, ToImU32(kPendingGlyph));
    std::snprintf(buffer, sizeof buffer, "%u", static_cast<unsigned>(entry.input.seq));
    const ImVec2 size = ImGui::CalcTextSize(buffer);
    draw.AddText(ImVec2(min.x + (cell_w - size.x) / 2.0F, max.y - size.y - 1.0F), text, buffer);
  }
}

}  // namespace netcube::gui
