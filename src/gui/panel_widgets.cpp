// The definitions of panel_widgets.h: the ImGui helpers the panels share.
#include "panel_widgets.h"

#include <algorithm>

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

ItemRow::ItemRow(int count, float min_width) {
  const float avail = ImGui::GetContentRegionAvail().x;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  per_line_ = std::clamp(static_cast<int>((avail + spacing) / (min_width + spacing)), 1, count);
  width_ = (avail - spacing * static_cast<float>(per_line_ - 1)) / static_cast<float>(per_line_);
}

void ItemRow::Next() {
  if (placed_ > 0) {
    ImGui::PopItemWidth();
    if (placed_ % per_line_ != 0) ImGui::SameLine();
  }
  ++placed_;
  ImGui::PushItemWidth(width_);
}

void ItemRow::End() {
  if (placed_ > 0) ImGui::PopItemWidth();
  placed_ = 0;
}

float SliderWidth(const char* text) {
  const ImGuiStyle& style = ImGui::GetStyle();
  return ImGui::CalcTextSize(text).x + 2.0F * style.FramePadding.x + style.GrabMinSize;
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
