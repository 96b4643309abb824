#pragma once
// The arena drawn to scale: the world -> screen mapping (public so that tests know where to look for a
// cube), the drawing primitives every view shares, and short motion trails.
#include <imgui.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "netcube/client/units.h"
#include "netcube/sim/ray.h"
#include "netcube/sim/time.h"
#include "netcube/sim/world.h"

namespace netcube::gui {

// A screen rectangle in ImGui display coordinates (points; framebuffer pixels = points x pixel scale).
struct Rect {
  float x = 0.0F;
  float y = 0.0F;
  float w = 0.0F;
  float h = 0.0F;
  ImVec2 min() const noexcept { return {x, y}; }
  ImVec2 max() const noexcept { return {x + w, y + h}; }
};

// World units (client::Vec2, y down like the simulation) to screen points, uniform scale: the whole arena,
// or the part of a large one around a player's cube.
class ArenaMapping {
 public:
  ArenaMapping() = default;
  // The whole of `arena` as large as fits inside `area`, aspect ratio kept, centred.
  static ArenaMapping Fit(const Rect& area, const sim::Arena& arena) noexcept;
  // What a player sees: the whole arena while it shows at least as large as the standard arena would; in
  // a larger one, the standard arena's scale, centred on `centre` (units) as far as the walls allow.
  static ArenaMapping Follow(const Rect& area, const sim::Arena& arena, client::Vec2 centre) noexcept;

  ImVec2 ToScreen(client::Vec2 units) const noexcept;
  client::Vec2 ToWorld(ImVec2 screen) const noexcept;
  // Whether `screen` lies on the part of the arena drawn.
  bool Contains(ImVec2 screen) const noexcept;
  float pixels_per_unit() const noexcept { return scale_; }
  // Where the part of the arena drawn lies on screen (all of it, unless following in a larger arena).
  const Rect& arena() const noexcept { return view_; }
  // The arena, its size and the part of it drawn, in units.
  const sim::Arena& world() const noexcept { return world_; }
  client::Vec2 world_size() const noexcept;
  client::Vec2 visible_min() const noexcept { return ToWorld(view_.min()); }
  client::Vec2 visible_max() const noexcept { return ToWorld(view_.max()); }
  bool whole() const noexcept;

 private:
  ArenaMapping(const Rect& area, const sim::Arena& arena, float scale, client::Vec2 centre) noexcept;

  Rect view_;
  ImVec2 origin_;  // where the arena's corner (0, 0) lies on screen
  float scale_ = 1.0F;
  sim::Arena world_;
};

// The minimap of `mapping` (see DrawMinimap): the whole arena fitted into a small rectangle in the top right
// corner of the part drawn.
ArenaMapping MinimapOf(const ArenaMapping& mapping) noexcept;

// How a cube is drawn: its body, or an outline marking where some other state puts it.
enum class CubeStyle : std::uint8_t {
  kSolid,    // filled in the player's colour
  kOwn,      // filled, with a white outline: the local player's cube
  kOutline,  // a faint fill and an outline in the player's tint (server ghost, raw prediction)
  kFrame,    // a fainter fill and a thin outline in the player's colour (latest received state)
};

void DrawArenaFloor(ImDrawList& draw, const ArenaMapping& mapping);
void DrawCube(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 centre, sim::PlayerId id,
              CubeStyle style);
// The labels of one arena's cubes, each clear of the cubes and of the labels placed before it: cubes on one
// spot (a comparison's) or a tag's verdict beside a cube keep every label legible.
class CubeLabels {
 public:
  CubeLabels(ImDrawList& draw, const ArenaMapping& mapping) noexcept : draw_(draw), mapping_(mapping) {}
  // A cube the labels keep off (call for every cube drawn before placing labels).
  void Avoid(client::Vec2 centre) noexcept;
  // `text` just above the cube at `centre` (below it for odd ids, so that neighbouring spawn slots' labels
  // part), or, where that is taken, the nearest free line further out on that side, then on the other.
  void Draw(client::Vec2 centre, sim::PlayerId id, std::string_view text);

 private:
  static constexpr std::size_t kCapacity = 64;  // places remembered; more labels go where they prefer
  bool Free(const Rect& rect) const noexcept;
  void Take(const Rect& rect) noexcept;

  ImDrawList& draw_;
  const ArenaMapping& mapping_;
  std::array<Rect, kCapacity> taken_{};
  std::size_t count_ = 0;
};
void DrawArrow(ImDrawList& draw, ImVec2 from, ImVec2 to, ImU32 colour, float thickness);
// A correction of a cube from `from` to `to` (units): an arrow as long as the correction, moved out along
// its direction so that it starts at the edge of the cube drawn at `from` (its outline included), where the
// cube cannot hide it.
void DrawCorrectionArrow(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 from, client::Vec2 to,
                         ImU32 colour);
// A tag's ray: from `origin` (units) toward `aim`, as far as a tag reaches.
void DrawRay(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 origin, sim::Aim aim, ImU32 colour);
// A dashed circle of `radius` units around `centre`, inside the part of the arena drawn.
void DrawDashedCircle(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 centre, double radius,
                      ImU32 colour);
// The circle a tag's ray reaches (sim::kTagRange) around `centre`, dashed and faint, inside the arena.
void DrawTagReach(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 centre);
// The ring that flashes around a tagged cube; `strength` in [0, 1] fades it out.
void DrawTagFlash(ImDrawList& draw, const ArenaMapping& mapping, client::Vec2 centre, float strength);
// Text centred horizontally on `centre_x`, top at `y`.
void DrawCentredText(ImDrawList& draw, float centre_x, float y, ImU32 colour, std::string_view text);

// A cube's position at one moment, as input to Trails.
struct CubeMark {
  sim::PlayerId id = 0;
  client::Vec2 position;
};

// A small map of the whole arena in the top right corner of the part drawn, when that is not all of it:
// every cube a dot in its colour (`own`'s larger), the part drawn a frame.
void DrawMinimap(ImDrawList& draw, const ArenaMapping& mapping, std::span<const CubeMark> cubes,
                 std::optional<sim::PlayerId> own);

// Short motion trails: each cube's recent positions, recorded every kInterval of the caller's time.
class Trails {
 public:
  static constexpr Micros kInterval{20'000};
  static constexpr std::size_t kLength = 30;  // 0.6 s

  // Records the cubes present now (when kInterval has passed) and forgets the cubes that have gone.
  void Record(Micros now, std::span<const CubeMark> cubes);
  void Clear() noexcept;
  void Draw(ImDrawList& draw, const ArenaMapping& mapping) const;
  // Oldest first; empty for an unknown cube.
  std::span<const client::Vec2> Of(sim::PlayerId id) const;

 private:
  std::map<sim::PlayerId, std::vector<client::Vec2>> trails_;
  std::optional<Micros> last_record_;
};

}  // namespace netcube::gui
