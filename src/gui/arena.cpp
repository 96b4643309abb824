#include "netcube/gui/arena.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "netcube/gui/theme.h"

namespace netcube::gui {
namespace {

const double kCubeHalfUnits = client::ToUnits(sim::kCubeHalf);
constexpr double kGridSpacingUnits = 4.0;
constexpr float kCorrectionArrowThickness = 2.5F;

// The largest scale at which `size` (units) fits inside `area`.
float FitScale(const Rect& area, client::Vec2 size) noexcept {
  return std::max(0.0F, std::min(area.w / static_cast<float>(size.x), area.h / static_cast<float>(size.y)));
}

client::Vec2 SizeOf(const sim::Arena& arena) noexcept {
  return {client::ToUnits(arena.width), client::ToUnits(arena.height)};
}

}  // namespace

ArenaMapping::ArenaMapping(const Rect& area, const sim::Arena& arena, float scale,
                           client::Vec2 centre) noexcept
    : scale_(scale), world_(arena) {
  // Per axis: the arena centred when it is no larger than the area, else the area's span of it around
  // `centre`, kept within the walls.
  const auto place = [scale](float area_from, float area_span, double world_span, double at, float& view_from,
                             float& view_span, float& origin) {
    const auto drawn = static_cast<float>(world_span) * scale;
    if (drawn <= area_span) {
      view_from = area_from + (area_span - drawn) / 2.0F;
      view_span = drawn;
      origin = view_from;
      return;
    }
    const double half = static_cast<double>(area_span / scale) / 2.0;
    const double first = std::clamp(at - half, 0.0, world_span - 2.0 * half);
    view_from = area_from;
    view_span = area_span;
    origin = area_from - static_cast<float>(first) * scale;
  };
  const client::Vec2 size = world_size();
  place(area.x, area.w, size.x, centre.x, view_.x, view_.w, origin_.x);
  place(area.y, area.h, size.y, centre.y, view_.y, view_.h, origin_.y);
}

client::Vec2 ArenaMapping::world_size() const noexcept { return SizeOf(world_); }

ArenaMapping ArenaMapping::Fit(const Rect& area, const sim::Arena& arena) noexcept {
  return {area, arena, FitScale(area, SizeOf(arena)), {}};
}

ArenaMapping ArenaMapping::Follow(const Rect& area, const sim::Arena& arena, client::Vec2 centre) noexcept {
  const float whole = FitScale(area, SizeOf(arena));
  const float standard = FitScale(area, SizeOf(sim::kStandardArena));
  return {area, arena, std::max(whole, standard), centre};
}

bool ArenaMapping::whole() const noexcept {
  const client::Vec2 lo = visible_min();
  const client::Vec2 hi = visible_max();
  constexpr double kSlack = 1e-3;  // units: rounding through screen points
  const client::Vec2 size = world_size();
  return lo.x <= kSlack && lo.y <= kSlack && hi.x >= size.x - kSlack && hi.y >= size.y - kSlack;
}

ImVec2 ArenaMapping::ToScreen(client::Vec2 units) const noexcept {
  return {origin_.x + static_cast<float>(units.x) * scale_, origin_.y + static_cast<float>(units.y) * scale_};
}

client::Vec2 ArenaMapping::ToWorld(ImVec2 screen) const noexcept {
  if (scale_ <= 0.0F) return {};
  return {static_cast<double>((screen.x - origin_.x) / scale_),
          static_cast<double>((screen.y - origin_.y) / scale_)};
}

bool ArenaMapping::Contains(ImVec2 screen) const noexcept {
  return screen.x >= view_.x && screen.x < view_.x + view_.w && screen.y >= view_.y &&
         screen.y < view_.y + view_.h;
}

void DrawRay(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 origin, sim::Aim aim, ImU32 colour) {
  double dx = 0.0;
  double dy = 0.0;
  sim::AimDirection(aim, dx, dy);
  const double range = client::ToUnits(sim::kTagRange);
  const ImVec2 from = mapping.ToScreen(origin);
  const ImVec2 to = mapping.ToScreen({origin.x + dx * range, origin.y + dy * range});
  draw.PushClipRect(mapping.arena().min(), mapping.arena().max(), true);
  draw.AddLine(from, to, colour, 2.0F);
  draw.PopClipRect();
}

void DrawDashedCircle(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 centre, double radius,
                      ImU32 colour) {
  // Dashes, so that the circle reads as a boundary and not as something in the arena.
  constexpr int kDashes = 48;
  constexpr double kTwoPi = 6.283185307179586;
  draw.PushClipRect(mapping.arena().min(), mapping.arena().max(), true);
  for (int i = 0; i < kDashes; ++i) {
    const double from = kTwoPi * i / kDashes;
    const double to = kTwoPi * (i + 0.5) / kDashes;
    draw.AddLine(mapping.ToScreen({centre.x + radius * std::cos(from), centre.y + radius * std::sin(from)}),
                 mapping.ToScreen({centre.x + radius * std::cos(to), centre.y + radius * std::sin(to)}),
                 colour, 1.0F);
  }
  draw.PopClipRect();
}

void DrawTagReach(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 centre) {
  DrawDashedCircle(draw, mapping, centre, client::ToUnits(sim::kTagRange), ToImU32(kTagReach, 110));
}

void DrawTagFlash(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 centre, float strength) {
  const float alpha = std::clamp(strength, 0.0F, 1.0F) * 255.0F;
  const double half = kCubeHalfUnits * 1.6;
  const ImVec2 min = mapping.ToScreen({centre.x - half, centre.y - half});
  const ImVec2 max = mapping.ToScreen({centre.x + half, centre.y + half});
  draw.AddRect(min, max, ToImU32(kTagFlash, static_cast<std::uint8_t>(alpha)), 0.0F, 0, 3.0F);
}

void DrawArenaFloor(ImDrawList& draw, const ArenaMapping& mapping) {
  const Rect& arena = mapping.arena();
  draw.AddRectFilled(arena.min(), arena.max(), ToImU32(kArenaFloor));
  const ImU32 grid = ToImU32(kArenaGrid);
  // Grid lines at least a few points apart: a whole large arena doubles their spacing until they are.
  constexpr float kMinGridPoints = 6.0F;
  double spacing = kGridSpacingUnits;
  while (static_cast<float>(spacing) * mapping.pixels_per_unit() < kMinGridPoints) spacing *= 2.0;
  const client::Vec2 lo = mapping.visible_min();
  const client::Vec2 hi = mapping.visible_max();
  const client::Vec2 size = mapping.world_size();
  for (double x = std::max(1.0, std::ceil(lo.x / spacing)) * spacing; x < std::min(hi.x, size.x);
       x += spacing) {
    draw.AddLine(mapping.ToScreen({x, lo.y}), mapping.ToScreen({x, hi.y}), grid);
  }
  for (double y = std::max(1.0, std::ceil(lo.y / spacing)) * spacing; y < std::min(hi.y, size.y);
       y += spacing) {
    draw.AddLine(mapping.ToScreen({lo.x, y}), mapping.ToScreen({hi.x, y}), grid);
  }
  // The walls, where they are in sight.
  const ImVec2 walls_min = mapping.ToScreen({0.0, 0.0});
  const ImVec2 walls_max = mapping.ToScreen(size);
  draw.PushClipRect(arena.min(), arena.max(), true);
  draw.AddRect(walls_min, walls_max, ToImU32(kArenaBorder), 0.0F, 0, 1.5F);
  draw.PopClipRect();
}

ArenaMapping MinimapOf(const ArenaMapping& mapping) noexcept {
  constexpr float kMargin = 8.0F;
  const Rect& view = mapping.arena();
  const float width = std::min(160.0F, view.w / 4.0F);
  const client::Vec2 size = mapping.world_size();
  const auto height =
      std::min(view.h / 2.0F, static_cast<float>(static_cast<double>(width) * size.y / size.x));
  return ArenaMapping::Fit({view.x + view.w - width - kMargin, view.y + kMargin, width, height},
                           mapping.world());
}

void DrawMinimap(ImDrawList& draw, const ArenaMapping& mapping, std::span<const CubeMark> cubes,
                 std::optional<sim::PlayerId> own) {
  if (mapping.whole()) return;
  const ArenaMapping minimap = MinimapOf(mapping);
  const Rect& area = minimap.arena();
  draw.AddRectFilled(area.min(), area.max(), ToImU32(kArenaFloor, 230));
  for (const CubeMark& cube : cubes) {
    const float radius = own && cube.id == *own ? 3.0F : 1.5F;
    draw.AddCircleFilled(minimap.ToScreen(cube.position), radius, ToImU32(PlayerColour(cube.id)));
  }
  draw.AddRect(minimap.ToScreen(mapping.visible_min()), minimap.ToScreen(mapping.visible_max()),
               ToImU32(kOwnCubeOutline, 180));
  draw.AddRect(area.min(), area.max(), ToImU32(kArenaBorder), 0.0F, 0, 1.0F);
}

void DrawCube(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 centre, sim::PlayerId id,
              CubeStyle style) {
  const ImVec2 min = mapping.ToScreen({centre.x - kCubeHalfUnits, centre.y - kCubeHalfUnits});
  const ImVec2 max = mapping.ToScreen({centre.x + kCubeHalfUnits, centre.y + kCubeHalfUnits});
  switch (style) {
    case CubeStyle::kSolid:
      draw.AddRectFilled(min, max, ToImU32(PlayerColour(id)));
      break;
    case CubeStyle::kOwn:
      draw.AddRectFilled(min, max, ToImU32(PlayerColour(id)));
      draw.AddRect(min, max, ToImU32(kOwnCubeOutline), 0.0F, 0, 2.0F);
      break;
    case CubeStyle::kOutline:
      draw.AddRectFilled(min, max, ToImU32(PlayerTint(id), 40));
      draw.AddRect(min, max, ToImU32(PlayerTint(id)), 0.0F, 0, 1.5F);
      break;
    case CubeStyle::kFrame:
      draw.AddRectFilled(min, max, ToImU32(PlayerColour(id), 20));
      draw.AddRect(min, max, ToImU32(PlayerColour(id)), 0.0F, 0, 1.0F);
      break;
  }
}

void DrawCentredText(ImDrawList& draw, float centre_x, float y, ImU32 colour, std::string_view text) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  const ImVec2 size = ImGui::CalcTextSize(begin, end);
  const ImVec2 at(centre_x - size.x / 2.0F, y);
  draw.AddText(ImVec2(at.x + 1.0F, at.y + 1.0F), IM_COL32(0, 0, 0, 200), begin,
               end);  // legible on any colour
  draw.AddText(at, colour, begin, end);
}

void CubeLabels::Avoid(client::Vec2 centre) noexcept {
  const ImVec2 min = mapping_.ToScreen({centre.x - kCubeHalfUnits, centre.y - kCubeHalfUnits});
  const ImVec2 max = mapping_.ToScreen({centre.x + kCubeHalfUnits, centre.y + kCubeHalfUnits});
  Take({min.x, min.y, max.x - min.x, max.y - min.y});
}

bool CubeLabels::Free(const Rect& rect) const noexcept {
  for (std::size_t i = 0; i < count_; ++i) {
    const Rect& t = taken_[i];
    if (rect.x < t.x + t.w && t.x < rect.x + rect.w && rect.y < t.y + t.h && t.y < rect.y + rect.h)
      return false;
  }
  return true;
}

void CubeLabels::Take(const Rect& rect) noexcept {
  if (count_ < kCapacity) taken_[count_++] = rect;
}

void CubeLabels::Draw(client::Vec2 centre, sim::PlayerId id, std::string_view text) {
  constexpr int kLinesOut = 8;  // how far out a label may move on each side (inside the arena)
  const ImVec2 size = ImGui::CalcTextSize(text.data(), text.data() + text.size());
  const float line = ImGui::GetFontSize() + 2.0F;
  const ImVec2 top = mapping_.ToScreen({centre.x, centre.y - kCubeHalfUnits});
  const ImVec2 bottom = mapping_.ToScreen({centre.x, centre.y + kCubeHalfUnits});
  // Inside the arena: a cube by a wall has its label moved along the wall rather than cut by it, or drawn
  // over the next column.
  const Rect& arena = mapping_.arena();
  const float left =
      std::max(arena.x + 2.0F, std::min(top.x - size.x / 2.0F, arena.x + arena.w - size.x - 2.0F));
  const auto place = [&](bool above, int out) {
    const float y =
        above ? top.y - line * static_cast<float>(out + 1) : bottom.y + 3.0F + line * static_cast<float>(out);
    return Rect{left, y, size.x, size.y};
  };
  const auto inside = [&](const Rect& rect) {
    return rect.y >= arena.y && rect.y + rect.h <= arena.y + arena.h;
  };
  const bool prefer_above = id % 2 == 0;
  Rect chosen = place(prefer_above, 0);
  if (!inside(chosen)) chosen = place(!prefer_above, 0);
  bool found = false;
  for (int out = 0; out < kLinesOut && !found; ++out) {
    for (const bool above : {prefer_above, !prefer_above}) {
      if (inside(place(above, out)) && Free(place(above, out))) {
        chosen = place(above, out);
        found = true;
        break;
      }
    }
  }
  Take(chosen);
  DrawCentredText(draw_, chosen.x + size.x / 2.0F, chosen.y, ToImU32(kLabelText), text);
}

namespace {

// The unit vector from `from` to `to` and the distance, or nothing when they are under a point apart (no
// arrow worth drawing).
struct Direction {
  float ux = 0.0F;
  float uy = 0.0F;
  float length = 0.0F;
};
std::optional<Direction> DirectionOf(ImVec2 from, ImVec2 to) {
  const float dx = to.x - from.x;
  const float dy = to.y - from.y;
  const float length = std::sqrt(dx * dx + dy * dy);
  if (length < 1.0F) return std::nullopt;
  return Direction{dx / length, dy / length, length};
}

}  // namespace

void DrawArrow(ImDrawList& draw, ImVec2 from, ImVec2 to, ImU32 colour, float thickness) {
  const std::optional<Direction> d = DirectionOf(from, to);
  if (!d) return;
  const float head = std::min(d->length, 4.0F + 3.0F * thickness);
  const ImVec2 base(to.x - d->ux * head, to.y - d->uy * head);
  draw.AddLine(from, base, colour, thickness);
  draw.AddTriangleFilled(to, ImVec2(base.x - d->uy * head * 0.5F, base.y + d->ux * head * 0.5F),
                         ImVec2(base.x + d->uy * head * 0.5F, base.y - d->ux * head * 0.5F), colour);
}

void DrawCorrectionArrow(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 from, client::Vec2 to,
                         ImU32 colour) {
  const ImVec2 a = mapping.ToScreen(from);
  const ImVec2 b = mapping.ToScreen(to);
  const std::optional<Direction> d = DirectionOf(a, b);
  if (!d) return;
  // Where a ray from the cube's centre along the arrow leaves its square, plus the own cube's outline
  // (2 points wide, centred on the edge).
  const float half = static_cast<float>(kCubeHalfUnits) * mapping.pixels_per_unit();
  const float edge = half / std::max(std::abs(d->ux), std::abs(d->uy)) + 1.0F;
  DrawArrow(draw, ImVec2(a.x + d->ux * edge, a.y + d->uy * edge),
            ImVec2(b.x + d->ux * edge, b.y + d->uy * edge), colour, kCorrectionArrowThickness);
}

void Trails::Record(Micros now, std::span<const CubeMark> cubes) {
  if (last_record_ && now - *last_record_ < kInterval) return;
  last_record_ = now;
  std::erase_if(trails_, [cubes](const auto& entry) {
    return std::none_of(cubes.begin(), cubes.end(),
                        [&entry](const CubeMark& c) { return c.id == entry.first; });
  });
  for (const CubeMark& cube : cubes) {
    std::vector<client::Vec2>& trail = trails_[cube.id];
    trail.push_back(cube.position);
    if (trail.size() > kLength) trail.erase(trail.begin());
  }
}

void Trails::Clear() noexcept {
  trails_.clear();
  last_record_.reset();
}

void Trails::Draw(ImDrawList& draw, const ArenaMapping& mapping) const {
  for (const auto& [id, trail] : trails_) {
    const Rgb tint = PlayerTint(id);
    for (std::size_t i = 1; i < trail.size(); ++i) {
      const auto alpha = static_cast<std::uint8_t>(20 + 160 * i / trail.size());  // older fades out
      draw.AddLine(mapping.ToScreen(trail[i - 1]), mapping.ToScreen(trail[i]), ToImU32(tint, alpha), 2.0F);
    }
  }
}

std::span<const client::Vec2> Trails::Of(sim::PlayerId id) const {
  const auto found = trails_.find(id);
  if (found == trails_.end()) return {};
  return found->second;
}

}  // namespace netcube::gui
