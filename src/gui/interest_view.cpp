#include "interest_view.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <span>
#include <string>

#include "netcube/gui/theme.h"
#include "panel_widgets.h"

namespace netcube::gui {
namespace {

const double kCubeHalfUnits = client::ToUnits(sim::kCubeHalf);
constexpr float kCircleThickness = 1.5F;
constexpr std::uint8_t kCircleAlpha = 210;
constexpr std::uint8_t kLeaveCircleAlpha = 130;
// A ring's alpha and thickness run from these, for a member of no importance, up by the spans for the
// most important one in the set.
constexpr float kRingAlpha = 60.0F;
constexpr float kRingAlphaSpan = 195.0F;
constexpr float kRingThickness = 1.0F;
constexpr float kRingThicknessSpan = 1.5F;

// The floor laid over the cube at `centre`, most of the way: a cube left out.
void Dim(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 centre) {
  draw.AddRectFilled(mapping.ToScreen({centre.x - kCubeHalfUnits, centre.y - kCubeHalfUnits}),
                     mapping.ToScreen({centre.x + kCubeHalfUnits, centre.y + kCubeHalfUnits}),
                     ToImU32(kArenaFloor, kLeftOutDimming));
}

// A ring around the cube at `centre`, a few points clear of it however small the arena draws it.
void Ring(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 centre, ImU32 colour, float thickness) {
  const float half = static_cast<float>(kCubeHalfUnits) * mapping.pixels_per_unit();
  draw.AddCircle(mapping.ToScreen(centre), half * 1.45F + 2.0F + thickness / 2.0F, colour, 0, thickness);
}

// The most importance any member that is not always sent has: the brightest ring.
std::uint64_t TopImportance(const server::InterestInfo& set) {
  std::uint64_t top = 0;
  for (const server::InterestInfo::Member& member : set.members)
    if (!member.must) top = std::max(top, member.importance);
  return top;
}

// Each cube's mark: dimmed when left out, else a ring by its importance (world and members by id).
void MarkCubes(ImDrawList& draw, const ArenaMapping& mapping, std::span<const sim::PlayerCube> world,
               sim::PlayerId subject, const server::InterestInfo& set) {
  const std::uint64_t top = TopImportance(set);
  auto member = set.members.begin();
  for (const sim::PlayerCube& cube : world) {
    while (member != set.members.end() && member->id < cube.id) ++member;
    const client::Vec2 centre = client::PositionOf(cube.state);
    if (member == set.members.end() || member->id != cube.id) {
      Dim(draw, mapping, centre);
      continue;
    }
    if (cube.id == subject) continue;  // outlined as the own cube instead
    if (member->must) {
      Ring(draw, mapping, centre, ToImU32(kInterestMust), kRingThickness + kRingThicknessSpan / 2.0F);
      continue;
    }
    const float share = top == 0 ? 0.0F : static_cast<float>(member->importance) / static_cast<float>(top);
    Ring(draw, mapping, centre,
         ToImU32(kInterestCircle, static_cast<std::uint8_t>(kRingAlpha + kRingAlphaSpan * share)),
         kRingThickness + kRingThicknessSpan * share);
  }
}

// What a legend entry shows before its words.
enum class Icon : std::uint8_t { kCircle, kLeaveCircle, kMember, kMust, kLeftOut };

void DrawIcon(ImDrawList& draw, Icon icon, ImVec2 centre, float radius) {
  const ImVec2 min(centre.x - radius / 2.0F, centre.y - radius / 2.0F);
  const ImVec2 max(centre.x + radius / 2.0F, centre.y + radius / 2.0F);
  switch (icon) {
    case Icon::kCircle:
      draw.AddCircle(centre, radius - 1.0F, ToImU32(kInterestCircle, kCircleAlpha), 0, kCircleThickness);
      break;
    case Icon::kLeaveCircle:
      // Dashed, as the leave circle is: four of its eighths.
      for (int i = 0; i < 8; i += 2) {
        constexpr float kEighth = 0.7853982F;
        draw.PathArcTo(centre, radius - 1.0F, static_cast<float>(i) * kEighth,
                       static_cast<float>(i + 1) * kEighth);
        draw.PathStroke(ToImU32(kInterestCircle, kLeaveCircleAlpha), 0, 1.0F);
      }
      break;
    case Icon::kMember:
      draw.AddRectFilled(min, max, ToImU32(PlayerColour(2)));
      draw.AddCircle(centre, radius - 1.0F, ToImU32(kInterestCircle), 0, kRingThickness + kRingThicknessSpan);
      break;
    case Icon::kMust:
      draw.AddRectFilled(min, max, ToImU32(PlayerColour(2)));
      draw.AddCircle(centre, radius - 1.0F, ToImU32(kInterestMust), 0,
                     kRingThickness + kRingThicknessSpan / 2.0F);
      break;
    case Icon::kLeftOut:
      draw.AddRectFilled(min, max, ToImU32(PlayerColour(2)));
      draw.AddRectFilled(min, max, ToImU32(kArenaFloor, kLeftOutDimming));
      break;
  }
}

// One entry of the legend: its icon a line high, then `text`, on the line before when it fits there.
void LegendEntry(Icon icon, const char* text, const char* tooltip, bool first) {
  const float size = ImGui::GetTextLineHeight();
  const float gap = ImGui::GetStyle().ItemInnerSpacing.x;
  if (!first) SameLineIfFits(size + gap + ImGui::CalcTextSize(text).x);
  ImGui::BeginGroup();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  DrawIcon(*ImGui::GetWindowDrawList(), icon, ImVec2(at.x + size / 2.0F, at.y + size / 2.0F), size / 2.0F);
  ImGui::Dummy(ImVec2(size, size));
  ImGui::SameLine(0.0F, gap);
  ImGui::TextUnformatted(text);
  ImGui::EndGroup();
  Tooltip(tooltip);
}

}  // namespace

void DrawRelevantSet(ImDrawList& draw, const ArenaMapping& mapping, const server::Server& server,
                     sim::PlayerId subject, const server::InterestInfo& set) {
  const std::span<const sim::PlayerCube> world = server.world();
  const auto own = std::find_if(world.begin(), world.end(),
                                [subject](const sim::PlayerCube& cube) { return cube.id == subject; });
  if (own == world.end()) return;
  const client::Vec2 centre = client::PositionOf(own->state);
  const auto radius = static_cast<double>(server.config().interest_radius_units);
  draw.PushClipRect(mapping.arena().min(), mapping.arena().max(), true);
  MarkCubes(draw, mapping, world, subject, set);
  draw.AddCircle(mapping.ToScreen(centre), static_cast<float>(radius) * mapping.pixels_per_unit(),
                 ToImU32(kInterestCircle, kCircleAlpha), 0, kCircleThickness);
  DrawDashedCircle(draw, mapping, centre, radius + server::kInterestMarginUnits,
                   ToImU32(kInterestCircle, kLeaveCircleAlpha));
  DrawCube(draw, mapping, centre, subject, CubeStyle::kOwn);
  draw.PopClipRect();
}

void DrawInterestControls(server::Server& server, const CrowdFocus& crowd) {
  const server::ServerConfig& config = server.config();
  bool interest = config.interest;
  if (ImGui::Checkbox("interest management", &interest)) server.SetInterest(interest);
  Tooltip(
      "Send each client only the cubes near its own (its relevant set), within a byte budget, the nearest "
      "and stalest first; off: every client gets every cube. Watch player 1's bytes down.");
  char text[96];
  std::snprintf(text, sizeof text, "player 1: %.0f B/s down, %" PRIu64 " InterestSnapshots",
                crowd.bytes_down_per_s, crowd.interest_snapshots);
  SameLineIfFits(ImGui::CalcTextSize(text).x);
  ImGui::TextUnformatted(text);
  if (!config.interest) return;
  // Short words, two lines on the narrowest panel; the tooltips say the rest.
  const int radius = config.interest_radius_units;
  const std::string enters = "enters within " + std::to_string(radius);
  const std::string leaves = "leaves beyond " + std::to_string(radius + server::kInterestMarginUnits);
  const std::string must = "Its own cube, a cube new to its set and those within " +
                           std::to_string(server::kNearUnits) +
                           " units: in every snapshot, whatever the budget.";
  LegendEntry(Icon::kCircle, enters.c_str(), "A cube this near player 1's (units) joins its relevant set.",
              true);
  LegendEntry(
      Icon::kLeaveCircle, leaves.c_str(),
      "A member leaves the set only this far away, so that one at the edge does not flicker in and out.",
      false);
  LegendEntry(Icon::kLeftOut, "left out", "Not in the set: player 1's client knows nothing of it.", false);
  LegendEntry(
      Icon::kMember, "member (brighter: more important)",
      "Importance: nearness (16 at player 1's cube, 1 at the leave circle) times the ticks since its state "
      "was sent; the budget goes to the most important first.",
      false);
  LegendEntry(Icon::kMust, "always sent", must.c_str(), false);
}

}  // namespace netcube::gui
