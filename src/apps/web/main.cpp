// The lab in a browser (scripts/web.sh builds it into build/web/): the desktop lab's defaults, a server and
// two players in one process over the in-memory network, driven once per animation frame by the browser
// (emscripten_set_main_loop) instead of a loop that sleeps. Game time follows the page's clock (LabLoop).
#include <emscripten/emscripten.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lab_loop.h"
#include "link_profiles.h"
#include "netcube/gui/app.h"
#include "probe.h"
#include "runner.h"

namespace netcube::apps {
namespace {

// Where --embed-file puts the assets directory in the page's virtual file system.
constexpr const char* kProfilesPath = "/assets/link_profiles.json";

struct WebLab {
  LabRunOptions options;
  std::unique_ptr<gui::App> app;
  std::unique_ptr<LabLoop> loop;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  bool first_frame = true;
};

// The page hides its loading line and takes the keyboard once something is drawn.
EM_JS(void, NetcubeFirstFrameShown, (), {
  if (Module.onFirstFrame) Module.onFirstFrame();
});
// A failure the page shows in place of the canvas (the console keeps the details).
EM_JS(void, NetcubeFail, (const char* what), {
  if (Module.onFail) Module.onFail(UTF8ToString(what));
});

void Frame(void* context) {
  WebLab& web = *static_cast<WebLab*>(context);
  web.app->PollEvents();  // the page cannot be closed from inside: nothing to stop
  web.loop->Update(std::chrono::duration_cast<Micros>(std::chrono::steady_clock::now() - web.start));
  web::ProbeFrame(web.loop->lab(), emscripten_get_now());  // the browser tests' view (tests/web)
  web.app->BeginFrame();
  web.loop->Draw(web.app->display_size());
  web.app->Render();
  web.app->Present();
  if (web.first_frame) {
    web.first_frame = false;
    NetcubeFirstFrameShown();
  }
}

int Run() {
  auto* web = new WebLab();  // lives as long as the page: the main loop never returns
  web->options.run.app.title = "netcube lab";
  std::string error;
  web->app = gui::App::Create(web->options.run.app, &error);
  if (web->app == nullptr) {
    NetcubeFail(("cannot open the lab's window: " + error).c_str());
    return 1;
  }
  std::vector<transport::LinkProfile> profiles = LoadLinkProfiles(kProfilesPath, &error);
  if (profiles.empty()) std::fprintf(stderr, "netcube-web: no link profile buttons: %s\n", error.c_str());
  int exit_code = 0;
  web->loop = LabLoop::Create(web->options, std::move(profiles), &error, &exit_code);
  if (web->loop == nullptr) {
    NetcubeFail(("cannot start the lab: " + error).c_str());
    return exit_code;
  }
  // 0 frames a second: the browser's animation frames pace the loop (the display's rate, vsync alike).
  emscripten_set_main_loop_arg(Frame, web, 0, true);
  return 0;
}

}  // namespace
}  // namespace netcube::apps

int main() { return netcube::apps::Run(); }
