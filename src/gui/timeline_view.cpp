#include "netcube/gui/timeline_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace netcube::gui {
namespace {

constexpr float kLaneHeight = 12.0F;
constexpr float kLabelWidth = 70.0F;
constexpr float kClickReach = 6.0F;  // pixels either side of a mark a click still selects it
constexpr Rgb kLaneBackground{28, 31, 40};
constexpr Rgb kServerMark{150, 160, 190};
constexpr Rgb kLinkChangeMark{255, 220, 120};

}  // namespace

Rgb GlitchColour(timeline::GlitchKind kind) noexcept {
  switch (kind) {
    case timeline::GlitchKind::kCorrection:
      return {255, 110, 100};
    case timeline::GlitchKind::kRemoteFrozen:
      return {120, 170, 255};
    case timeline::GlitchKind::kRemoteJump:
      return {190, 130, 255};
    case timeline::GlitchKind::kUnderrun:
      return {90, 220, 220};
    case timeline::GlitchKind::kSlowPress:
      return {255, 180, 80};
    case timeline::GlitchKind::kTagMissSeenHit:
      return {120, 220, 120};
  }
  return kLabelText;
}

void TimelineView::Enable(const timeline::Journal* journal, std::vector<std::string> labels) {
  journal_ = journal;
  labels_ = std::move(labels);
}

void TimelineView::TakeMarks() {
  seen_.resize(journal_->clients() + 1, 0);
  for (std::size_t lane = 0; lane < seen_.size(); ++lane) {
    const timeline::EventRing& ring = lane == 0 ? journal_->server() : journal_->client(lane - 1);
    const std::uint64_t fresh = std::min<std::uint64_t>(ring.total() - seen_[lane], ring.size());
    for (std::size_t i = ring.size() - static_cast<std::size_t>(fresh); i < ring.size(); ++i) {
      const timeline::Event& event = ring.at(i);
      const bool link = event.kind == timeline::EventKind::kLinkChange;
      const bool server_side = lane == 0 && ((event.kind == timeline::EventKind::kContact && event.a == 1) ||
                                             event.kind == timeline::EventKind::kDryTicks ||
                                             event.kind == timeline::EventKind::kInputsLost);
      if (!link && !server_side) continue;
      if (marks_.size() == kTimelineMarks) marks_.pop_front();
      marks_.push_back({event.at, link ? 0 : lane, link});
      if (link && lane != 0) marks_.push_back({event.at, lane, true});
    }
    seen_[lane] = ring.total();
  }
}

void TimelineView::Add(const timeline::Explanation& explanation) {
  if (explanations_.size() == kTimelineExplanations) {
    explanations_.pop_front();
    ++dropped_;
  }
  explanations_.push_back(explanation);
}

void TimelineView::DrawPanel(Micros now) {
  if (journal_ == nullptr) return;
  if (!ImGui::CollapsingHeader("Explained glitches", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const Micros from = now - kTimelineSpan;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(1.0F, ImGui::GetContentRegionAvail().x);
  const float lanes_width = std::max(1.0F, width - kLabelWidth);
  const std::size_t lanes = labels_.size() + 1;
  const float height = kLaneHeight * static_cast<float>(lanes);
  ImDrawList& draw = *ImGui::GetWindowDrawList();
  const auto x_of = [&](Micros at) {
    return origin.x + kLabelWidth +
           lanes_width * static_cast<float>(static_cast<double>((at - from).count()) / kTimelineSpan.count());
  };
  const auto lane_top = [&](std::size_t lane) { return origin.y + kLaneHeight * static_cast<float>(lane); };
  for (std::size_t lane = 0; lane < lanes; ++lane) {
    const float top = lane_top(lane);
    draw.AddRectFilled({origin.x + kLabelWidth, top + 1.0F}, {origin.x + width, top + kLaneHeight - 1.0F},
                       ToImU32(kLaneBackground));
    const std::string& label = lane == 0 ? std::string("server") : labels_[lane - 1];
    draw.AddText({origin.x, top - 1.0F}, ToImU32(kLabelText), label.c_str());
  }
  // The server's lane: what the journal holds of its side; scripted link changes there and in their lanes.
  TakeMarks();
  for (const Mark& mark : marks_) {
    if (mark.at < from || mark.lane >= lanes) continue;
    const float x = x_of(mark.at);
    draw.AddLine({x, lane_top(mark.lane) + 2.0F}, {x, lane_top(mark.lane) + kLaneHeight - 2.0F},
                 ToImU32(mark.link_change ? kLinkChangeMark : kServerMark));
  }
  for (const timeline::Explanation& e : explanations_) {
    if (e.time < from || e.client + 1 >= lanes) continue;
    const float x = x_of(e.time);
    const float top = lane_top(e.client + 1);
    draw.AddRectFilled({x - 1.0F, top + 2.0F}, {x + 1.0F, top + kLaneHeight - 2.0F},
                       ToImU32(GlitchColour(e.kind)));
  }
  ImGui::InvisibleButton("##lanes", {width, height});
  if (ImGui::IsItemClicked()) {
    const ImVec2 mouse = ImGui::GetMousePos();
    const auto lane = static_cast<std::size_t>((mouse.y - origin.y) / kLaneHeight);
    float best = kClickReach;
    for (std::size_t i = 0; i < explanations_.size(); ++i) {
      const timeline::Explanation& e = explanations_[i];
      if (e.time < from || e.client + 1 != lane) continue;
      const float distance = std::abs(x_of(e.time) - mouse.x);
      if (distance <= best) {
        best = distance;
        selected_ = dropped_ + i;
      }
    }
  }
  // The glitch clicked, else the newest, in full.
  const bool shown = selected_ && *selected_ >= dropped_ && *selected_ - dropped_ < explanations_.size();
  if (shown || !explanations_.empty()) {
    const timeline::Explanation& e = shown ? explanations_[*selected_ - dropped_] : explanations_.back();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(ToImU32(GlitchColour(e.kind))));
    ImGui::TextWrapped("%s", e.line.c_str());
    ImGui::PopStyleColor();
  }
  // One line each (a click shows one whole), and only the visible ones laid out: the list costs the same
  // per frame however long the run.
  ImGui::BeginChild("##explanations", {0.0F, std::max(40.0F, ImGui::GetContentRegionAvail().y)}, true,
                    ImGuiWindowFlags_HorizontalScrollbar);
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(explanations_.size()));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const std::size_t index = explanations_.size() - 1 - static_cast<std::size_t>(row);
      const timeline::Explanation& e = explanations_[index];
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(ToImU32(GlitchColour(e.kind))));
      if (ImGui::Selectable(e.line.c_str(), selected_ == dropped_ + index)) selected_ = dropped_ + index;
      ImGui::PopStyleColor();
    }
  }
  ImGui::EndChild();
}

}  // namespace netcube::gui
