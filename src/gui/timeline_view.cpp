#include "netcube/gui/timeline_view.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "netcube/gui/app.h"
#include "netcube/gui/frame_clock.h"
#include "panel_widgets.h"

namespace netcube::gui {
namespace {

constexpr float kLaneHeight = 12.0F;
constexpr float kMinLabelWidth = 70.0F;
constexpr float kClickReach = 6.0F;  // pixels either side of a mark a click still selects it
constexpr Rgb kLaneBackground{28, 31, 40};
constexpr Rgb kServerMark{150, 160, 190};
constexpr Rgb kLinkChangeMark{255, 220, 120};
constexpr Rgb kPausedText{255, 220, 120};
constexpr std::size_t kGlitchKinds = static_cast<std::size_t>(timeline::GlitchKind::kTagMissSeenHit) + 1;

std::int64_t FrameAt(Micros at) { return at.count() * kFramesPerSecond / 1'000'000; }

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

void TimelineView::Enable(const timeline::Journal* journal, std::vector<std::string> labels, bool whole_run) {
  journal_ = journal;
  whole_run_ = whole_run;
  labels_ = std::move(labels);
}

void TimelineView::TakeMarks() {
  seen_.resize(journal_->clients() + 1, 0);
  for (std::size_t lane = 0; lane < seen_.size(); ++lane) {
    const timeline::EventRing& ring = lane == 0 ? journal_->server() : journal_->client(lane - 1);
    const std::uint64_t fresh = std::min<std::uint64_t>(ring.total() - seen_[lane], ring.size());
    for (std::size_t i = ring.size() - static_cast<std::size_t>(fresh); i < ring.size(); ++i) {
      const timeline::Event& event = ring.at(i);
      // A scripted clock step is marked as the scripted link changes are.
      const bool link =
          event.kind == timeline::EventKind::kLinkChange || event.kind == timeline::EventKind::kClockStep;
      const bool server_side = lane == 0 && ((event.kind == timeline::EventKind::kContact && event.a == 1) ||
                                             event.kind == timeline::EventKind::kDryTicks ||
                                             event.kind == timeline::EventKind::kInputsLost);
      if (!link && !server_side) continue;
      AddMark({event.at, link ? 0 : lane, link});
      if (link && lane != 0) AddMark({event.at, lane, true});
    }
    seen_[lane] = ring.total();
  }
}

void TimelineView::AddMark(const Mark& mark) {
  if (!whole_run_ && marks_.size() == kTimelineMarks) marks_.pop_front();
  // In time order, so that a draw finds the window's first by search: a running lab's come at the end, a
  // saved journal's rings are taken one after the other.
  marks_.insert(std::upper_bound(marks_.begin(), marks_.end(), mark.at,
                                 [](Micros at, const Mark& other) { return at < other.at; }),
                mark);
}

void TimelineView::Add(const timeline::Explanation& explanation) {
  if (!whole_run_ && explanations_.size() == kTimelineExplanations) {
    explanations_.pop_front();
    if (!row_heights_.empty()) row_heights_.pop_front();
    ++dropped_;
  }
  if (!explanations_.empty() && explanation.time < explanations_.back().time) explanations_in_order_ = false;
  if (wanted_ && wanted_->time == explanation.time && wanted_->client == explanation.client) {
    selected_ = dropped_ + explanations_.size();
    wanted_.reset();
  }
  explanations_.push_back(explanation);
}

void TimelineView::DrawTimeControls(std::span<const transport::LinkProfile> profiles) {
  const TimePosition& at = *position_;
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureKeyboard && !io.WantTextInput) {
    if (ImGui::IsKeyPressed(App::ImGuiKeyIndex(Key::kP), false)) controls_.toggle_pause = true;
    const int step = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))  ? 1
                     : ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)) ? -1
                                                                                   : 0;
    if (at.paused && step != 0) {
      if (io.KeyShift) {
        controls_.step_ticks = step;
      } else {
        controls_.seek = at.frame + step;
      }
    }
  }
  if (ImGui::Button(at.paused ? "Resume (P)" : "Pause (P)")) controls_.toggle_pause = true;
  ImGui::SameLine();
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) controls_.seek = at.frame - 1;
  ImGui::SameLine();
  if (ImGui::ArrowButton("##forward", ImGuiDir_Right)) controls_.seek = at.frame + 1;
  ImGui::SameLine();
  // Seeking back runs the lab again from its start: the slider seeks when it is let go, not on every move.
  int value = dragged_frame_.value_or(static_cast<int>(at.frame));
  ImGui::SetNextItemWidth(-1.0F);
  char format[64];
  // Short: it must show whole between the buttons of a comparison's narrow column (without the seconds
  // where even that is too long).
  std::snprintf(format, sizeof format, "%%d of %lld, %.2f s", static_cast<long long>(at.edge),
                static_cast<double>(value) / kFramesPerSecond);
  char shown[64];
  std::snprintf(shown, sizeof shown, "%d of %lld, %.2f s", value, static_cast<long long>(at.edge),
                static_cast<double>(value) / kFramesPerSecond);
  if (ImGui::CalcTextSize(shown).x + 2.0F * ImGui::GetStyle().FramePadding.x >
      ImGui::GetContentRegionAvail().x)
    std::snprintf(format, sizeof format, "%%d of %lld", static_cast<long long>(at.edge));
  if (ImGui::SliderInt("##frame", &value, 0, static_cast<int>(std::max<std::int64_t>(0, at.edge - 1)),
                       format))
    dragged_frame_ = value;
  if (ImGui::IsItemDeactivated() && dragged_frame_) controls_.seek = *std::exchange(dragged_frame_, {});
  if (!at.fork.empty()) {
    ImGui::PushTextWrapPos(0.0F);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(kPausedText)), "Fork: %.*s",
                       static_cast<int>(at.fork.size()), at.fork.data());
    ImGui::PopTextWrapPos();
    SameLineIfFits(ButtonWidth("Leave the fork"));
    if (ImGui::SmallButton("Leave the fork")) controls_.leave_fork = true;
  } else if (at.paused && at.can_fork) {
    DrawForkChoice(profiles);
  }
}

void TimelineView::DrawForkChoice(std::span<const transport::LinkProfile> profiles) {
  ImGui::TextUnformatted("Replay from here with");
  // Two to a row, as wide as the panel allows: the menus show their choices whole.
  ItemRow first(2);
  first.Next();
  const auto preset_name = [](int i) {
    return i == 0 ? "same techniques"
                  : client::ToString(client::kAllPresets[static_cast<std::size_t>(i - 1)]);
  };
  if (ImGui::BeginCombo("##forkpreset", preset_name(fork_preset_))) {
    for (int i = 0; i <= static_cast<int>(std::size(client::kAllPresets)); ++i)
      if (ImGui::Selectable(preset_name(i), fork_preset_ == i)) fork_preset_ = i;
    ImGui::EndCombo();
  }
  first.Next();
  ImGui::DragInt("##forkdelay", &fork_delay_ms_, 1.0F, 0, client::kMaxInterpDelayMs,
                 fork_delay_ms_ == 0 ? "same delay" : "delay %d ms");
  first.End();
  // The link's menu beside the delay's would cut "adaptive snapshot rate" in a narrow panel: the rate's has
  // the row left of the button.
  ImGui::SetNextItemWidth(-1.0F);
  const auto profile_name = [&](int i) {
    return i == 0 ? "same link" : profiles[static_cast<std::size_t>(i - 1)].name.c_str();
  };
  if (fork_profile_ > static_cast<int>(profiles.size())) fork_profile_ = 0;
  if (ImGui::BeginCombo("##forklink", profile_name(fork_profile_))) {
    for (int i = 0; i <= static_cast<int>(profiles.size()); ++i)
      if (ImGui::Selectable(profile_name(i), fork_profile_ == i)) fork_profile_ = i;
    ImGui::EndCombo();
  }
  constexpr const char* kRates[] = {"same snapshot rate", "server's snapshot rate", "adaptive snapshot rate"};
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ButtonWidth("Fork") -
                          ImGui::GetStyle().ItemSpacing.x);
  ImGui::Combo("##forkrate", &fork_rate_, kRates, static_cast<int>(std::size(kRates)));
  ImGui::SameLine();
  const bool chosen = fork_preset_ != 0 || fork_delay_ms_ != 0 || fork_profile_ != 0 || fork_rate_ != 0;
  if (ImGui::Button("Fork") && chosen) {
    ForkChoice choice;
    if (fork_preset_ != 0) choice.preset = client::kAllPresets[static_cast<std::size_t>(fork_preset_ - 1)];
    if (fork_delay_ms_ != 0) choice.delay_ms = fork_delay_ms_;
    if (fork_profile_ != 0) choice.profile = static_cast<std::size_t>(fork_profile_ - 1);
    if (fork_rate_ != 0) choice.adaptive_snapshot_rate = fork_rate_ == 2;
    controls_.fork = choice;
  }
}

void TimelineView::DrawList() {
  // Each line wrapped to the list's width (their heights kept until the width changes), and only the rows
  // in view laid out: the list costs little per frame however long the run.
  ImGui::BeginChild("##explanations", {0.0F, std::max(40.0F, ImGui::GetContentRegionAvail().y)}, true);
  const float wrap = std::max(1.0F, ImGui::GetContentRegionAvail().x);
  if (wrap != wrap_width_ || row_heights_.size() != explanations_.size()) {
    wrap_width_ = wrap;
    row_heights_.clear();
    for (const timeline::Explanation& e : explanations_) row_heights_.push_back(RowHeight(e));
  }
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const float top = ImGui::GetScrollY();
  const float bottom = top + ImGui::GetWindowHeight();
  float y = ImGui::GetCursorPosY();
  for (std::size_t row = 0; row < explanations_.size(); ++row) {
    const std::size_t index = explanations_.size() - 1 - row;
    const float height = row_heights_[index];
    if (y + height < top || y > bottom) {
      y += height + spacing;
      continue;
    }
    ImGui::SetCursorPosY(y);
    const timeline::Explanation& e = explanations_[index];
    ImGui::PushID(static_cast<int>(index));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (ImGui::Selectable("##row", selected_ == dropped_ + index, 0, {0.0F, height})) {
      selected_ = dropped_ + index;
      controls_.seek = e.frame;
      controls_.seek_at = e.time;
    }
    ImGui::PopID();
    ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at,
                                        ToImU32(GlitchColour(e.kind)), e.line.c_str(), nullptr, wrap);
    y += height + spacing;
  }
  if (y > ImGui::GetCursorPosY()) {
    ImGui::SetCursorPosY(y - spacing);
    ImGui::Dummy({0.0F, 0.0F});
  }
  ImGui::EndChild();
}

float TimelineView::RowHeight(const timeline::Explanation& e) const {
  return ImGui::CalcTextSize(e.line.c_str(), nullptr, false, wrap_width_).y;
}

void TimelineView::Select(const GlitchAt& glitch) {
  for (std::size_t i = 0; i < explanations_.size(); ++i) {
    if (explanations_[i].time == glitch.time && explanations_[i].client == glitch.client) {
      selected_ = dropped_ + i;
      return;
    }
  }
  wanted_ = glitch;  // selected as it is added
}

std::optional<GlitchAt> TimelineView::selection() const {
  if (!selected_ || *selected_ < dropped_ || *selected_ - dropped_ >= explanations_.size())
    return std::nullopt;
  const timeline::Explanation& e = explanations_[static_cast<std::size_t>(*selected_ - dropped_)];
  return GlitchAt{e.time, e.client};
}

struct TimelineView::Lanes {
  ImVec2 origin;
  float width = 1.0F;        // the whole panel's
  float label_width = 0.0F;  // the labels' column, left of the lanes
  float lanes_width = 1.0F;
  std::size_t count = 1;  // the server's lane and one per label
  Micros from{0};         // the time at the lanes' left edge
  double pixels_per_us = 0.0;

  float height() const { return kLaneHeight * static_cast<float>(count); }
  float XOf(Micros at) const {
    return origin.x + label_width +
           static_cast<float>(static_cast<double>((at - from).count()) * pixels_per_us);
  }
  float Top(std::size_t lane) const { return origin.y + kLaneHeight * static_cast<float>(lane); }
};

void TimelineView::DrawMarks(ImDrawList& draw, const Lanes& lanes, Micros now) {
  // The server's lane: what the journal holds of its side; scripted link changes there and in their lanes.
  // Only the window's marks are looked at (the rest of the kept ones cost nothing a frame).
  TakeMarks();
  const Micros from = lanes.from;
  for (auto mark =
           std::partition_point(marks_.begin(), marks_.end(), [from](const Mark& m) { return m.at < from; });
       mark != marks_.end() && mark->at <= now; ++mark) {
    if (mark->lane >= lanes.count) continue;
    const float x = lanes.XOf(mark->at);
    draw.AddLine({x, lanes.Top(mark->lane) + 2.0F}, {x, lanes.Top(mark->lane) + kLaneHeight - 2.0F},
                 ToImU32(mark->link_change ? kLinkChangeMark : kServerMark));
  }
}

void TimelineView::DrawGlitches(ImDrawList& draw, const Lanes& lanes, Micros now) {
  // A run of a naive player has one every few frames, so they are one batch of rectangles
  // (ImDrawList::AddRectFilled reserves and checks each one by itself).
  const Micros from = lanes.from;
  const auto first_glitch =
      explanations_in_order_
          ? std::partition_point(explanations_.begin(), explanations_.end(),
                                 [from](const timeline::Explanation& e) { return e.time < from; })
          : explanations_.begin();
  std::array<ImU32, kGlitchKinds> colours{};  // by kind: ToImU32 once a frame, not once a mark
  for (std::size_t kind = 0; kind < colours.size(); ++kind)
    colours[kind] = ToImU32(GlitchColour(static_cast<timeline::GlitchKind>(kind)));
  const int candidates = static_cast<int>(explanations_.end() - first_glitch);
  draw.PrimReserve(6 * candidates, 4 * candidates);
  int drawn = 0;
  for (auto e = first_glitch; e != explanations_.end(); ++e) {
    if (e->time < from || e->time > now || e->client + 1 >= lanes.count) continue;
    const float x = lanes.XOf(e->time);
    const float top = lanes.Top(e->client + 1);
    draw.PrimRect({x - 1.0F, top + 2.0F}, {x + 1.0F, top + kLaneHeight - 2.0F},
                  colours[static_cast<std::size_t>(e->kind)]);
    ++drawn;
  }
  draw.PrimUnreserve(6 * (candidates - drawn), 4 * (candidates - drawn));
}

void TimelineView::ClickLanes(const Lanes& lanes, Micros now) {
  const ImVec2 mouse = ImGui::GetMousePos();
  const auto lane = static_cast<std::size_t>((mouse.y - lanes.origin.y) / kLaneHeight);
  float best = kClickReach;
  for (std::size_t i = 0; i < explanations_.size(); ++i) {
    const timeline::Explanation& e = explanations_[i];
    if (e.time < lanes.from || e.time > now || e.client + 1 != lane) continue;
    const float distance = std::abs(lanes.XOf(e.time) - mouse.x);
    if (distance <= best) {
      best = distance;
      selected_ = dropped_ + i;
      controls_.seek = e.frame;
      controls_.seek_at = e.time;
    }
  }
  // Elsewhere in the lanes, the frame under the mouse.
  if (!controls_.seek) {
    const double fraction =
        static_cast<double>((mouse.x - lanes.origin.x - lanes.label_width) / lanes.lanes_width);
    const Micros at = lanes.from + Micros(static_cast<std::int64_t>(fraction * kTimelineSpan.count()));
    controls_.seek = FrameAt(at);
    controls_.seek_at = at;
  }
}

void TimelineView::DrawSelected() {
  const bool shown = selected_ && *selected_ >= dropped_ && *selected_ - dropped_ < explanations_.size();
  if (!shown && explanations_.empty()) return;
  const timeline::Explanation& e =
      shown ? explanations_[static_cast<std::size_t>(*selected_ - dropped_)] : explanations_.back();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(ToImU32(GlitchColour(e.kind))));
  ImGui::TextWrapped("%s", e.line.c_str());
  ImGui::PopStyleColor();
}

void TimelineView::DrawPanel(Micros now, std::span<const transport::LinkProfile> profiles) {
  if (journal_ == nullptr) return;
  if (!ImGui::CollapsingHeader("Explained glitches", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (position_) DrawTimeControls(profiles);
  Lanes lanes;
  // The last kTimelineSpan, or the first while the run is younger: the frame shown is the cursor.
  lanes.from = std::max(Micros(0), now - kTimelineSpan);
  lanes.origin = ImGui::GetCursorScreenPos();
  lanes.width = std::max(1.0F, ImGui::GetContentRegionAvail().x);
  // The lanes start right of the longest label (a comparison's "fork-predicted").
  lanes.label_width = kMinLabelWidth;
  for (const std::string& label : labels_)
    lanes.label_width = std::max(lanes.label_width, ImGui::CalcTextSize(label.c_str()).x + 6.0F);
  lanes.lanes_width = std::max(1.0F, lanes.width - lanes.label_width);
  lanes.count = labels_.size() + 1;
  lanes.pixels_per_us = static_cast<double>(lanes.lanes_width) / static_cast<double>(kTimelineSpan.count());
  ImDrawList& draw = *ImGui::GetWindowDrawList();
  for (std::size_t lane = 0; lane < lanes.count; ++lane) {
    const float top = lanes.Top(lane);
    draw.AddRectFilled({lanes.origin.x + lanes.label_width, top + 1.0F},
                       {lanes.origin.x + lanes.width, top + kLaneHeight - 1.0F}, ToImU32(kLaneBackground));
    const std::string& label = lane == 0 ? std::string("server") : labels_[lane - 1];
    draw.AddText({lanes.origin.x, top - 1.0F}, ToImU32(kLabelText), label.c_str());
  }
  DrawMarks(draw, lanes, now);
  DrawGlitches(draw, lanes, now);
  draw.AddLine({lanes.XOf(now), lanes.origin.y}, {lanes.XOf(now), lanes.origin.y + lanes.height()},
               ToImU32(kPausedText));
  ImGui::InvisibleButton("##lanes", {lanes.width, lanes.height()});
  if (ImGui::IsItemClicked()) ClickLanes(lanes, now);
  DrawSelected();
  DrawList();
}

}  // namespace netcube::gui
