#pragma once
// The lab's timeline of explained glitches (when the run is journaled): a lane for the server (its dry
// ticks, contacts and scripted link changes, from the journal) and one per player (its glitches, coloured
// by kind) over the last seconds, and below it the explanations, newest first. The newest is shown whole
// above the list until a click on a mark in a lane (or a line of the list) selects another. Above the lanes,
// the time controls: pause, a frame slider to scrub, steps, and a fork of a comparison from the frame shown.
#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "netcube/client/settings.h"
#include "netcube/gui/theme.h"
#include "netcube/sim/time.h"
#include "netcube/timeline/explainer.h"
#include "netcube/timeline/journal.h"
#include "netcube/transport/link_profile.h"

namespace netcube::gui {

// Explanations kept for a running lab's view, at most (older ones leave it; --explain has them all).
inline constexpr std::size_t kTimelineExplanations = 256;
// The lanes show this much of the past.
inline constexpr Micros kTimelineSpan{10'000'000};
inline constexpr std::size_t kTimelineMarks = 1024;

// A mark's colour, by glitch kind (the lanes' legend).
Rgb GlitchColour(timeline::GlitchKind kind) noexcept;

// Where the run shown stands, for the time controls (the runner sets it before each draw).
struct TimePosition {
  std::int64_t frame = 0;  // the frame shown
  std::int64_t edge = 0;   // the frames the run has been through (the newest is edge - 1)
  bool paused = false;
  bool can_fork = false;  // the run is a comparison, not already a fork
  std::string_view fork;  // what the fork shown changed, and from when; empty for the original run
};

// "Replay from here with": what the fork changes (nothing chosen keeps the original's).
struct ForkChoice {
  std::optional<client::Preset> preset;
  std::optional<int> delay_ms;                 // a fixed view delay
  std::optional<bool> adaptive_snapshot_rate;  // on: the client's adaptive rate; off: the server's rate
  std::optional<std::size_t> profile;          // into the profiles the panel was drawn with
};

// What the controls asked for in a frame: keys (P pauses and resumes; while paused, Left and Right step a
// frame, with Shift a server tick), the slider (a frame, when released), a click on a mark or a line (its
// frame), the fork's button.
struct TimeControls {
  bool toggle_pause = false;
  std::optional<std::int64_t> seek;  // show this frame (and pause)
  std::optional<Micros> seek_at;     // with a click's seek: the moment clicked (a glitch's own time)
  int step_ticks = 0;                // +1 or -1
  std::optional<ForkChoice> fork;
  bool leave_fork = false;
};

// An explanation, by what outlives a run's replay from its start: when, and whose.
struct GlitchAt {
  Micros time{0};
  std::size_t client = 0;
};

class TimelineView {
 public:
  // The run is journaled: the view shows (in the server's panel) from now on. A running lab keeps the newest
  // kTimelineExplanations explanations and kTimelineMarks marks; a saved journal (`whole_run`), which no
  // longer grows, keeps all it holds.
  void Enable(const timeline::Journal* journal, std::vector<std::string> labels, bool whole_run = false);
  bool enabled() const noexcept { return journal_ != nullptr; }
  void Add(const timeline::Explanation& explanation);

  // The time controls show once the run has said where it stands (a view of a saved journal has none).
  void SetPosition(TimePosition position) { position_ = position; }
  // The controls used since the last call.
  TimeControls TakeControls() { return std::exchange(controls_, {}); }

  // Into the current ImGui window: the time controls, the lanes, then the selected explanation and the list.
  void DrawPanel(Micros now, std::span<const transport::LinkProfile> profiles = {});

  const std::deque<timeline::Explanation>& explanations() const noexcept { return explanations_; }

  // The explanation selected (a click), if any; Select selects the one at `glitch`, now or as it is added
  // (a lab run again from its start to a frame keeps the selection its first run had).
  std::optional<GlitchAt> selection() const;
  void Select(const GlitchAt& glitch);

 private:
  // The journal's events shown as marks (link changes; the server's dry ticks, lost inputs, contacts), taken
  // from each ring's new events once a frame, the newest kTimelineMarks kept.
  struct Mark {
    Micros at{0};
    std::size_t lane = 0;
    bool link_change = false;
  };
  void TakeMarks();
  void AddMark(const Mark& mark);
  void DrawTimeControls(std::span<const transport::LinkProfile> profiles);
  void DrawForkChoice(std::span<const transport::LinkProfile> profiles);
  // Where the lanes are on screen and which time they show (timeline_view.cpp).
  struct Lanes;
  void DrawMarks(ImDrawList& draw, const Lanes& lanes, Micros now);
  void DrawGlitches(ImDrawList& draw, const Lanes& lanes, Micros now);
  // A click in the lanes: the glitch nearest it, else the frame under it, selected and sought.
  void ClickLanes(const Lanes& lanes, Micros now);
  // The glitch clicked, else the newest, in full.
  void DrawSelected();
  void DrawList();
  float RowHeight(const timeline::Explanation& e) const;

  const timeline::Journal* journal_ = nullptr;
  bool whole_run_ = false;
  std::vector<std::uint64_t> seen_;  // per ring (the server's first), events already looked at
  std::deque<Mark> marks_;
  std::vector<std::string> labels_;
  std::deque<timeline::Explanation> explanations_;
  bool explanations_in_order_ = true;  // each no older than the one before (a draw then searches its window)
  std::uint64_t dropped_ = 0;          // explanations that left the view: the first kept is number dropped_
  std::optional<std::uint64_t> selected_;  // the selected explanation's number, counted from the run's first
  std::optional<GlitchAt> wanted_;         // to select once it is added
  float wrap_width_ = 0.0F;                // the list's width its rows' heights are for
  std::deque<float> row_heights_;          // each explanation's, wrapped
  std::optional<TimePosition> position_;
  TimeControls controls_;
  std::optional<int> dragged_frame_;  // the slider's value while it is dragged (the seek waits for release)
  int fork_preset_ = 0;               // 0: the original's techniques, else kAllPresets[i - 1]
  int fork_delay_ms_ = 0;             // 0: the original's view delay
  int fork_profile_ = 0;              // 0: the original's link, else profiles[i - 1]
  int fork_rate_ = 0;                 // 0: the original's snapshot rate, 1: the server's, 2: adaptive
};

}  // namespace netcube::gui
