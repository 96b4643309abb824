#include "open_journal.h"

#include <chrono>
#include <iostream>
#include <thread>

#include "files.h"
#include "netcube/gui/image.h"
#include "netcube/gui/journal_viewer.h"
#include "netcube/timeline/journal_file.h"

namespace netcube::apps {

int OpenJournal(RunOptions run, const std::string& path) {
  std::string bytes;
  std::string error;
  std::optional<timeline::SavedJournal> saved;
  if (ReadFile(path, &bytes, &error)) saved = timeline::DecodeJournalFile(bytes, &error);
  if (!saved) {
    std::cerr << "netcube-client: --open-journal " << path << ": " << error << '\n';
    return 2;
  }
  if (const std::string reason = NoWindowReason(run); !reason.empty()) {
    std::cerr << "netcube-client: " << reason << '\n';
    return 1;
  }
  run.app.title = "netcube journal: " + path;
  if (NeedsHeadless(run)) run.app.headless = true;
  std::unique_ptr<gui::App> app = gui::App::Create(run.app, &error);
  if (app == nullptr) {
    std::cerr << "netcube-client: " << error << '\n';
    return 1;
  }
  gui::JournalViewer viewer(std::move(*saved), path);
  for (int frame = 0; run.frames == 0 || frame < run.frames; ++frame) {
    if (!app->PollEvents()) break;
    app->BeginFrame();
    const ImVec2 size = app->display_size();
    viewer.Draw(size.x, size.y);
    app->Render();
    if (!run.screenshot.empty() && frame + 1 == run.frames) {
      const gui::Image image = app->Capture();
      const std::string png = gui::EncodePng(image, &error);
      if (png.empty() || !WriteFile(run.screenshot, png, &error)) {
        std::cerr << "netcube-client: " << error << '\n';
        return 1;
      }
      std::cout << "netcube-client: wrote " << run.screenshot << " (" << image.width << "x" << image.height
                << ", the journal " << path << ")\n";
    }
    app->Present();
    // Nothing moves by itself: without vsync, a frame every 1/60 s is enough for the mouse.
    if (run.screenshot.empty() && !app->has_vsync())
      std::this_thread::sleep_for(std::chrono::milliseconds(16));
  }
  return 0;
}

}  // namespace netcube::apps
