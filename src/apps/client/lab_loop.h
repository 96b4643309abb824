#pragma once
// The lab's per-frame work, driven once a shown frame by the desktop's frame loop (runner.cpp) and by the
// browser's main loop alike: the time machine's controls (pause, seek, fork), the lab frames due, the
// outputs, the notice beside the server's title, the drawing. It reads no clock and never waits: the loop
// that drives it says when a frame is shown, and the lab's own time is the virtual clock of its frames.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lab_branch.h"
#include "lab_outputs.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/keys.h"
#include "netcube/transport/link_profile.h"
#include "runner.h"

namespace netcube::apps {

class LabLoop {
 public:
  // nullptr with `error` set when the lab cannot start; `exit_code` then says whether the options were
  // bad (2) or the start failed (1). `options` must outlive the loop.
  static std::unique_ptr<LabLoop> Create(LabRunOptions& options, std::vector<transport::LinkProfile> profiles,
                                         std::string* error, int* exit_code);

  // A shown frame on the virtual clock: the controls, then exactly one lab frame (unless paused).
  void UpdateOneFrame();
  // A shown frame at real time `real_now`: the controls, then the lab frames that came due (RealTimePacer),
  // so game time keeps to the clock whatever the frame rate.
  void Update(Micros real_now);
  // The lab into the current ImGui frame, laid out for `display_size`; then what the panels did goes on
  // the tape (or is put back while paused).
  void Draw(ImVec2 display_size);

  // Pauses and shows frame `target` of the shown branch; the frames run, or nullopt with `error` set.
  std::optional<std::int64_t> PauseAndSeek(std::int64_t target, std::string* error);

  LabBranch& original() noexcept { return *original_; }
  LabBranch& shown() noexcept { return *shown_; }
  gui::Lab& lab() noexcept { return shown_->shown().lab(); }
  LabOutputs& outputs() noexcept { return outputs_; }
  bool paused() const noexcept { return paused_; }
  bool ok() const noexcept { return ok_; }
  // Game time over real time in the last second of a paced run (1 when it keeps up).
  double speed() const noexcept { return pacer_.speed(); }
  // The notice the next Draw shows beside the server's title (empty: none).
  std::string Notice() const;

 private:
  LabLoop(LabRunOptions& options, std::vector<transport::LinkProfile> profiles);
  // The time machine's controls from the frame drawn last: pause, leave or make a fork, seek.
  void TakeControls();
  void RunFrames(int frames);
  void LiveHands(std::vector<std::uint8_t>& held);

  LabRunOptions& options_;
  std::vector<transport::LinkProfile> profiles_;
  LabOutputs outputs_;
  std::unique_ptr<LabBranch> original_;
  std::unique_ptr<LabBranch> fork_;  // a fork made from the controls, shown instead of the original
  LabBranch* shown_ = nullptr;
  std::string fork_text_;   // what the fork changed, from when
  std::string fork_error_;  // why the controls' fork could not be made, until the run resumes
  // With --compare every player gets the same buttons (the first keys); otherwise each its own.
  std::vector<gui::PlayerKeys> keys_;
  gui::RealTimePacer pacer_;
  bool paced_ = false;
  bool paused_ = false;
  bool ok_ = true;
  std::int64_t written_ = 0;  // the original's frames given to the outputs
};

}  // namespace netcube::apps
