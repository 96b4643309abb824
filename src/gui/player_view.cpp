// The player view's conductor: what it observes of its client each frame (plot samples, trails, the latest
// correction), the arena with its overlays, tags by hand, and the panel's order. The panel's rooms are
// player_controls.cpp, player_readouts.cpp and pending_strip.cpp.
#include "netcube/gui/player_view.h"

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "netcube/client/bot.h"
#include "netcube/gui/theme.h"
#include "netcube/protocol/messages.h"
#include "panel_widgets.h"

namespace netcube::gui {
namespace {

constexpr Micros kCorrectionShowTime{1'000'000};
// Smoothing offsets and corrections below this (units) are invisible at any zoom: not worth an overlay.
constexpr double kVisibleUnits = 0.02;

// Tags: the player's rays as it drew them, coloured by the server's verdict once it came, and a flash
// around every cube tagged lately (anyone's tags), where the player draws it.
void DrawTags(ImDrawList& draw, const ArenaMapping& mapping, const client::Client& client, Micros now) {
  const client::LocalView& local = client.local();
  const std::optional<sim::PlayerId> own_id = client.player_id();
  const bool own_visible = own_id.has_value() && local.present;
  const auto fade = [now](Micros at) {
    return 1.0F -
           static_cast<float>((now - at).count()) / static_cast<float>(client::kTagDisplayTime.count());
  };
  for (const client::ShotView& shot : client.shots()) {
    const Rgb colour = !shot.judged                                 ? kRayPending
                       : shot.outcome == protocol::TagOutcome::kHit ? kRayHit
                                                                    : kRayMiss;
    DrawRay(draw, mapping, shot.origin, shot.aim,
            ToImU32(colour,
                    static_cast<std::uint8_t>(80.0F + 175.0F * std::clamp(fade(shot.fired_at), 0.0F, 1.0F))));
  }
  for (const client::TagFlash& flash : client.tag_flashes()) {
    if (own_visible && flash.target == *own_id) {
      DrawTagFlash(draw, mapping, local.drawn, fade(flash.at));
      continue;
    }
    for (const client::RemoteView& remote : client.remotes()) {
      if (remote.id == flash.target && remote.sample != client::SampleKind::kEmpty) {
        DrawTagFlash(draw, mapping, remote.drawn, fade(flash.at));
      }
    }
  }
}

}  // namespace

PlayerView::PlayerView(std::string title, std::string keys_hint)
    : title_(std::move(title)), keys_hint_(std::move(keys_hint)) {}

void PlayerView::Reset() {
  history_ = {};
  trails_.Clear();
  last_sample_.reset();
  corrections_seen_ = 0;
  largest_correction_since_sample_ = 0.0;
  latest_correction_.reset();
}

void PlayerView::Observe(Micros now, const client::Client& client) {
  const client::Metrics metrics = client.metrics();
  const client::LocalView& local = client.local();
  if (metrics.corrections < corrections_seen_) corrections_seen_ = 0;  // a new connection counts afresh
  if (metrics.corrections > corrections_seen_) {
    corrections_seen_ = metrics.corrections;
    largest_correction_since_sample_ =
        std::max(largest_correction_since_sample_, client::Length(local.last_correction));
    latest_correction_ = Correction{local.predicted - local.last_correction, local.predicted, now};
  }

  if (!last_sample_ || now - *last_sample_ >= MetricsHistory::kInterval) {
    last_sample_ = now;
    history_.rtt_ms.Push(static_cast<float>(metrics.rtt_ms));
    history_.correction.Push(static_cast<float>(largest_correction_since_sample_));
    history_.buffer_depth.Push(static_cast<float>(metrics.buffer_depth));
    history_.interp_delay_ms.Push(static_cast<float>(metrics.interp_delay_ms));
    history_.bytes_up_per_s.Push(static_cast<float>(metrics.bytes_up_per_s));
    history_.bytes_down_per_s.Push(static_cast<float>(metrics.bytes_down_per_s));
    largest_correction_since_sample_ = 0.0;
  }

  std::vector<CubeMark> cubes;
  if (const auto id = client.player_id(); id && local.present) cubes.push_back({*id, local.drawn});
  for (const client::RemoteView& remote : client.remotes()) {
    if (remote.sample != client::SampleKind::kEmpty) cubes.push_back({remote.id, remote.drawn});
  }
  trails_.Record(now, cubes);
}

ArenaMapping PlayerView::MappingFor(const Rect& area, const client::Client& client,
                                    std::optional<client::Vec2> camera) noexcept {
  const sim::Arena& arena = client.welcome().arena;
  const client::LocalView& local = client.local();
  const client::Vec2 centre = local.present
                                  ? local.drawn
                                  : camera.value_or(client::Vec2{client::ToUnits(arena.width) / 2.0,
                                                                 client::ToUnits(arena.height) / 2.0});
  return ArenaMapping::Follow(area, arena, centre);
}

void PlayerView::DrawArena(ImDrawList& draw, const ArenaMapping& mapping, const client::Client& client,
                           Micros now, std::span<const sim::PlayerCube> authoritative) const {
  DrawArenaFloor(draw, mapping);
  const Rect& arena = mapping.arena();
  if (client.state() != client::ConnectionState::kConnected) {
    std::string text = client::ToString(client.state());
    if (!client.status().empty()) text += ": " + client.status();
    DrawCentredText(draw, arena.x + arena.w / 2.0F, arena.y + arena.h / 2.0F - ImGui::GetFontSize(),
                    ToImU32(kHeaderText), text);
    return;
  }
  // A followed arena's cubes beyond the part drawn stay out of the rest of the window.
  draw.PushClipRect(arena.min(), arena.max(), true);
  if (overlays_.trails) trails_.Draw(draw, mapping);
  DrawOutlines(draw, mapping, client, authoritative);
  const client::LocalView& local = client.local();
  const std::optional<sim::PlayerId> own_id = client.player_id();
  const bool own_visible = own_id.has_value() && local.present;
  for (const client::RemoteView& remote : client.remotes()) {
    if (remote.sample != client::SampleKind::kEmpty)
      DrawCube(draw, mapping, remote.drawn, remote.id, CubeStyle::kSolid);
  }
  if (own_visible && overlays_.tag_reach) DrawTagReach(draw, mapping, local.drawn);
  if (own_visible) DrawCube(draw, mapping, local.drawn, *own_id, CubeStyle::kOwn);
  DrawCorrection(draw, mapping, client, now);
  DrawTags(draw, mapping, client, now);
  DrawLabels(draw, mapping, client, authoritative);
  draw.PopClipRect();
  if (!mapping.whole()) {
    std::vector<CubeMark> cubes;
    if (own_visible) cubes.push_back({*own_id, local.drawn});
    for (const client::RemoteView& remote : client.remotes()) {
      if (remote.sample != client::SampleKind::kEmpty) cubes.push_back({remote.id, remote.drawn});
    }
    DrawMinimap(draw, mapping, cubes, own_id);
  }
}

void PlayerView::DrawOutlines(ImDrawList& draw, const ArenaMapping& mapping, const client::Client& client,
                              std::span<const sim::PlayerCube> authoritative) const {
  const client::LocalView& local = client.local();
  const std::optional<sim::PlayerId> own_id = client.player_id();
  const bool own_visible = own_id.has_value() && local.present;
  if (overlays_.server_ghost && !authoritative.empty()) {
    for (const sim::PlayerCube& cube : authoritative) {
      DrawCube(draw, mapping, client::PositionOf(cube.state), cube.id, CubeStyle::kOutline);
    }
  } else if (overlays_.server_ghost) {
    for (const client::RemoteView& remote : client.remotes()) {
      DrawCube(draw, mapping, remote.latest, remote.id, CubeStyle::kOutline);
    }
    if (own_visible) DrawCube(draw, mapping, local.server, *own_id, CubeStyle::kOutline);
  }
  if (overlays_.latest_received) {
    for (const client::RemoteView& remote : client.remotes()) {
      if (remote.sample != client::SampleKind::kEmpty)
        DrawCube(draw, mapping, remote.latest, remote.id, CubeStyle::kFrame);
    }
  }
  if (overlays_.raw_prediction && own_visible && client.settings().prediction &&
      client::Length(local.smoothing_offset) > kVisibleUnits) {
    DrawCube(draw, mapping, local.predicted, *own_id, CubeStyle::kOutline);
  }
}

void PlayerView::DrawCorrection(ImDrawList& draw, const ArenaMapping& mapping, const client::Client& client,
                                Micros now) const {
  if (!overlays_.corrections || !latest_correction_ || !client.settings().prediction) return;
  const Micros age = now - latest_correction_->at;
  const double length = client::Length(latest_correction_->to - latest_correction_->from);
  if (age >= Micros(0) && age < kCorrectionShowTime && length > kVisibleUnits) {
    const double fade =
        1.0 - static_cast<double>(age.count()) / static_cast<double>(kCorrectionShowTime.count());
    DrawCorrectionArrow(draw, mapping, latest_correction_->from, latest_correction_->to,
                        ToImU32(kCorrectionArrow, static_cast<std::uint8_t>(255.0 * fade)));
  }
}

void PlayerView::DrawLabels(ImDrawList& draw, const ArenaMapping& mapping, const client::Client& client,
                            std::span<const sim::PlayerCube> authoritative) const {
  const client::LocalView& local = client.local();
  const std::optional<sim::PlayerId> own_id = client.player_id();
  const bool own_visible = own_id.has_value() && local.present;
  // Labels keep off the cubes and the outlines drawn (ghosts, latest received states).
  CubeLabels labels(draw, mapping);
  for (const client::RemoteView& remote : client.remotes()) {
    if (remote.sample != client::SampleKind::kEmpty) labels.Avoid(remote.drawn);
  }
  if (own_visible) labels.Avoid(local.drawn);
  for (const sim::PlayerCube& cube : authoritative) {
    if (overlays_.server_ghost) labels.Avoid(client::PositionOf(cube.state));
  }
  for (const client::RemoteView& remote : client.remotes()) {
    if (overlays_.latest_received || (overlays_.server_ghost && authoritative.empty()))
      labels.Avoid(remote.latest);
  }
  if (own_visible && overlays_.server_ghost && authoritative.empty()) labels.Avoid(local.server);
  char label[64];
  // The own cube's label first: it keeps its place, and the others move round it.
  if (own_visible) {
    std::snprintf(label, sizeof label, "#%u you", static_cast<unsigned>(*own_id));
    labels.Draw(local.drawn, *own_id, label);
  }
  for (const client::RemoteView& remote : client.remotes()) {
    if (remote.sample == client::SampleKind::kEmpty) continue;
    std::snprintf(label, sizeof label, "#%u %s", static_cast<unsigned>(remote.id), remote.name.c_str());
    labels.Draw(remote.drawn, remote.id, label);
  }
}

std::optional<TagRequest> PlayerView::TagInput(const ArenaMapping& mapping, bool key_pressed) const {
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 mouse = io.MousePos;
  const bool over_arena = mapping.Contains(mouse) && !io.WantCaptureMouse;
  const bool clicked = over_arena && ImGui::IsMouseClicked(ImGuiMouseButton_Left);
  if (!key_pressed && !clicked) return std::nullopt;
  return TagRequest{over_arena ? std::optional(mapping.ToWorld(mouse)) : std::nullopt};
}

void PlayerView::TagByHand(client::Client& client, Micros now, std::optional<client::Vec2> target) {
  client.Tag(now, client::HandAim(client, target));
}

void PlayerView::DrawPanel(client::Client& client, std::span<const transport::LinkProfile> profiles) {
  DrawStatus(client);
  DrawPresets(client);
  DrawLinkProfiles(client, profiles);
  DrawLinkConditioner(client);
  ImGui::Separator();
  if (client.spectator()) {
    ImGui::TextDisabled("Watching: no cube of your own, no inputs sent, no tags");
  } else {
    ImGui::Text("Pending inputs: %zu", client.pending().size());
    Tooltip(
        "Inputs sent but not yet acknowledged by the server, oldest first: the queue the client replays "
        "on every snapshot.");
    DrawPendingStrip(client.pending());
  }
  // The rest as tabs, so that a 1280 x 720 window shows each whole without scrolling: the switches first
  // (what a newcomer tries), then what they do (readouts, plots), then the arena's overlays.
  if (!ImGui::BeginTabBar("##sections")) return;
  const auto tab = [&](PanelTab which, const char* label) {
    const bool select = tab_to_select_ == which;
    if (!ImGui::BeginTabItem(label, nullptr, select ? ImGuiTabItemFlags_SetSelected : 0)) return false;
    if (select) tab_to_select_.reset();  // shown: the user's clicks choose from here on
    return true;
  };
  if (tab(PanelTab::kTechniques, "Techniques")) {
    DrawTechniques(client);
    ImGui::EndTabItem();
  }
  if (tab(PanelTab::kReadouts, "Readouts")) {
    DrawReadouts(client);
    ImGui::EndTabItem();
  }
  if (tab(PanelTab::kPlots, "Plots")) {
    DrawPlots();
    ImGui::EndTabItem();
  }
  if (tab(PanelTab::kOverlays, "Overlays")) {
    DrawOverlayToggles();
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

}  // namespace netcube::gui
