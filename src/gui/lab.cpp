#include "netcube/gui/lab.h"

#include <algorithm>
#include <array>
#include <utility>

#include "netcube/client/bot.h"
#include "netcube/gui/backdrop.h"
#include "netcube/gui/keys.h"
#include "netcube/gui/theme.h"
#include "netcube/protocol/messages.h"

namespace netcube::gui {
namespace {

constexpr float kMargin = 8.0F;
constexpr float kTitleHeight = 20.0F;
// The arenas take at most this share of the height; the panels below get the rest.
constexpr float kMaxArenaShare = 0.45F;
constexpr const char* kLabHost = "127.0.0.1";
// Nothing draws a wanderer's remote cubes: their views are refreshed this seldom, to spare the frame.
constexpr Micros kWandererViewInterval{500'000};

constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                         ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                                         ImGuiWindowFlags_NoSavedSettings | kBackdropPanelFlags;

void BeginPanel(const char* id, const Rect& rect) {
  ImGui::SetNextWindowPos(rect.min());
  ImGui::SetNextWindowSize(ImVec2(rect.w, rect.h));
  ImGui::Begin(id, nullptr, kPanelFlags);
}

// Wanderer `index`'s client: behind player 1's link, so that the server's baselines, which follow what most
// clients acknowledge, suit the players too (a crowd on a faster link would leave them full snapshots).
client::ClientConfig WandererConfig(std::size_t index, std::uint64_t seed,
                                    const transport::LinkSettings& link) {
  client::ClientConfig config;
  config.name = "crowd " + std::to_string(index + 1);
  config.seed = seed + index;
  config.link = link;
  config.view_interval = kWandererViewInterval;
  return config;
}

}  // namespace

LabConfig WithCrowd(LabConfig config, int crowd, std::uint64_t seed) {
  config.crowd = crowd;
  config.crowd_seed = seed;
  config.server.arena = kCrowdArena;
  config.server.interest = true;
  config.server.interest_radius_units = kCrowdInterestRadiusUnits;
  return config;
}

LabConfig DefaultLabConfig() {
  LabConfig config;
  config.server.spawn_spacing_units = kLabSpawnSpacingUnits;
  const client::Preset presets[] = {client::Preset::kFull, client::Preset::kNaive};
  const char* hints[] = {"arrow keys, Space tags", "W A S D, E tags"};
  const KeyBinding keys[] = {KeyBinding::kArrows, KeyBinding::kWasd};
  for (std::size_t i = 0; i < 2; ++i) {
    LabPlayer player;
    // One name everywhere: the column, the arenas' labels, the server's table, the explanations.
    player.client.name = "Player " + std::to_string(i + 1);
    player.client.seed = i + 1;
    player.client.link.latency_ms = kLabDefaultLatencyMs;
    player.client.settings = client::PresetSettings(presets[i]);
    player.title = player.client.name;
    player.keys_hint = hints[i];
    player.keys = keys[i];
    config.players.push_back(std::move(player));
  }
  return config;
}

LabConfig CompareLabConfig(std::span<const client::TechniqueSet> entries, const transport::LinkSettings& link,
                           std::uint64_t seed) {
  LabConfig config;
  config.server.collisions = false;
  config.server.shared_spawn = true;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    LabPlayer player;
    player.client.name = entries[i].label.substr(0, protocol::kMaxNameLength);
    player.client.seed = seed;
    player.client.link = link;
    player.client.settings = entries[i].settings;
    player.title = entries[i].label + " (" + client::TechniquesOf(entries[i].settings) + ")";
    player.keys_hint = "the same keys for all, Space tags";
    player.keys = KeyBinding::kArrowsAndWasd;
    config.players.push_back(std::move(player));
  }
  return config;
}

LabLayout LabLayout::For(ImVec2 display_size, std::size_t players) noexcept {
  LabLayout layout;
  layout.columns = std::min(players, kMaxLabPlayers) + 1;
  layout.server_column = layout.columns / 2;
  const auto n = static_cast<float>(layout.columns);
  const float column_width = std::max(1.0F, (display_size.x - (n + 1.0F) * kMargin) / n);
  // The standard arena's shape: a larger arena is followed (or fitted, in the server's column) inside it.
  const float arena_height = std::min(column_width * static_cast<float>(sim::kStandardArena.height) /
                                          static_cast<float>(sim::kStandardArena.width),
                                      kMaxArenaShare * (display_size.y - kTitleHeight - 3.0F * kMargin));
  const float panel_top = kMargin + kTitleHeight + arena_height + kMargin;
  for (std::size_t column = 0; column < layout.columns; ++column) {
    const float x = kMargin + static_cast<float>(column) * (column_width + kMargin);
    layout.title[column] = {x, kMargin, column_width, kTitleHeight};
    layout.arena[column] = {x, kMargin + kTitleHeight, column_width, arena_height};
    layout.panel[column] = {x, panel_top, column_width, std::max(1.0F, display_size.y - panel_top - kMargin)};
  }
  return layout;
}

std::unique_ptr<Lab> Lab::Create(const LabConfig& config, Micros now, std::string* error) {
  if (config.players.empty() || config.players.size() > kMaxLabPlayers) {
    *error = "the lab takes 1 to " + std::to_string(kMaxLabPlayers) + " players";
    return nullptr;
  }
  if (config.crowd < 0 || config.crowd > kMaxCrowd) {
    *error = "the lab's crowd takes 0 to " + std::to_string(kMaxCrowd) + " players";
    return nullptr;
  }
  LabConfig wired = config;
  const std::shared_ptr<transport::Network> network = transport::MakeNetwork(config.network);
  wired.server.bind_address = kLabHost;
  wired.server.port = 0;
  wired.server.network = network;
  // Room for every player of a crowd, all from 127.0.0.1 over UDP.
  const std::size_t everyone = config.players.size() + static_cast<std::size_t>(config.crowd);
  wired.server.max_clients = std::max(wired.server.max_clients, everyone);
  wired.server.max_per_address = std::max(wired.server.max_per_address, everyone);
  for (LabPlayer& player : wired.players) player.client.network = network;
  std::unique_ptr<server::Server> server = server::Server::Create(wired.server, now, error);
  if (server == nullptr) return nullptr;
  std::unique_ptr<Lab> lab(new Lab(std::move(server), wired));
  for (std::size_t i = 0; i < lab->players_.size(); ++i) {
    // Not an invariant: the name comes from the caller and the socket from the OS. A lab missing a player
    // is not the lab asked for, so it says why instead.
    std::string why;
    if (!lab->players_[i]->Connect(kLabHost, lab->server_->port(), now, &why)) {
      *error = "lab player " + std::to_string(i + 1) + ": " + why;
      return nullptr;
    }
  }
  return lab;
}

Lab::Lab(std::unique_ptr<server::Server> server, const LabConfig& config)
    : server_(std::move(server)),
      connect_errors_(config.players.size()),
      tag_interval_ms_(config.tag_interval_ms),
      next_scripted_tag_(config.players.size()),
      hand_tags_(config.hand_tags) {
  for (const LabPlayer& player : config.players) {
    players_.push_back(std::make_unique<client::Client>(player.client));
    player_views_.emplace_back(player.title, player.keys_hint);
    player_views_.back().SelectTab(config.panel_tab);
    column_titles_.push_back(player.title + " - " + player.keys_hint);
    tag_keys_.push_back(player.keys);
  }
  std::string error;  // none: "random" is a script
  const std::optional<client::InputScript> random = client::InputScript::Parse("random", &error);
  for (std::size_t i = 0; i < static_cast<std::size_t>(config.crowd); ++i) {
    client::ClientConfig wanderer = WandererConfig(i, config.crowd_seed, config.players.front().client.link);
    wanderer.network = config.players.front().client.network;
    crowd_keys_.emplace_back(random, wanderer.seed, KeyBinding::kArrows);
    crowd_.push_back(std::make_unique<client::Client>(std::move(wanderer)));
  }
  // Hundreds of trails would hide the cubes and the relevant set; the panel's switch brings them back.
  if (!crowd_.empty()) server_view_.SetTrails(false);
}

Lab::~Lab() = default;

void Lab::Update(Micros now, std::span<const std::uint8_t> held) {
  server_->Update(now);
  for (std::size_t i = 0; i < players_.size(); ++i) {
    players_[i]->Update(now, i < held.size() ? held[i] : 0);
    player_views_[i].Observe(now, *players_[i]);
    if (tag_interval_ms_ > 0 && now >= next_scripted_tag_[i]) {
      const std::optional<sim::Aim> aim = client::AimAtNearest(*players_[i]);
      if (aim && players_[i]->Tag(now, *aim))
        next_scripted_tag_[i] = now + Micros(std::int64_t{tag_interval_ms_} * 1000);
    }
  }
  UpdateCrowd(now);
  ObserveServer(now);
}

void Lab::UpdateCrowd(Micros now) {
  // The wanderers connect once no column's player is still connecting: the players take the first ids and
  // the spawn slots in the middle, as in the lab without a crowd.
  if (!crowd_started_ && std::none_of(players_.begin(), players_.end(), [](const auto& player) {
        return player->state() == client::ConnectionState::kConnecting;
      })) {
    crowd_started_ = true;
    // A wanderer that cannot connect (no socket over UDP) stays out: the server's panel counts those in.
    std::string why;
    for (const std::unique_ptr<client::Client>& wanderer : crowd_)
      wanderer->Connect(kLabHost, server_->port(), now, &why);
  }
  for (std::size_t i = 0; i < crowd_.size(); ++i)
    crowd_[i]->Update(now, crowd_keys_[i].Held(now, *crowd_[i]));
}

void Lab::ObserveServer(Micros now) {
  if (crowd_.empty()) {
    server_view_.Observe(now, *server_);
    return;
  }
  crowd_focus_.listed.clear();
  for (const std::unique_ptr<client::Client>& player : players_)
    if (const std::optional<sim::PlayerId> id = player->player_id()) crowd_focus_.listed.push_back(*id);
  crowd_focus_.player_1 = players_.front()->player_id();
  const client::Metrics metrics = players_.front()->metrics();
  crowd_focus_.bytes_down_per_s = metrics.bytes_down_per_s;
  crowd_focus_.interest_snapshots = metrics.snapshots_interest;
  server_view_.Observe(now, *server_, &crowd_focus_);
}

void Lab::Draw(const LabLayout& layout, Micros now, std::span<const transport::LinkProfile> profiles) {
  ImDrawList& background = *ImGui::GetBackgroundDrawList();
  const ArenaMapping server_mapping =
      ArenaMapping::Fit(layout.arena[layout.server_column], server_->config().arena);
  static_assert(2 * (kMaxLabPlayers + 1) <= kMaxShownOnBackdrop, "a floor and a panel a column");
  std::array<Rect, kMaxShownOnBackdrop> shown;
  std::size_t shown_count = 0;
  shown[shown_count++] = server_mapping.arena();
  for (std::size_t column = 0; column < layout.columns; ++column) shown[shown_count++] = layout.panel[column];
  for (std::size_t i = 0; i < players_.size(); ++i) shown[shown_count++] = PlayerMapping(i, layout).arena();
  PaintBackdropAround(background, ImGui::GetIO().DisplaySize, std::span(shown).first(shown_count));
  const auto title = [&](std::size_t column, const std::string& text, Rgb colour) {
    const Rect& rect = layout.title[column];
    DrawCentredText(background, rect.x + rect.w / 2.0F, rect.y + (rect.h - ImGui::GetFontSize()) / 2.0F,
                    ToImU32(colour), text);
  };
  if (notice_.empty()) {
    title(layout.server_column, "Server - the truth", kHeaderText);
  } else {
    const std::string both = "Server - the truth | " + notice_;
    const bool fits = ImGui::CalcTextSize(both.c_str()).x <= layout.title[layout.server_column].w;
    title(layout.server_column, fits ? both : notice_, kNoticeText);
  }
  for (std::size_t i = 0; hand_tags_ && !read_only_ && i < players_.size(); ++i) {
    const std::optional<TagRequest> request =
        player_views_[i].TagInput(PlayerMapping(i, layout), TagKeyPressedNow(tag_keys_[i]));
    if (request) TagByHand(now, {i, *request});
  }
  for (std::size_t i = 0; i < players_.size(); ++i) {
    // The keys too where they fit (they do not in four narrow columns of a comparison).
    const std::size_t column = layout.ColumnOf(i);
    const bool fits = ImGui::CalcTextSize(column_titles_[i].c_str()).x <= layout.title[column].w;
    title(column, fits ? column_titles_[i] : player_views_[i].title(), kHeaderText);
    DrawPlayerColumn(i, layout, now, profiles);
  }

  server_view_.DrawArena(background, server_mapping, *server_);
  BeginPanel("##server", layout.panel[layout.server_column]);
  // A journaled run's time machine and the server's controls share the panel as tabs (the time machine
  // first), so that each fits a 1280 x 720 window whole.
  if (!timeline_.enabled()) {
    server_view_.DrawPanel(*server_);
  } else if (ImGui::BeginTabBar("##server_tabs")) {
    if (ImGui::BeginTabItem("Time machine")) {
      timeline_.DrawPanel(now, profiles);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Server")) {
      server_view_.DrawPanel(*server_);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
}

std::vector<LabHandTag> Lab::TakeHandTags() { return std::exchange(hand_tags_fired_, {}); }

void Lab::TagByHand(Micros now, const LabHandTag& tag) {
  if (tag.player >= players_.size()) return;
  player_views_[tag.player].TagByHand(*players_[tag.player], now, tag.request.target);
  hand_tags_fired_.push_back(tag);
}

std::vector<std::size_t> Lab::TakeReconnects() { return std::exchange(reconnects_pressed_, {}); }

void Lab::Reconnect(std::size_t index, Micros now) {
  if (index >= players_.size()) return;
  player_views_[index].Reset();
  connect_errors_[index].clear();
  players_[index]->Connect(kLabHost, server_->port(), now, &connect_errors_[index]);
}

ArenaMapping Lab::PlayerMapping(std::size_t index, const LabLayout& layout) const noexcept {
  return PlayerView::MappingFor(layout.arena[layout.ColumnOf(index)], *players_[index]);
}

void Lab::DrawPlayerColumn(std::size_t index, const LabLayout& layout, Micros now,
                           std::span<const transport::LinkProfile> profiles) {
  const std::size_t column = layout.ColumnOf(index);
  client::Client& player = *players_[index];
  PlayerView& view = player_views_[index];
  view.DrawArena(*ImGui::GetBackgroundDrawList(), PlayerMapping(index, layout), player, now,
                 server_->world());

  BeginPanel(("##player" + std::to_string(index + 1)).c_str(), layout.panel[column]);
  const client::ConnectionState state = player.state();
  if (state != client::ConnectionState::kConnected && state != client::ConnectionState::kConnecting) {
    // A press is one of the run's hands: the caller puts it on the tape (TakeReconnects), and a paused
    // frame, which must stay as the run passed it, has none.
    if (!read_only_ && ImGui::Button("Reconnect")) {
      Reconnect(index, now);
      reconnects_pressed_.push_back(index);
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
