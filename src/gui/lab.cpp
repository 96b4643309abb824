#include "netcube/gui/lab.h"

#include <algorithm>
#include <utility>

#include "netcube/client/bot.h"
#include "netcube/gui/keys.h"
#include "netcube/gui/theme.h"

namespace netcube::gui {
namespace {

constexpr float kMargin = 8.0F;
constexpr float kTitleHeight = 20.0F;
// The arenas take at most this share of the height; the panels below get the rest.
constexpr float kMaxArenaShare = 0.45F;
constexpr const char* kLabHost = "127.0.0.1";

constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                         ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                                         ImGuiWindowFlags_NoSavedSettings;

const char* ColumnTitle(std::size_t column) {
  switch (column) {
    case 0:
      return "Player 1 - arrow keys, Space tags";
    case LabLayout::kServerColumn:
      return "Server - the truth";
    default:
      return "Player 2 - W A S D, E tags";
  }
}

void BeginPanel(const char* id, const Rect& rect) {
  ImGui::SetNextWindowPos(rect.min());
  ImGui::SetNextWindowSize(ImVec2(rect.w, rect.h));
  ImGui::Begin(id, nullptr, kPanelFlags);
}

}  // namespace

LabConfig DefaultLabConfig() {
  LabConfig config;
  const client::Preset presets[kLabPlayers] = {client::Preset::kFull, client::Preset::kNaive};
  for (std::size_t i = 0; i < kLabPlayers; ++i) {
    client::ClientConfig& player = config.players[i];
    player.name = "player" + std::to_string(i + 1);
    player.seed = i + 1;
    player.link.latency_ms = kLabDefaultLatencyMs;
    player.settings = client::PresetSettings(presets[i]);
  }
  return config;
}

LabLayout LabLayout::For(ImVec2 display_size) noexcept {
  LabLayout layout;
  const float column_width = std::max(1.0F, (display_size.x - 4.0F * kMargin) / 3.0F);
  const float arena_height = std::min(column_width * static_cast<float>(sim::kArenaHeight) / sim::kArenaWidth,
                                      kMaxArenaShare * (display_size.y - kTitleHeight - 3.0F * kMargin));
  const float panel_top = kMargin + kTitleHeight + arena_height + kMargin;
  for (std::size_t column = 0; column < kColumns; ++column) {
    const float x = kMargin + static_cast<float>(column) * (column_width + kMargin);
    layout.title[column] = {x, kMargin, column_width, kTitleHeight};
    layout.arena[column] = ArenaMapping::Fit({x, kMargin + kTitleHeight, column_width, arena_height});
    layout.panel[column] = {x, panel_top, column_width, std::max(1.0F, display_size.y - panel_top - kMargin)};
  }
  return layout;
}

std::unique_ptr<Lab> Lab::Create(const LabConfig& config, Micros now, std::string* error) {
  server::ServerConfig server_config = config.server;
  server_config.bind_address = kLabHost;
  server_config.port = 0;
  std::unique_ptr<server::Server> server = server::Server::Create(server_config, now, error);
  if (server == nullptr) return nullptr;
  std::unique_ptr<Lab> lab(new Lab(std::move(server), config));
  for (std::size_t i = 0; i < kLabPlayers; ++i) {
    // Cannot fail for a numeric host and a bound port; a failure would show in the player's panel.
    lab->players_[i]->Connect(kLabHost, lab->server_->port(), now, &lab->connect_errors_[i]);
  }
  return lab;
}

Lab::Lab(std::unique_ptr<server::Server> server, const LabConfig& config)
    : server_(std::move(server)),
      players_{std::make_unique<client::Client>(config.players[0]),
               std::make_unique<client::Client>(config.players[1])},
      player_views_{PlayerView("Player 1", "arrow keys, Space tags"), PlayerView("Player 2", "W A S D, E tags")},
      tag_interval_ms_(config.tag_interval_ms) {}

Lab::~Lab() = default;

void Lab::Update(Micros now, std::array<std::uint8_t, kLabPlayers> held) {
  server_->Update(now);
  for (std::size_t i = 0; i < kLabPlayers; ++i) {
    players_[i]->Update(now, held[i]);
    player_views_[i].Observe(now, *players_[i]);
    if (tag_interval_ms_ > 0 && now >= next_scripted_tag_[i]) {
      const std::optional<sim::Aim> aim = client::AimAtNearest(*players_[i]);
      if (aim && players_[i]->Tag(now, *aim)) next_scripted_tag_[i] = now + Micros(std::int64_t{tag_interval_ms_} * 1000);
    }
  }
  server_view_.Observe(now, *server_);
}

void Lab::Draw(const LabLayout& layout, Micros now, std::span<const transport::LinkProfile> profiles) {
  ImDrawList& background = *ImGui::GetBackgroundDrawList();
  for (std::size_t column = 0; column < LabLayout::kColumns; ++column) {
    const Rect& title = layout.title[column];
    DrawCentredText(background, title.x + title.w / 2.0F, title.y + (title.h - ImGui::GetFontSize()) / 2.0F,
                    ToImU32(kHeaderText), ColumnTitle(column));
  }
  for (std::size_t i = 0; i < kLabPlayers; ++i) {
    const bool down = TagKeyHeldNow(i == 0 ? KeyBinding::kArrows : KeyBinding::kWasd);
    player_views_[i].HandleTagInput(*players_[i], layout.arena[LabLayout::ColumnOf(i)], now,
                                    down && !tag_key_was_down_[i]);
    tag_key_was_down_[i] = down;
  }
  for (std::size_t i = 0; i < kLabPlayers; ++i) DrawPlayerColumn(i, layout, now, profiles);

  server_view_.DrawArena(background, layout.arena[LabLayout::kServerColumn], *server_);
  BeginPanel("##server", layout.panel[LabLayout::kServerColumn]);
  server_view_.DrawPanel(*server_);
  ImGui::End();
}

void Lab::DrawPlayerColumn(std::size_t index, const LabLayout& layout, Micros now,
                           std::span<const transport::LinkProfile> profiles) {
  const std::size_t column = LabLayout::ColumnOf(index);
  client::Client& player = *players_[index];
  PlayerView& view = player_views_[index];
  view.DrawArena(*ImGui::GetBackgroundDrawList(), layout.arena[column], player, now, server_->world());

  BeginPanel(index == 0 ? "##player1" : "##player2", layout.panel[column]);
  const client::ConnectionState state = player.state();
  if (state != client::ConnectionState::kConnected && state != client::ConnectionState::kConnecting) {
    if (ImGui::Button("Reconnect")) {
      view.Reset();
      connect_errors_[index].clear();
      player.Connect(kLabHost, server_->port(), now, &connect_errors_[index]);
    }
    if (!connect_errors_[index].empty()) {
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(kBadText)), "%s",
                         connect_errors_[index].c_str());
    }
  }
  view.DrawPanel(player, profiles);
  ImGui::End();
}

}  // namespace netcube::gui
