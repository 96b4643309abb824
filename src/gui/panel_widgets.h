#pragma once
// The small ImGui helpers the panels share (the player view's rooms, the server view): tooltips, choice
// buttons, rows of widgets sharing a line's width, and wrapping a row of checkboxes or buttons on a narrow
// panel.
#include <imgui.h>

#include <span>

namespace netcube::gui {

void Tooltip(const char* text);

// A button drawn as "selected" when `active` (the preset or link profile in use).
bool ChoiceButton(const char* label, bool active);

// Widgets side by side, sharing the row's width (sliders say what they are in their value format); with
// `min_width`, as many to a line as fit that wide, the rest on the lines below (a narrow panel's sliders
// keep their text whole).
class ItemRow {
 public:
  explicit ItemRow(int count, float min_width = 0.0F);
  // Before each widget.
  void Next();
  // After the last widget.
  void End();

 private:
  int per_line_;
  float width_;
  int placed_ = 0;
};

// How wide a slider must be to show `text` (its widest value format) whole.
float SliderWidth(const char* text);

// Puts the next item, `width` wide, on the current line when it fits there, else on the next: a narrow
// panel wraps a row of checkboxes or buttons instead of cutting it.
void SameLineIfFits(float width);

float CheckboxWidth(const char* label);

float ButtonWidth(const char* label);

// One checkbox of a table of them: the flag `member` of the object the table edits.
template <class Object>
struct Toggle {
  const char* label;
  bool Object::*member;
  const char* tooltip;
  bool starts_line = false;  // else it follows the one before on its line when it fits
};

// Draws the table's checkboxes over `object`, each with its tooltip; true when one was changed.
template <class Object>
bool DrawToggles(std::span<const Toggle<Object>> toggles, Object& object) {
  bool changed = false;
  for (const Toggle<Object>& toggle : toggles) {
    if (!toggle.starts_line) SameLineIfFits(CheckboxWidth(toggle.label));
    changed |= ImGui::Checkbox(toggle.label, &(object.*toggle.member));
    Tooltip(toggle.tooltip);
  }
  return changed;
}

}  // namespace netcube::gui
