#include "netcube/gui/journal_viewer.h"

#include <imgui.h>

#include <algorithm>
#include <limits>

#include "netcube/gui/backdrop.h"

namespace netcube::gui {

JournalViewer::JournalViewer(timeline::SavedJournal saved, std::string path)
    : saved_(std::move(saved)), heading_("journal " + path + " (read-only)") {
  view_.Enable(&saved_.journal, saved_.labels, /*whole_run=*/true);
  for (const timeline::Explanation& e : saved_.explanations) view_.Add(e);
  // The run's span: the first and last events the rings kept.
  start_ = Micros(std::numeric_limits<std::int64_t>::max());
  end_ = Micros(std::numeric_limits<std::int64_t>::min());
  std::uint64_t held = 0;
  std::uint64_t recorded = 0;
  for (std::size_t source = 0; source <= saved_.journal.clients(); ++source) {
    const timeline::EventRing& ring =
        source == 0 ? saved_.journal.server() : saved_.journal.client(source - 1);
    held += ring.size();
    recorded += source < saved_.totals.size() ? saved_.totals[source] : ring.size();
    if (ring.size() == 0) continue;
    start_ = std::min(start_, ring.at(0).at);
    end_ = std::max(end_, ring.at(ring.size() - 1).at);
  }
  for (const timeline::Explanation& e : saved_.explanations) end_ = std::max(end_, e.time);
  if (end_ < start_) start_ = end_ = Micros(0);
  cursor_ = end_;
  summary_ = std::to_string(saved_.labels.size()) + " players, " + std::to_string(held) + " events kept of " +
             std::to_string(recorded) + " recorded, " + std::to_string(saved_.explanations.size()) +
             " explanations" +
             (saved_.has_server ? "" : "; no server lane: the server ran in another process");
}

void JournalViewer::Draw(float width, float height) {
  ImGui::SetNextWindowPos({0.0F, 0.0F});
  ImGui::SetNextWindowSize({width, height});
  ImGui::Begin("##journal", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   kBackdropPanelFlags);
  ImGui::TextUnformatted(heading_.c_str());
  ImGui::TextWrapped("%s", saved_.title.c_str());
  ImGui::TextUnformatted(summary_.c_str());
  for (const std::string& line : saved_.script) ImGui::BulletText("%s", line.c_str());
  // The slider in seconds; the lanes show the 10 s up to it.
  float seconds = static_cast<float>(static_cast<double>(cursor_.count()) / 1e6);
  ImGui::SetNextItemWidth(-1.0F);
  if (ImGui::SliderFloat("##cursor", &seconds, static_cast<float>(static_cast<double>(start_.count()) / 1e6),
                         static_cast<float>(static_cast<double>(end_.count()) / 1e6),
                         "lanes end at %.2f s")) {
    cursor_ = std::clamp(Micros(static_cast<std::int64_t>(static_cast<double>(seconds) * 1e6)), start_, end_);
  }
  view_.DrawPanel(cursor_);
  // A click on a glitch (in the lanes or the list) or elsewhere in the lanes moves the lanes' end there, as
  // it moves a lab's run.
  if (const TimeControls controls = view_.TakeControls(); controls.seek_at)
    cursor_ = std::clamp(*controls.seek_at, start_, end_);
  ImGui::End();
}

}  // namespace netcube::gui
