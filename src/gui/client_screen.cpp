#include "netcube/gui/client_screen.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>

#include "netcube/gui/backdrop.h"
#include "netcube/gui/keys.h"
#include "netcube/gui/theme.h"
#include "netcube/protocol/messages.h"
#include "panel_widgets.h"

namespace netcube::gui {
namespace {

constexpr float kMargin = 8.0F;
constexpr float kTitleHeight = 20.0F;
constexpr float kMinPanelWidth = 380.0F;
constexpr float kMaxPanelWidth = 520.0F;
// The LAN list keeps room for this many servers (more scroll), so the panel below it never moves: a click
// aimed at a checkbox lands on it whether servers appear or vanish meanwhile.
constexpr int kServerRows = 4;
constexpr const char* kKeysHint = "arrow keys or W A S D; Space or a click tags";
constexpr const char* kSpectatorKeysHint = "Tab: follow the next, F: free camera, arrows: move";

// The name field takes no more than the protocol carries: a name is never refused, or shown cut, for its
// length.
int KeepToNameLength(ImGuiInputTextCallbackData* data) {
  constexpr int kMax = static_cast<int>(protocol::kMaxNameLength);
  if (data->BufTextLen > kMax) data->DeleteChars(kMax, data->BufTextLen - kMax);
  return 0;
}

}  // namespace

ClientLayout ClientLayout::For(ImVec2 display_size) noexcept {
  ClientLayout layout;
  const float panel_width = std::clamp(display_size.x * 0.36F, kMinPanelWidth, kMaxPanelWidth);
  const float left_width = std::max(1.0F, display_size.x - panel_width - 3.0F * kMargin);
  layout.title = {kMargin, kMargin, left_width, kTitleHeight};
  layout.arena = {kMargin, kMargin + kTitleHeight, left_width,
                  std::max(1.0F, display_size.y - kTitleHeight - 2.0F * kMargin)};
  layout.panel = {kMargin + left_width + kMargin, kMargin, panel_width,
                  std::max(1.0F, display_size.y - 2.0F * kMargin)};
  return layout;
}

void SpectatorCamera::Update(const client::Client& client, std::uint8_t held_buttons,
                             Micros elapsed) noexcept {
  if (follow_) {
    for (const client::RemoteView& remote : client.remotes()) {
      if (remote.id == *follow_ && remote.sample != client::SampleKind::kEmpty) free_ = remote.drawn;
    }
  }
  const int dx = ((held_buttons & sim::kRight) ? 1 : 0) - ((held_buttons & sim::kLeft) ? 1 : 0);
  const int dy = ((held_buttons & sim::kDown) ? 1 : 0) - ((held_buttons & sim::kUp) ? 1 : 0);
  if (dx == 0 && dy == 0) return;
  const client::Vec2 from = Centre(client);
  follow_.reset();
  const double step = kPanUnitsPerSecond * std::chrono::duration<double>(elapsed).count();
  const sim::Arena& arena = client.welcome().arena;
  free_ = client::Vec2{std::clamp(from.x + dx * step, 0.0, client::ToUnits(arena.width)),
                       std::clamp(from.y + dy * step, 0.0, client::ToUnits(arena.height))};
}

void SpectatorCamera::FollowNext(const client::Client& client) {
  std::optional<sim::PlayerId> first;
  std::optional<sim::PlayerId> next;
  for (const client::RemoteView& remote : client.remotes()) {
    if (remote.sample == client::SampleKind::kEmpty) continue;
    if (!first || remote.id < *first) first = remote.id;
    if (follow_ && remote.id > *follow_ && (!next || remote.id < *next)) next = remote.id;
  }
  if (next) {
    follow_ = next;
  } else if (first) {
    follow_ = first;  // past the last, or free: the first again
  }
}

client::Vec2 SpectatorCamera::Centre(const client::Client& client) const noexcept {
  if (follow_) {
    for (const client::RemoteView& remote : client.remotes()) {
      if (remote.id == *follow_ && remote.sample != client::SampleKind::kEmpty) return remote.drawn;
    }
  }
  if (free_) return *free_;
  const sim::Arena& arena = client.welcome().arena;
  return {client::ToUnits(arena.width) / 2.0, client::ToUnits(arena.height) / 2.0};
}

protocol::Viewpoint SpectatorCamera::Viewpoint(const client::Client& client) const noexcept {
  if (follow_) return protocol::Viewpoint{true, *follow_, 0, 0};
  const sim::Arena& arena = client.welcome().arena;
  const client::Vec2 centre = Centre(client);
  const auto whole = [](double units, int size) {
    return std::clamp(static_cast<int>(units), 0, std::max(0, size - 1));
  };
  return protocol::Viewpoint{false, 0, whole(centre.x, arena.width_units()),
                             whole(centre.y, arena.height_units())};
}

ClientScreen::ClientScreen(const ClientScreenConfig& config, Micros now)
    : config_(config.client),
      client_(std::make_unique<client::Client>(config.client)),
      view_("You", kKeysHint),
      camera_(config.client.follow),
      host_(config.host),
      port_(config.port),
      name_(config.client.name) {
  if (config.browse) browser_ = discovery::Browser::Open(config.browser, &browser_error_);
  if (config.connect_at_start) Connect(now);
}

ClientScreen::~ClientScreen() = default;

bool ClientScreen::Connect(Micros now) {
  connect_error_.clear();
  if (port_ < 1 || port_ > 65535) {
    connect_error_ = "the port must be in [1, 65535]";
    return false;
  }
  // A fresh client carries the new name; the techniques and link conditions the user chose stay.
  config_.name = name_;
  config_.settings = client_->settings();
  config_.link = client_->link();
  client_ = std::make_unique<client::Client>(config_);
  view_.Reset();
  camera_ = SpectatorCamera(config_.follow);
  connected_to_ = host_ + ":" + std::to_string(port_);
  return client_->Connect(host_, static_cast<std::uint16_t>(port_), now, &connect_error_);
}

void ClientScreen::Disconnect(Micros now) { client_->Disconnect(now); }

std::string ClientScreen::Title() const {
  // The address only while there is a connection to it: the fields may hold anything in between.
  const client::ConnectionState state = client_->state();
  const bool live =
      state == client::ConnectionState::kConnected || state == client::ConnectionState::kConnecting;
  if (live && config_.spectate) {
    // A spectator's line says whom it watches (no name: it has no cube to label).
    std::string title = "netcube-client - watching " + connected_to_;
    if (const std::optional<sim::PlayerId> id = camera_.following()) {
      title += ", following #" + std::to_string(*id);
    } else {
      title += ", free camera";
    }
    return title + " (" + kSpectatorKeysHint + ")";
  }
  std::string title = "netcube-client - " + config_.name;
  title += live ? " @ " + connected_to_ : ", not connected";
  return title + " - " + kKeysHint;
}

ArenaMapping ClientScreen::MappingFor(const Rect& area) const noexcept {
  if (!client_->spectator()) return PlayerView::MappingFor(area, *client_);
  return PlayerView::MappingFor(area, *client_, camera_.Centre(*client_));
}

void ClientScreen::Update(Micros now, std::uint8_t held_buttons) {
  if (browser_ != nullptr) browser_->Service(now);
  client_->Update(now, held_buttons);
  view_.Observe(now, *client_);
  const Micros elapsed = last_update_ ? std::max(Micros(0), now - *last_update_) : Micros(0);
  last_update_ = now;
  if (client_->spectator()) {
    camera_.Update(*client_, held_buttons, elapsed);
    client_->Watch(camera_.Viewpoint(*client_));
  }
}

void ClientScreen::Draw(const ClientLayout& layout, Micros now,
                        std::span<const transport::LinkProfile> profiles) {
  const bool spectator = client_->spectator();
  if (spectator) {
    if (KeyPressedNow(Key::kTab)) camera_.FollowNext(*client_);
    if (KeyPressedNow(Key::kF)) camera_.Free();
  }
  ImDrawList& background = *ImGui::GetBackgroundDrawList();
  const ArenaMapping mapping = MappingFor(layout.arena);
  const Rect shown[] = {mapping.arena(), layout.panel};
  PaintBackdropAround(background, ImGui::GetIO().DisplaySize, shown);
  DrawCentredText(background, layout.title.x + layout.title.w / 2.0F,
                  layout.title.y + (layout.title.h - ImGui::GetFontSize()) / 2.0F, ToImU32(kHeaderText),
                  Title());
  view_.DrawArena(background, mapping, *client_, now);
  if (const std::optional<TagRequest> tag =
          spectator ? std::nullopt : view_.TagInput(mapping, TagKeyPressedNow(KeyBinding::kArrowsAndWasd))) {
    view_.TagByHand(*client_, now, tag->target);
  }

  ImGui::SetNextWindowPos(layout.panel.min());
  ImGui::SetNextWindowSize(ImVec2(layout.panel.w, layout.panel.h));
  // A spectator's Tab follows the next player: it must not also step through the panel's fields.
  ImGui::Begin("##client", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings | kBackdropPanelFlags |
                   (spectator ? ImGuiWindowFlags_NoNavInputs : 0));
  DrawConnectPanel(now);
  if (spectator) DrawCameraControls();
  view_.DrawPanel(*client_, profiles);
  ImGui::End();
}

void ClientScreen::DrawConnectPanel(Micros now) {
  if (!ImGui::CollapsingHeader("Connection", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const client::ConnectionState state = client_->state();
  const bool idle =
      state != client::ConnectionState::kConnected && state != client::ConnectionState::kConnecting;
  DrawServerList(now, idle);
  ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.55F);
  ImGui::BeginDisabled(!idle);
  ImGui::InputText("host", &host_);
  ImGui::InputInt("port", &port_, 0);
  ImGui::InputText("name", &name_, ImGuiInputTextFlags_CallbackEdit, KeepToNameLength);
  ImGui::SameLine();
  ImGui::Checkbox("watch", &config_.spectate);
  Tooltip("Connect as a spectator: no cube of your own, a camera that follows a player or moves freely.");
  ImGui::EndDisabled();
  ImGui::PopItemWidth();
  if (idle) {
    if (ImGui::Button("Connect")) Connect(now);
  } else if (ImGui::Button("Disconnect")) {
    Disconnect(now);
  }
  ImGui::SameLine();
  const bool failed = state == client::ConnectionState::kRefused || state == client::ConnectionState::kLost ||
                      state == client::ConnectionState::kUnreachable;
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(failed ? kBadText : kHeaderText)), "%s%s%s",
                     client::ToString(state), client_->status().empty() ? "" : ": ",
                     client_->status().c_str());
  if (!connect_error_.empty()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(kBadText)), "cannot connect: %s",
                       connect_error_.c_str());
  }
}

void ClientScreen::DrawCameraControls() {
  if (const std::optional<sim::PlayerId> id = camera_.following()) {
    ImGui::Text("Camera: following #%u", static_cast<unsigned>(*id));
  } else {
    const protocol::Viewpoint at = camera_.Viewpoint(*client_);
    ImGui::Text("Camera: free at (%d, %d)", at.x_units, at.y_units);
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("Follow next")) camera_.FollowNext(*client_);
  Tooltip("Follow the next player in id order (Tab).");
  ImGui::SameLine();
  ImGui::BeginDisabled(!camera_.following());
  if (ImGui::SmallButton("Free camera")) camera_.Free();
  Tooltip("Stop following: the arrow keys move the camera (F).");
  ImGui::EndDisabled();
}

void ClientScreen::DrawServerList(Micros now, bool idle) {
  if (browser_ == nullptr) {
    if (!browser_error_.empty()) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(kBadText)), "LAN discovery unavailable: %s",
                         browser_error_.c_str());
    }
    return;
  }
  const std::vector<discovery::FoundServer>& servers = browser_->servers();
  // The same height with no server, one or many.
  const float rows_height = ImGui::GetFrameHeight() * static_cast<float>(kServerRows + 1);
  if (servers.empty()) {
    ImGui::TextDisabled("No server heard on the LAN yet (asking every second)");
    ImGui::Dummy(ImVec2(0.0F, rows_height));
    return;
  }
  ImGui::TextUnformatted("Servers on the LAN");
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("##servers", 5, kFlags, ImVec2(0.0F, rows_height))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("address");
  ImGui::TableSetupColumn("players");
  ImGui::TableSetupColumn("rtt");
  ImGui::TableSetupColumn("");
  ImGui::TableHeadersRow();
  for (const discovery::FoundServer& server : servers) {
    const protocol::DiscoveryReply& r = server.reply;
    ImGui::PushID(&server);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.name.c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("arena %dx%d, tick %u Hz, snapshots %u Hz, protocol %u%s", r.arena.width_units(),
                        r.arena.height_units(), static_cast<unsigned>(r.tick_rate),
                        static_cast<unsigned>(r.snapshot_rate), static_cast<unsigned>(r.version),
                        server.compatible() ? "" : " (incompatible)");
    }
    ImGui::TableNextColumn();
    ImGui::Text("%s:%u", server.address.c_str(), static_cast<unsigned>(server.port));
    ImGui::TableNextColumn();
    ImGui::Text("%u/%u", static_cast<unsigned>(r.players), static_cast<unsigned>(r.max_players));
    ImGui::TableNextColumn();
    ImGui::Text("%.1f ms", std::chrono::duration<double, std::milli>(server.round_trip).count());
    ImGui::TableNextColumn();
    ImGui::BeginDisabled(!idle || !server.compatible() || r.players >= r.max_players);
    if (ImGui::SmallButton("Join")) {
      host_ = server.address;
      port_ = server.port;
      Connect(now);
    }
    ImGui::EndDisabled();
    ImGui::PopID();
  }
  ImGui::EndTable();
}

}  // namespace netcube::gui
