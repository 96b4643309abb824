#pragma once
// A saved journal opened read-only (netcube-client --open-journal): what ran, the lanes of the lab's
// timeline (TimelineView) for the server and each player, and every explanation it saved. A slider, or a
// click on a glitch or in the lanes, moves the lanes' 10 s window over the run, from its first event to its
// last; nothing runs again.
#include <string>

#include "netcube/gui/timeline_view.h"
#include "netcube/sim/time.h"
#include "netcube/timeline/journal_file.h"

namespace netcube::gui {

class JournalViewer {
 public:
  // `path`: the file, named in the heading.
  JournalViewer(timeline::SavedJournal saved, std::string path);
  JournalViewer(const JournalViewer&) = delete;
  JournalViewer& operator=(const JournalViewer&) = delete;

  // Over the whole display.
  void Draw(float width, float height);

  Micros start() const noexcept { return start_; }
  Micros end() const noexcept { return end_; }
  Micros cursor() const noexcept { return cursor_; }
  const TimelineView& timeline() const noexcept { return view_; }

 private:
  timeline::SavedJournal saved_;
  std::string heading_;  // names the file
  TimelineView view_;
  std::string summary_;
  Micros start_{0};
  Micros end_{0};
  Micros cursor_{0};  // the lanes' window ends here
};

}  // namespace netcube::gui
