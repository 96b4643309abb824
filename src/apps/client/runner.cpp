#include "runner.h"

#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string_view>
#include <thread>

#include "files.h"
#include "link_profiles.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/keys.h"

namespace netcube::apps {
namespace {

using gui::App;
using gui::ClientLayout;
using gui::ClientScreen;
using gui::Image;
using gui::KeyBinding;
using gui::kFramesPerSecond;
using gui::Lab;
using gui::LabLayout;
using gui::PlayerKeys;
using gui::VirtualFrameTime;

using Clock = std::chrono::steady_clock;
constexpr Micros kFramePeriod{1'000'000 / kFramesPerSecond};
// After the window closes, the connected client keeps running this long past its added latency, so the
// server sees a goodbye instead of a timeout.
constexpr Micros kGoodbyeTime{300'000};

class SteadyClock {
 public:
  Micros Now() const { return std::chrono::duration_cast<Micros>(Clock::now() - start_); }

 private:
  Clock::time_point start_ = Clock::now();
};

std::vector<transport::LinkProfile> LoadProfiles() {
  std::string error;
  std::vector<transport::LinkProfile> profiles = LoadLinkProfiles(LinkProfilesPath(), &error);
  if (profiles.empty()) std::cerr << "netcube-client: no link profile buttons: " << error << '\n';
  return profiles;
}

std::unique_ptr<App> OpenApp(RunOptions& run, const std::string& title) {
  run.app.title = title;
  if (NeedsHeadless(run)) run.app.headless = true;
  if (!run.screenshot.empty()) run.app.vsync = false;  // a screenshot run renders as fast as it can
  std::string error;
  std::unique_ptr<App> app = App::Create(run.app, &error);
  if (app == nullptr) std::cerr << "netcube-client: " << error << '\n';
  return app;
}

// The frame loop: events, update(now), UI via draw(now), render, the screenshot on the last frame,
// present. With `virtual_clock` frame i is at VirtualFrameTime(i) and only the last frame is drawn;
// otherwise frames follow the steady clock, paced to kFramesPerSecond when vsync does not pace them.
// False if the screenshot could not be written.
bool RunFrames(App& app, const RunOptions& run, bool virtual_clock, const std::function<void(Micros)>& update,
               const std::function<void(Micros)>& draw, const SteadyClock& clock) {
  for (int frame = 0; run.frames == 0 || frame < run.frames; ++frame) {
    if (!app.PollEvents()) break;
    const Micros now = virtual_clock ? VirtualFrameTime(frame) : clock.Now();
    update(now);
    app.BeginFrame();
    draw(now);
    const bool last_frame = frame + 1 == run.frames;
    if (virtual_clock && !last_frame) {
      app.DiscardFrame();  // nobody watches a virtual-clock run: only its last frame is drawn
      continue;
    }
    app.Render();
    if (!run.screenshot.empty() && last_frame) {
      std::string error;
      const Image image = app.Capture();
      const std::string png = gui::EncodePng(image, &error);
      if (png.empty() || !WriteFile(run.screenshot, png, &error)) {
        std::cerr << "netcube-client: " << error << '\n';
        return false;
      }
      std::cout << "netcube-client: wrote " << run.screenshot << " (" << image.width << "x" << image.height
                << ", " << frame + 1 << " frames)\n";
    }
    app.Present();
    if (!virtual_clock && (!app.has_vsync() || app.minimised())) {
      const Micros left = now + kFramePeriod - clock.Now();
      if (left > Micros(0)) std::this_thread::sleep_for(left);
    }
  }
  return true;
}

}  // namespace

bool NeedsHeadless(const RunOptions& run) noexcept {
  const auto set = [](const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0';
  };
  const char* driver = std::getenv("SDL_VIDEODRIVER");
  if (driver != nullptr && std::string_view(driver) == "offscreen") return true;
  return !run.screenshot.empty() && !set("DISPLAY") && !set("WAYLAND_DISPLAY") && !set("SDL_VIDEODRIVER");
}

int RunClient(ClientRunOptions options) {
  std::unique_ptr<App> app = OpenApp(options.run, "netcube-client");
  if (app == nullptr) return 1;
  const std::vector<transport::LinkProfile> profiles = LoadProfiles();
  const SteadyClock clock;
  ClientScreen screen(options.screen, clock.Now());
  if (!screen.connect_error().empty())
    std::cerr << "netcube-client: cannot connect: " << screen.connect_error() << '\n';
  PlayerKeys keys(std::move(options.script), options.screen.client.seed, KeyBinding::kArrowsAndWasd);

  const bool written = RunFrames(
      *app, options.run, /*virtual_clock=*/false,
      [&](Micros now) { screen.Update(now, keys.Held(now, screen.client())); },
      [&](Micros now) { screen.Draw(ClientLayout::For(app->display_size()), now, profiles); }, clock);

  const bool connected = screen.client().state() == client::ConnectionState::kConnected;
  if (connected) {
    screen.Disconnect(clock.Now());
    const Micros until = clock.Now() + kGoodbyeTime +
                         std::chrono::duration_cast<Micros>(std::chrono::duration<double, std::milli>(
                             screen.client().link().latency_ms + screen.client().link().jitter_ms));
    while (clock.Now() < until) {
      screen.Update(clock.Now(), 0);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  if (!written) return 1;
  if (options.run.frames > 0 && !connected && options.screen.connect_at_start) {
    // A bounded run that was meant to show a connection should not pass silently.
    std::cerr << "netcube-client: not connected at the end: " << client::ToString(screen.client().state())
              << (screen.client().status().empty() ? "" : " (" + screen.client().status() + ")") << '\n';
    return 1;
  }
  return 0;
}

int RunLab(LabRunOptions options) {
  std::unique_ptr<App> app = OpenApp(options.run, "netcube-client --lab");
  if (app == nullptr) return 1;
  const std::vector<transport::LinkProfile> profiles = LoadProfiles();
  const SteadyClock clock;
  // Everything is in-process, so a screenshot run can follow a virtual clock and come out the same anywhere.
  const bool virtual_clock = !options.run.screenshot.empty();
  std::string error;
  std::unique_ptr<Lab> lab =
      Lab::Create(options.lab, virtual_clock ? VirtualFrameTime(0) : clock.Now(), &error);
  if (lab == nullptr) {
    std::cerr << "netcube-client: cannot start the lab's server: " << error << '\n';
    return 1;
  }
  std::array<PlayerKeys, gui::kLabPlayers> keys{
      PlayerKeys(std::move(options.scripts[0]), options.lab.players[0].seed, KeyBinding::kArrows),
      PlayerKeys(std::move(options.scripts[1]), options.lab.players[1].seed, KeyBinding::kWasd)};

  const bool written = RunFrames(
      *app, options.run, virtual_clock,
      [&](Micros now) {
        lab->Update(now, {keys[0].Held(now, lab->player(0)), keys[1].Held(now, lab->player(1))});
      },
      [&](Micros now) { lab->Draw(LabLayout::For(app->display_size()), now, profiles); }, clock);
  return written ? 0 : 1;
}

}  // namespace netcube::apps
