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
  // The server's lane: what the journal holds of its side, and the scripted link changes.
  journal_->server().VisitBackward(from, now, [&](const timeline::Event& event) {
    const bool link = event.kind == timeline::EventKind::kLinkChange;
    if (link || event.kind == timeline::EventKind::kContact || event.kind == timeline::EventKind::kDryTicks ||
        event.kind == timeline::EventKind::kInputsLost) {
      const float x = x_of(event.at);
      draw.AddLine({x, lane_top(0) + 2.0F}, {x, lane_top(0) + kLaneHeight - 2.0F},
                   ToImU32(link ? kLinkChangeMark : kServerMark));
    }
    return true;
  });
  for (std::size_t i = 0; i < journal_->clients(); ++i) {
    journal_->client(i).VisitBackward(from, now, [&](const timeline::Event& event) {
      if (event.kind != timeline::EventKind::kLinkChange) return true;
      const float x = x_of(event.at);
      draw.AddLine({x, lane_top(i + 1) + 1.0F}, {x, lane_top(i + 1) + kLaneHeight - 1.0F},
                   ToImU32(kLinkChangeMark));
      return true;
    });
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
  if (selected_ && *selected_ >= dropped_ && *selected_ - dropped_ < explanations_.size()) {
    const timeline::Explanation& e = explanations_[*selected_ - dropped_];
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(ToImU32(GlitchColour(e.kind))));
    ImGui::TextWrapped("%s", e.line.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::BeginChild("##explanations", {0.0F, std::max(40.0F, ImGui::GetContentRegionAvail().y)}, true);
  for (auto it = explanations_.rbegin(); it != explanations_.rend(); ++it) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(ToImU32(GlitchColour(it->kind))));
    ImGui::TextWrapped("%s", it->line.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::EndChild();
}

}  // namespace netcube::gui
