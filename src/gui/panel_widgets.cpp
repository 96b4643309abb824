// The definitions of panel_widgets.h: the ImGui helpers the panels share.
#include "panel_widgets.h"

namespace netcube::gui {

void Tooltip(const char* text) {
  if (!ImGui::IsItemHovered()) return;
  // Wrapped to a column narrower than the window, so that ImGui can keep it on the display wherever the
  // control is (a tooltip wider than the window runs off it).
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0F);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

bool ChoiceButton(const char* label, bool active) {
  if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  const bool pressed = ImGui::Button(label);
  if (active) ImGui::PopStyleColor();
  return pressed;
}

void SameLineIfFits(float width) {
  const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
  if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

float CheckboxWidth(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
         ImGui::CalcTextSize(label, nullptr, true).x;
}

float ButtonWidth(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0F * ImGui::GetStyle().FramePadding.x;
}

}  // namespace netcube::gui
