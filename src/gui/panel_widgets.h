#pragma once
// The small ImGui helpers the panels share (the player view's rooms, the server view): tooltips, choice
// buttons, rows of widgets sharing a line's width, and wrapping a row of checkboxes or buttons on a narrow
// panel.
#include <imgui.h>

namespace netcube::gui {

void Tooltip(const char* text);

// A button drawn as "selected" when `active` (the preset or link profile in use).
bool ChoiceButton(const char* label, bool active);

// Widgets side by side, sharing the row's width (sliders say what they are in their value format).
class ItemRow {
 public:
  explicit ItemRow(int count)
      : width_((ImGui::GetContentRegionAvail().x -
                ImGui::GetStyle().ItemSpacing.x * static_cast<float>(count - 1)) /
               static_cast<float>(count)) {}
  // Before each widget.
  void Next() {
    if (started_) {
      ImGui::PopItemWidth();
      ImGui::SameLine();
    }
    started_ = true;
    ImGui::PushItemWidth(width_);
  }
  // After the last widget.
  void End() {
    if (started_) ImGui::PopItemWidth();
    started_ = false;
  }

 private:
  float width_;
  bool started_ = false;
};

// Puts the next item, `width` wide, on the current line when it fits there, else on the next: a narrow
// panel wraps a row of checkboxes or buttons instead of cutting it.
void SameLineIfFits(float width);

float CheckboxWidth(const char* label);

float ButtonWidth(const char* label);

}  // namespace netcube::gui
