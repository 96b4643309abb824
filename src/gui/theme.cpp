#include "netcube/gui/theme.h"

#include <array>

namespace netcube::gui {
namespace {

// Eight hues far apart, bright enough on the dark floor; ids cycle through them.
constexpr std::array<Rgb, 8> kPalette = {{
    {66, 135, 245},   // blue
    {245, 140, 40},   // orange
    {70, 200, 95},    // green
    {225, 75, 200},   // magenta
    {235, 215, 60},   // yellow
    {60, 210, 220},   // cyan
    {235, 65, 65},    // red
    {150, 110, 245},  // violet
}};

ImVec4 ToVec4(Rgb c, float alpha = 1.0F) {
  return {static_cast<float>(c.r) / 255.0F, static_cast<float>(c.g) / 255.0F,
          static_cast<float>(c.b) / 255.0F, alpha};
}

std::uint8_t Lighten(std::uint8_t channel) {
  return static_cast<std::uint8_t>(channel + (255 - channel) / 2);
}

}  // namespace

ImU32 ToImU32(Rgb colour, std::uint8_t alpha) noexcept {
  return IM_COL32(colour.r, colour.g, colour.b, alpha);
}

Rgb PlayerColour(sim::PlayerId id) noexcept { return kPalette[id % kPalette.size()]; }

Rgb PlayerTint(sim::PlayerId id) noexcept {
  const Rgb c = PlayerColour(id);
  return {Lighten(c.r), Lighten(c.g), Lighten(c.b)};
}

void ApplyTheme(ImGuiStyle& style) noexcept {
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0.0F;
  style.FrameRounding = 3.0F;
  style.GrabRounding = 3.0F;
  style.WindowBorderSize = 1.0F;
  style.ItemSpacing = ImVec2(6.0F, 4.0F);
  style.Colors[ImGuiCol_WindowBg] = ToVec4(kPanelBackground);
  style.Colors[ImGuiCol_ChildBg] = ToVec4(kPanelBackground);
  style.Colors[ImGuiCol_TitleBg] = ToVec4({30, 48, 80});
  style.Colors[ImGuiCol_TitleBgActive] = ToVec4({40, 68, 115});
  style.Colors[ImGuiCol_PlotLines] = ToVec4({120, 200, 255});
  // A slider's value is written over its grab: a thin, translucent grab keeps the value legible.
  style.GrabMinSize = 6.0F;
  style.Colors[ImGuiCol_SliderGrab] = ToVec4({66, 150, 250}, 0.45F);
  style.Colors[ImGuiCol_SliderGrabActive] = ToVec4({66, 150, 250}, 0.7F);
}

}  // namespace netcube::gui
