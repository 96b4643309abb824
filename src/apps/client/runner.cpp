#include "runner.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <string_view>
#include <thread>

#include "lab_loop.h"
#include "lab_outputs.h"
#include "link_profiles.h"
#include "netcube/client/frame_sample.h"
#include "netcube/gui/compare_plot.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/keys.h"
#include "server_stats.h"

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
// How often a connected client's network is serviced while the frame loop waits for the next frame: a
// packet is stamped when it is read, so this bounds how late a round trip is stamped (not a frame's time).
constexpr Micros kNetworkServicePeriod{1000};
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
  if (const std::string reason = NoWindowReason(run); !reason.empty()) {
    std::cerr << "netcube-client: " << reason << '\n';
    return nullptr;
  }
  run.app.title = title;
  if (NeedsHeadless(run)) run.app.headless = true;
  if (!run.screenshot.empty()) run.app.vsync = false;  // a screenshot run renders as fast as it can
  std::string error;
  std::unique_ptr<App> app = App::Create(run.app, &error);
  if (app == nullptr) std::cerr << "netcube-client: " << error << '\n';
  return app;
}

bool WriteFramePng(App& app, const std::string& path, const std::string& what) {
  std::string error;
  const Image image = app.Capture();
  const std::string png = gui::EncodePng(image, &error);
  if (png.empty() || !WriteFile(path, png, &error)) {
    std::cerr << "netcube-client: " << error << '\n';
    return false;
  }
  std::cout << "netcube-client: wrote " << path << " (" << image.width << "x" << image.height << ", " << what
            << ")\n";
  return true;
}

// How frame times are chosen.
enum class Timing : std::uint8_t {
  kSteady,   // the steady clock, paced to kFramesPerSecond when vsync does not pace the frames
  kVirtual,  // frame i at VirtualFrameTime(i), as fast as it goes, only the last frame drawn
};

// The frame loop: events, update(frame, now), UI via draw(now), render, the screenshot on the last frame,
// present, then wait for the next frame, calling `idle(now)` (when given) every kNetworkServicePeriod
// meanwhile. False if the screenshot could not be written.
bool RunFrames(App& app, const RunOptions& run, Timing timing, const std::function<void(int, Micros)>& update,
               const std::function<void(Micros)>& draw, const SteadyClock& clock,
               const std::function<void(Micros)>& idle = nullptr) {
  for (int frame = 0; run.frames == 0 || frame < run.frames; ++frame) {
    if (!app.PollEvents()) break;
    const Micros now = timing == Timing::kSteady ? clock.Now() : VirtualFrameTime(frame);
    update(frame, now);
    app.BeginFrame();
    draw(now);
    const bool last_frame = frame + 1 == run.frames;
    if (timing == Timing::kVirtual && !last_frame) {
      app.DiscardFrame();  // nobody watches a virtual-clock run: only its last frame is drawn
      continue;
    }
    app.Render();
    if (!run.screenshot.empty() && last_frame &&
        !WriteFramePng(app, run.screenshot, std::to_string(frame + 1) + " frames")) {
      return false;
    }
    app.Present();
    Micros due{0};
    if (timing == Timing::kSteady && (!app.has_vsync() || app.minimised())) due = now + kFramePeriod;
    for (Micros left = due - clock.Now(); left > Micros(0); left = due - clock.Now()) {
      if (idle) idle(clock.Now());
      std::this_thread::sleep_for(idle ? std::min(left, kNetworkServicePeriod) : left);
    }
  }
  return true;
}

}  // namespace

namespace {

bool EnvironmentSet(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0';
}

bool OffscreenAsked() {
  const char* driver = std::getenv("SDL_VIDEODRIVER");
  return driver != nullptr && std::string_view(driver) == "offscreen";
}

// No display to show a window on, and no video driver chosen by hand.
bool NoDisplay() {
  return !EnvironmentSet("DISPLAY") && !EnvironmentSet("WAYLAND_DISPLAY") &&
         !EnvironmentSet("SDL_VIDEODRIVER");
}

}  // namespace

bool NeedsHeadless(const RunOptions& run) noexcept {
  if (OffscreenAsked()) return true;
  return !run.screenshot.empty() && NoDisplay();
}

std::string NoWindowReason(const RunOptions& run) {
  if (run.frames > 0) return {};
  constexpr const char* kHeadless =
      "to render headless, add --frames N --screenshot FILE.png, e.g. SDL_VIDEODRIVER=offscreen "
      "netcube-client "
      "--lab --frames 300 --screenshot lab.png";
  // Without a display SDL falls back to its offscreen driver: a window nobody sees, drawn until killed.
  if (OffscreenAsked()) return std::string("SDL_VIDEODRIVER=offscreen shows no window; ") + kHeadless;
  if (NoDisplay()) return std::string("no display (DISPLAY and WAYLAND_DISPLAY are unset); ") + kHeadless;
  return {};
}

int RunClient(ClientRunOptions options) {
  // The loop paces the frames itself, servicing the network between them: vsync would hold it in Present,
  // and a round trip would be stamped when the next frame reads it, up to a frame late (16 ms of RTT that
  // a loopback server does not have).
  options.run.app.vsync = false;
  std::unique_ptr<App> app = OpenApp(options.run, "netcube-client");
  if (app == nullptr) return 1;
  const std::vector<transport::LinkProfile> profiles = LoadProfiles();
  const SteadyClock clock;
  ClientScreen screen(options.screen, clock.Now());
  if (!screen.connect_error().empty())
    std::cerr << "netcube-client: cannot connect: " << screen.connect_error() << '\n';
  PlayerKeys keys(std::move(options.script), options.screen.client.seed, KeyBinding::kArrowsAndWasd);

  std::uint8_t held = 0;
  const bool written = RunFrames(
      *app, options.run, Timing::kSteady,
      [&](int, Micros now) {
        held = keys.Held(now, screen.client());
        screen.Update(now, held);
      },
      [&](Micros now) { screen.Draw(ClientLayout::For(app->display_size()), now, profiles); }, clock,
      [&](Micros now) { screen.client().Update(now, held); });

  const bool connected = screen.client().state() == client::ConnectionState::kConnected;
  if (connected && options.run.frames > 0) {
    const client::Metrics m = screen.client().metrics();
    std::printf("netcube-client: RTT %.1f ms mean over %llu time echoes\n", m.rtt_ms_mean,
                static_cast<unsigned long long>(m.rtt_samples));
  }
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
    const client::Client& client = screen.client();
    if (client.state() == client::ConnectionState::kUnreachable) {
      std::cerr << "netcube-client: could not connect to " << options.screen.host << ':'
                << options.screen.port << ": " << client.status() << '\n';
    } else {
      std::cerr << "netcube-client: not connected at the end: " << client::ToString(client.state())
                << (client.status().empty() ? "" : " (" + client.status() + ")") << '\n';
    }
    return 1;
  }
  return 0;
}

void SetUpComparison(LabRunOptions& options) {
  const Session& session = options.session;
  options.lab = gui::CompareLabConfig(session.entries, session.link, session.seed);
  if (!session.compared) {
    // The bot's independent players: each its own network, on a server where cubes collide.
    options.lab.server.collisions = true;
    options.lab.server.shared_spawn = false;
    for (std::size_t i = 0; i < options.lab.players.size(); ++i)
      options.lab.players[i].client.seed = session.SeedOf(i);
  }
  options.lab.server.tick_rate = session.tick_rate;
  options.lab.server.snapshot_rate = session.snapshot_rate;
  options.lab.tag_interval_ms = session.tag_interval_ms;
  options.compare = true;
  options.plot_title = CompareTitle(session);
}

namespace {

// Shows frame `target` of the lab, paused, saying on stdout how long it took (a run without a window
// measures it).
bool SeekAndSay(LabLoop& loop, std::int64_t target, const SteadyClock& clock) {
  const std::int64_t from = loop.shown().frame();
  const Micros start = clock.Now();
  std::string error;
  const std::optional<std::int64_t> run = loop.PauseAndSeek(target, &error);
  if (!run) {
    std::cerr << "netcube-client: cannot seek: " << error << '\n';
    return false;
  }
  std::printf("netcube-client: sought frame %lld from frame %lld in %.1f ms (%lld frames run)\n",
              static_cast<long long>(loop.shown().frame()), static_cast<long long>(from),
              static_cast<double>((clock.Now() - start).count()) / 1000.0, static_cast<long long>(*run));
  return true;
}

}  // namespace

int RunLab(LabRunOptions options) {
  // A replay shown in a window runs on past its recording, saying that it ended, until the window closes;
  // one that cannot be shown plays just the recording.
  if (options.replay && options.run.frames == 0 && !NoWindowReason(options.run).empty()) {
    options.run.frames = static_cast<int>(options.session.frames);
  }
  std::unique_ptr<App> app = OpenApp(options.run, "netcube-client --lab");
  if (app == nullptr) return 1;
  std::string error;
  int exit_code = 0;
  std::unique_ptr<LabLoop> loop = LabLoop::Create(options, LoadProfiles(), &error, &exit_code);
  if (loop == nullptr) {
    std::cerr << "netcube-client: " << error << '\n';
    return exit_code;
  }
  const SteadyClock clock;
  // Everything is in-process, so a run nobody watches follows the virtual clock, as fast as it goes, and
  // comes out the same anywhere; a watched run keeps to the real clock.
  const Timing timing =
      options.run.app.headless || !options.run.screenshot.empty() ? Timing::kVirtual : Timing::kSteady;
  bool ok = true;
  const bool written_ok = RunFrames(
      *app, options.run, timing,
      [&](int frame, Micros now) {
        if (timing == Timing::kVirtual) {
          loop->UpdateOneFrame();
        } else {
          loop->Update(now);
        }
        // A run without a window scrubs as --seek says once its frames are run.
        if (frame + 1 == options.run.frames) {
          for (const std::int64_t target : options.seek) ok = SeekAndSay(*loop, target, clock) && ok;
        }
      },
      [&](Micros) { loop->Draw(app->display_size()); }, clock);
  LabBranch& original = loop->original();
  LabOutputs& outputs = loop->outputs();
  ok = ok && loop->ok();
  bool finished = outputs.Finish(original) && ok;
  if (!options.plot.empty()) {
    app->BeginFrame();
    const ImVec2 size = app->display_size();
    gui::DrawComparePlot(*ImGui::GetBackgroundDrawList(), {0.0F, 0.0F, size.x, size.y}, outputs.series(),
                         options.plot_title);
    app->Render();
    finished = WriteFramePng(*app, options.plot, "plot") && finished;
  }
  if (!options.stats_json.empty()) {
    if (WriteServerStats(options.stats_json, original.shown().lab().server(), &error)) {
      std::cout << "netcube-client: wrote " << options.stats_json << " (the lab server's statistics)\n";
    } else {
      std::cerr << "netcube-client: " << error << '\n';
      finished = false;
    }
  }
  return written_ok && finished ? 0 : 1;
}

}  // namespace netcube::apps
