#include "netcube/gui/server_view.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "interest_view.h"
#include "netcube/gui/tag_story.h"
#include "netcube/gui/theme.h"
#include "netcube/protocol/messages.h"
#include "netcube/protocol/rules.h"
#include "netcube/transport/network.h"
#include "panel_widgets.h"

namespace netcube::gui {
namespace {

// The lab's sliders stop well below protocol::kMaxRate: beyond this nothing more is visible.
constexpr int kMaxLabTickRate = 120;
constexpr int kMaxLabSnapshotRate = 60;
// A judged tag stays drawn in the arena this long (server ticks at 60 Hz: one second).
constexpr std::uint64_t kTagShownTicks = 60;

// The clients' columns: short headers, each explained by its tooltip.
struct Column {
  const char* header;
  const char* tooltip;
};
constexpr Column kColumns[] = {
    {"id", "The player's id (its colour in every view)."},
    {"name", "The name the player connected with."},
    {"ack", "The last input of this client the server processed: the ack in every snapshot it sends it."},
    {"queue",
     "Inputs waiting in the client's input buffer / how many the server wants waiting after a tick "
     "(raised by a dry tick, lowered after 5 s that always kept one to spare)."},
    {"applied", "Inputs the server processed."},
    {"dup/lost",
     "Inputs that arrived again (each packet resends the unacknowledged ones) / that never came."},
    {"dry",
     "Ticks at which this client's cube was moving but none of its inputs had arrived: the cube stood "
     "still for a tick while the others moved."},
    {"snap/s",
     "The snapshot rate this client gets: the server's, or the one it asked for (at most the tick "
     "rate)."},
};
constexpr std::size_t kColumnCount = std::size(kColumns);
using ClientRow = std::array<std::string, kColumnCount>;

// One client's row of text, column by column.
ClientRow RowOf(const server::ClientInfo& info) {
  char text[kColumnCount][48];
  std::snprintf(text[0], sizeof text[0], "#%u", static_cast<unsigned>(info.id));
  std::snprintf(text[1], sizeof text[1], "%s", info.name.c_str());
  if (info.last_processed_seq) {
    std::snprintf(text[2], sizeof text[2], "#%u", static_cast<unsigned>(*info.last_processed_seq));
  } else {
    std::snprintf(text[2], sizeof text[2], "none");
  }
  std::snprintf(text[3], sizeof text[3], "%zu/%d", info.queued_inputs, info.input_target);
  std::snprintf(text[4], sizeof text[4], "%" PRIu64, info.inputs.processed);
  std::snprintf(text[5], sizeof text[5], "%" PRIu64 "/%" PRIu64, info.inputs.duplicate, info.inputs.lost);
  std::snprintf(text[6], sizeof text[6], "%" PRIu64, info.inputs.dry_ticks);
  std::snprintf(text[7], sizeof text[7], info.own_snapshot_rate ? "%d asked" : "%d", info.snapshot_rate);
  ClientRow row;
  for (std::size_t c = 0; c < kColumnCount; ++c) row[c] = text[c];
  return row;
}

ImVec4 ColourOf(sim::PlayerId id) { return ImGui::ColorConvertU32ToFloat4(ToImU32(PlayerColour(id))); }

// The clients (`infos`, a row each) as a wrapped line each, "header value" pairs.
void DrawClientLines(std::span<const server::ClientInfo> infos, const std::vector<ClientRow>& rows) {
  for (std::size_t r = 0; r < rows.size(); ++r) {
    ImGui::TextColored(ColourOf(infos[r].id), "%s", rows[r][0].c_str());
    ImGui::SameLine();
    std::string line = rows[r][1];
    for (std::size_t c = 2; c < kColumnCount; ++c)
      line += ", " + std::string(kColumns[c].header) + " " + rows[r][c];
    ImGui::TextUnformatted(line.c_str());
  }
}

// The clients (`infos`, a row each) as a table, its columns `widths` wide.
void DrawClientTable(std::span<const server::ClientInfo> infos, const std::vector<ClientRow>& rows,
                     const std::array<float, kColumnCount>& widths) {
  constexpr ImGuiTableFlags kTableFlags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("clients", static_cast<int>(kColumnCount), kTableFlags)) return;
  for (std::size_t c = 0; c < kColumnCount; ++c)
    ImGui::TableSetupColumn(kColumns[c].header, ImGuiTableColumnFlags_WidthFixed, widths[c]);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (std::size_t c = 0; c < kColumnCount; ++c) {
    ImGui::TableSetColumnIndex(static_cast<int>(c));
    ImGui::TableHeader(kColumns[c].header);
    Tooltip(kColumns[c].tooltip);
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    ImGui::TableNextColumn();
    ImGui::TextColored(ColourOf(infos[r].id), "%s", rows[r][0].c_str());
    for (std::size_t c = 1; c < kColumnCount; ++c) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(rows[r][c].c_str());
    }
  }
  ImGui::EndTable();
}

// The clients `infos`, a row each: as a table where its columns fit the panel whole, else (a comparison's
// narrow column) as a wrapped line each, so that no column is cut.
void DrawClients(std::span<const server::ClientInfo> infos) {
  std::vector<ClientRow> rows;
  std::array<float, kColumnCount> widths{};
  for (std::size_t c = 0; c < kColumnCount; ++c) widths[c] = ImGui::CalcTextSize(kColumns[c].header).x;
  for (const server::ClientInfo& info : infos) {
    const ClientRow& row = rows.emplace_back(RowOf(info));
    for (std::size_t c = 0; c < kColumnCount; ++c)
      widths[c] = std::max(widths[c], ImGui::CalcTextSize(row[c].c_str()).x);
  }
  const ImGuiStyle& style = ImGui::GetStyle();
  float natural = 2.0F;  // the outer borders
  for (const float width : widths) natural += width + 2.0F * style.CellPadding.x + 1.0F;
  if (natural > ImGui::GetContentRegionAvail().x) {
    DrawClientLines(infos, rows);
  } else {
    DrawClientTable(infos, rows, widths);
  }
}

// The tick and snapshot rates' sliders.
void DrawRateSliders(server::Server& server) {
  const server::ServerConfig& config = server.config();
  ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.55F);
  int tick_rate = config.tick_rate;
  if (ImGui::SliderInt("tick rate /s", &tick_rate, 1, kMaxLabTickRate)) {
    server.SetTickRate(tick_rate);
    // At most one snapshot a tick is sent: the slider below never shows more than that.
    if (config.snapshot_rate > tick_rate) server.SetSnapshotRate(tick_rate);
  }
  Tooltip("How many times per second the server applies inputs and steps the world.");
  int snapshot_rate = protocol::EffectiveSnapshotRate(config.snapshot_rate, config.tick_rate);
  if (ImGui::SliderInt("snapshot rate /s", &snapshot_rate, 1,
                       protocol::EffectiveSnapshotRate(kMaxLabSnapshotRate, config.tick_rate))) {
    server.SetSnapshotRate(snapshot_rate);
  }
  Tooltip("How many times per second the server sends every client the world (capped by the tick rate).");
  ImGui::PopItemWidth();
}

// Lag compensation's checkbox and, beside it when the slider and its label fit there, else below it, the
// longest rewind.
void DrawLagCompensation(server::Server& server) {
  const server::ServerConfig& config = server.config();
  bool lag_compensation = config.lag_compensation;
  if (ImGui::Checkbox("lag compensation", &lag_compensation)) server.SetLagCompensation(lag_compensation);
  Tooltip("Judge each tag against the world as its shooter drew it (rewound), not as it is now.");
  const float rewind_label = ImGui::CalcTextSize("max rewind ms").x + ImGui::GetStyle().ItemInnerSpacing.x;
  const float rewind_slider = ImGui::GetFontSize() * 6.0F;
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < rewind_label + rewind_slider) ImGui::NewLine();
  ImGui::PushItemWidth(std::max(rewind_slider, ImGui::GetContentRegionAvail().x - rewind_label));
  int max_rewind_ms = config.max_rewind_ms;
  if (ImGui::SliderInt("max rewind ms", &max_rewind_ms, 0, protocol::kMaxTagDelayMs)) {
    server.SetMaxRewindMs(max_rewind_ms);
  }
  Tooltip("Lag compensation rewinds at most this far, whatever a shooter claims.");
  ImGui::PopItemWidth();
}

// The snapshot encoding's and the input buffer's checkboxes.
void DrawDeltaAndInputBuffer(server::Server& server) {
  const server::ServerConfig& config = server.config();
  bool delta = config.snapshot_encoding == server::SnapshotEncoding::kDelta;
  if (ImGui::Checkbox("delta snapshots", &delta)) {
    server.SetSnapshotEncoding(delta ? server::SnapshotEncoding::kDelta : server::SnapshotEncoding::kFull);
  }
  Tooltip(
      "Send each client only what changed since the newest snapshot it acknowledged (a bit for a cube "
      "doing what its held keys make it do), instead of every cube in full. Watch the players' bandwidth.");
  ImGui::SameLine();
  bool input_buffer = config.input_buffer;
  if (ImGui::Checkbox("input buffer", &input_buffer)) server.SetInputBuffer(input_buffer);
  Tooltip(
      "Keep a few of each client's inputs waiting, so its cube moves one step every tick however unevenly "
      "its packets arrive (off: a tick applies whatever has arrived, and a late packet leaves a dry tick). "
      "Add jitter to a player's link and watch the dry ticks.");
}

// The server's counters since it started.
void DrawStats(const server::ServerStats& stats) {
  ImGui::Text("ticks %" PRIu64 " (skipped %" PRIu64 "), snapshots sent %" PRIu64 " (%" PRIu64 " deltas)",
              stats.ticks, stats.ticks_skipped, stats.snapshots_sent, stats.delta_snapshots_sent);
  ImGui::Text("snapshot bytes %" PRIu64 ", %.1f B a snapshot, %" PRIu64 " encodes", stats.snapshot_bytes_sent,
              stats.snapshots_sent > 0
                  ? static_cast<double>(stats.snapshot_bytes_sent) / static_cast<double>(stats.snapshots_sent)
                  : 0.0,
              stats.snapshot_encodes);
  ImGui::Text("inputs processed %" PRIu64 ", duplicate %" PRIu64 ", rate-limited %" PRIu64 ", lost %" PRIu64,
              stats.inputs.processed, stats.inputs.duplicate, stats.inputs.dropped_rate_limit,
              stats.inputs.lost);
  ImGui::Text("payload sent %" PRIu64 " B, received %" PRIu64 " B, malformed packets %" PRIu64,
              stats.payload_bytes_sent, stats.payload_bytes_received, stats.packets_malformed);
}

// The tags' counters and the recent tags, newest first, each said in a line.
void DrawTags(const server::Server& server, const server::ServerStats& stats) {
  ImGui::Text("Tags: %" PRIu64 " judged, %" PRIu64 " hits, %" PRIu64 " decided by the rewind, %" PRIu64
              " refused",
              stats.tags_judged, stats.tags_hit, stats.tags_decided_by_rewind, stats.tags_refused);
  const std::vector<server::TagRecord> tags = server.recent_tags();
  for (auto it = tags.rbegin(); it != tags.rend(); ++it) {
    const bool hit = it->outcome == protocol::TagOutcome::kHit;
    ImGui::TextColored(ColourOf(it->shooter), "#%u", static_cast<unsigned>(it->shooter));
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(hit ? kGoodText : kBadText)), "%s",
                       DescribeTag(*it).c_str());
  }
}

}  // namespace

void ServerView::Observe(Micros now, const server::Server& server, const CrowdFocus* crowd) {
  std::vector<CubeMark> cubes;
  for (const sim::PlayerCube& cube : server.world())
    cubes.push_back({cube.id, client::PositionOf(cube.state)});
  trails_.Record(now, cubes);
  if (crowd == nullptr) {
    crowd_.reset();
    has_relevant_ = false;
    return;
  }
  crowd_ = *crowd;
  has_relevant_ = crowd->player_1 && server.interest_of(*crowd->player_1, relevant_);
}

bool ServerView::Listed(sim::PlayerId id) const {
  return !crowd_ || std::find(crowd_->listed.begin(), crowd_->listed.end(), id) != crowd_->listed.end();
}

void ServerView::DrawArena(ImDrawList& draw, const ArenaMapping& mapping,
                           const server::Server& server) const {
  DrawArenaFloor(draw, mapping);
  if (show_trails_) trails_.Draw(draw, mapping);
  for (const sim::PlayerCube& cube : server.world()) {
    DrawCube(draw, mapping, client::PositionOf(cube.state), cube.id, CubeStyle::kSolid);
  }
  // Without interest management every cube is relevant: the set the server kept is not in use.
  if (has_relevant_ && server.config().interest)
    DrawRelevantSet(draw, mapping, server, *crowd_->player_1, relevant_);
  const auto units = [](double x, double y) {
    return client::Vec2{x / sim::kSubUnitsPerUnit, y / sim::kSubUnitsPerUnit};
  };
  // Labels keep off the cubes and off the tagged cubes as judged, drawn below.
  CubeLabels labels(draw, mapping);
  // Only the listed players' cubes: a crowd leaves a label no free place.
  for (const sim::PlayerCube& cube : server.world())
    if (Listed(cube.id)) labels.Avoid(client::PositionOf(cube.state));
  for (const server::TagRecord& tag : server.recent_tags()) {
    if (tag.has_subject && server.tick() - tag.tick <= kTagShownTicks) {
      labels.Avoid(units(tag.subject_then_x, tag.subject_then_y));
    }
  }
  char label[64];
  for (const server::ClientInfo& info : server.clients()) {
    if (!Listed(info.id)) continue;
    for (const sim::PlayerCube& cube : server.world()) {
      if (cube.id != info.id) continue;
      if (info.last_processed_seq) {
        std::snprintf(label, sizeof label, "#%u %s, input #%u", static_cast<unsigned>(info.id),
                      info.name.c_str(), static_cast<unsigned>(*info.last_processed_seq));
      } else {
        std::snprintf(label, sizeof label, "#%u %s", static_cast<unsigned>(info.id), info.name.c_str());
      }
      labels.Draw(client::PositionOf(cube.state), cube.id, label);
    }
  }
  for (const server::TagRecord& tag : server.recent_tags()) {
    const std::uint64_t age = server.tick() - tag.tick;
    if (age > kTagShownTicks) continue;
    const float fade = 1.0F - static_cast<float>(age) / static_cast<float>(kTagShownTicks);
    const bool hit = tag.outcome == protocol::TagOutcome::kHit;
    DrawRay(draw, mapping, units(tag.ray.x, tag.ray.y), tag.ray.aim,
            ToImU32(hit ? kRayHit : kRayMiss, static_cast<std::uint8_t>(80.0F + 175.0F * fade)));
    if (!tag.has_subject) continue;
    const client::Vec2 then = units(tag.subject_then_x, tag.subject_then_y);
    const client::Vec2 now = units(tag.subject_now_x, tag.subject_now_y);
    // The cube as judged (rewound), a line to where it is now, and how far back.
    DrawCube(draw, mapping, then, tag.subject, CubeStyle::kOutline);
    draw.AddLine(mapping.ToScreen(then), mapping.ToScreen(now), ToImU32(PlayerTint(tag.subject)), 1.0F);
    std::snprintf(label, sizeof label, "%s %.0f ms back", hit ? "hit" : "miss", tag.rewind_ms);
    labels.Draw(then, static_cast<sim::PlayerId>(tag.subject + 1), label);
    if (hit) DrawTagFlash(draw, mapping, now, fade);
  }
}

void ServerView::DrawPanel(server::Server& server) {
  const server::ServerConfig& config = server.config();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(kHeaderText)), "Server (the truth)");
  ImGui::SameLine();
  // No port number: it is ephemeral, and leaving it out keeps scripted screenshots identical run to run.
  const bool in_memory = transport::KindOf(config.network.get()) == transport::NetworkKind::kMemory;
  ImGui::Text("%s, tick %u", in_memory ? "in memory" : "on loopback", server.tick());

  DrawRateSliders(server);
  bool collisions = config.collisions;
  if (ImGui::Checkbox("collisions", &collisions)) server.SetCollisions(collisions);
  Tooltip("Players push each other apart: a push is something no client can predict.");
  ImGui::SameLine();
  ImGui::Checkbox("trails", &show_trails_);
  Tooltip("Short trails of where each cube was over the last 0.6 s.");
  DrawLagCompensation(server);
  DrawDeltaAndInputBuffer(server);
  if (crowd_) DrawInterestControls(server, *crowd_);

  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0F);  // a narrow panel wraps a line rather than cutting it
  std::vector<server::ClientInfo> listed = server.clients();
  const std::size_t clients = listed.size();
  std::erase_if(listed, [this](const server::ClientInfo& info) { return !Listed(info.id); });
  constexpr const char* kClientsHeader = "Clients (ack: the last input processed, sent in every snapshot)";
  if (crowd_) {
    ImGui::Text("%s, %zu wanderers not listed", kClientsHeader, clients - listed.size());
  } else {
    ImGui::TextUnformatted(kClientsHeader);
  }
  DrawClients(listed);
  const server::ServerStats stats = server.stats();
  ImGui::Separator();
  DrawStats(stats);
  ImGui::Separator();
  DrawTags(server, stats);
  ImGui::PopTextWrapPos();
}

}  // namespace netcube::gui
