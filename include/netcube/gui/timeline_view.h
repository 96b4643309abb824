#pragma once
// The lab's timeline of explained glitches (when the run is journaled): a lane for the server (its dry
// ticks, contacts and scripted link changes, from the journal) and one per player (its glitches, coloured
// by kind) over the last seconds, and below it the explanations, newest first. The newest is shown whole
// above the list until a click on a mark in a lane (or a line of the list) selects another.
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "netcube/gui/theme.h"
#include "netcube/sim/time.h"
#include "netcube/timeline/explainer.h"
#include "netcube/timeline/journal.h"

namespace netcube::gui {

// Explanations kept for the view, at most (older ones leave it; --explain has them all).
inline constexpr std::size_t kTimelineExplanations = 256;
// The lanes show this much of the past.
inline constexpr Micros kTimelineSpan{10'000'000};
inline constexpr std::size_t kTimelineMarks = 1024;

// A mark's colour, by glitch kind (the lanes' legend).
Rgb GlitchColour(timeline::GlitchKind kind) noexcept;

class TimelineView {
 public:
  // The run is journaled: the view shows (in the server's panel) from now on.
  void Enable(const timeline::Journal* journal, std::vector<std::string> labels);
  bool enabled() const noexcept { return journal_ != nullptr; }
  void Add(const timeline::Explanation& explanation);

  // Into the current ImGui window: the lanes, then the selected explanation and the list.
  void DrawPanel(Micros now);

  const std::deque<timeline::Explanation>& explanations() const noexcept { return explanations_; }

 private:
  // The journal's events shown as marks (link changes; the server's dry ticks, lost inputs, contacts), taken
  // from each ring's new events once a frame, the newest kTimelineMarks kept.
  struct Mark {
    Micros at{0};
    std::size_t lane = 0;
    bool link_change = false;
  };
  void TakeMarks();

  const timeline::Journal* journal_ = nullptr;
  std::vector<std::uint64_t> seen_;  // per ring (the server's first), events already looked at
  std::deque<Mark> marks_;
  std::vector<std::string> labels_;
  std::deque<timeline::Explanation> explanations_;
  std::uint64_t dropped_ = 0;  // explanations that left the view: the first kept is number dropped_
  std::optional<std::uint64_t> selected_;  // the selected explanation's number, counted from the run's first
};

}  // namespace netcube::gui
