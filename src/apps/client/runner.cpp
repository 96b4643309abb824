#include "runner.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <string_view>
#include <thread>

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
  kSteady,        // the steady clock, paced to kFramesPerSecond when vsync does not pace the frames
  kVirtual,       // frame i at VirtualFrameTime(i), as fast as it goes, only the last frame drawn
  kVirtualPaced,  // frame i at VirtualFrameTime(i), shown at that time after the start, every frame drawn
};

// The frame loop: events, update(frame, now), UI via draw(now), render, the screenshot on the last frame,
// present, then wait for the next frame, calling `idle(now)` (when given) every kNetworkServicePeriod
// meanwhile. False if the screenshot could not be written.
bool RunFrames(App& app, const RunOptions& run, Timing timing, const std::function<void(int, Micros)>& update,
               const std::function<void(Micros)>& draw, const SteadyClock& clock,
               const std::function<void(Micros)>& idle = nullptr) {
  Micros start = clock.Now();
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
    if (timing == Timing::kVirtualPaced) {
      due = start + VirtualFrameTime(frame + 1);
      // Far behind (a seek ran the lab again from its start): the frames go on from now, not in a rush.
      if (clock.Now() - due > 4 * kFramePeriod) {
        start += clock.Now() - due;
        due = clock.Now();
      }
    } else if (timing == Timing::kSteady && (!app.has_vsync() || app.minimised())) {
      due = now + kFramePeriod;
    }
    for (Micros left = due - clock.Now(); left > Micros(0); left = due - clock.Now()) {
      if (idle) idle(clock.Now());
      std::this_thread::sleep_for(idle ? std::min(left, kNetworkServicePeriod) : left);
    }
  }
  return true;
}

// The lab's notice of a replay: how far it is, or that it ended (said once on stdout too).
void ShowReplay(Lab& lab, const std::string& path, int frame, int frames) {
  if (frame < frames) {
    lab.SetNotice("replaying, frame " + std::to_string(frame + 1) + " of " + std::to_string(frames));
    return;
  }
  lab.SetNotice("the replay ended at frame " + std::to_string(frames));
  if (frame == frames) {
    std::cout << "netcube-client: the replay of " << path << " ended after " << frames
              << " frames; close the window to quit" << std::endl;
  }
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

// The notice beside the server's title: where a paused or rewound run stands, else a replay's progress.
std::string TimeNotice(const LabBranch& branch, bool paused) {
  const std::string at = "frame " + std::to_string(branch.frame()) + " of " + std::to_string(branch.edge());
  if (paused) return "paused at " + at;
  return "replaying the tape, " + at;
}

// Shows frame `target` of `branch`, saying on stdout how long it took (a run without a window measures it).
bool SeekAndSay(LabBranch& branch, std::int64_t target, const SteadyClock& clock, bool say) {
  const std::int64_t from = branch.frame();
  const Micros start = clock.Now();
  std::string error;
  const std::optional<std::int64_t> run = branch.SeekTo(target, &error);
  if (!run) {
    std::cerr << "netcube-client: cannot seek: " << error << '\n';
    return false;
  }
  if (say) {
    std::printf("netcube-client: sought frame %lld from frame %lld in %.1f ms (%lld frames run)\n",
                static_cast<long long>(branch.frame()), static_cast<long long>(from),
                static_cast<double>((clock.Now() - start).count()) / 1000.0, static_cast<long long>(*run));
  }
  return true;
}

LabFork ForkOf(const gui::ForkChoice& choice, std::span<const transport::LinkProfile> profiles) {
  LabFork fork;
  if (choice.preset)
    fork.with =
        client::TechniqueSet{client::ToString(*choice.preset), client::PresetSettings(*choice.preset)};
  fork.delay_ms = choice.delay_ms;
  fork.adaptive_snapshot_rate = choice.adaptive_snapshot_rate;
  if (choice.profile && *choice.profile < profiles.size()) fork.link = profiles[*choice.profile];
  return fork;
}

}  // namespace

int RunLab(LabRunOptions options) {
  // A replay shown in a window runs on past its recording, saying that it ended, until the window closes;
  // one that cannot be shown plays just the recording.
  const int replay_frames = static_cast<int>(options.session.frames);
  if (options.replay && options.run.frames == 0 && !NoWindowReason(options.run).empty()) {
    options.run.frames = replay_frames;
  }
  std::unique_ptr<App> app = OpenApp(options.run, "netcube-client --lab");
  if (app == nullptr) return 1;
  const std::vector<transport::LinkProfile> profiles = LoadProfiles();
  const SteadyClock clock;
  // Everything is in-process, so the lab follows a virtual clock and a run comes out the same anywhere: as
  // fast as it goes when nobody watches, else paced to real time.
  const Timing timing =
      options.run.app.headless || !options.run.screenshot.empty() ? Timing::kVirtual : Timing::kVirtualPaced;
  std::string error;
  options.lab.hand_tags = !options.replay;  // a replay's tags by hand are the recorded ones
  for (const timeline::LinkChange& change : options.link_script) {
    if (change.client && *change.client >= options.lab.players.size()) {
      std::cerr << "netcube-client: bad --link-script: '" << change.text << "': the lab has "
                << options.lab.players.size() << " players\n";
      return 2;
    }
  }
  if (options.fork) {
    std::optional<gui::LabConfig> forked = ForkLabConfig(options.lab, *options.fork, &error);
    if (!forked) {
      std::cerr << "netcube-client: bad --fork-at: " << error << '\n';
      return 2;
    }
    options.lab = std::move(*forked);
  }
  LabOutputs outputs(options);
  if (!outputs.ok()) return 1;
  LabTape tape;
  if (options.replay) {
    tape.hands = options.session;
    tape.frames = replay_frames;
  }
  LabBranch original(options, options.lab, options.fork, std::move(tape));
  if (!original.Start(&error)) {
    std::cerr << "netcube-client: cannot start the lab: " << error << '\n';
    return 1;
  }
  // With --compare every player gets the same buttons: a replayed timeline, or one set of keys (a script,
  // or the arrows and W A S D alike). Otherwise each player has its own keys.
  std::vector<PlayerKeys> keys;
  if (options.compare) {
    keys.emplace_back(std::move(options.scripts[0]), options.session.seed, KeyBinding::kArrowsAndWasd);
  } else {
    for (std::size_t i = 0; i < options.lab.players.size(); ++i) {
      keys.emplace_back(std::move(options.scripts[i % options.scripts.size()]),
                        options.lab.players[i].client.seed, options.lab.players[i].keys);
    }
  }
  std::unique_ptr<LabBranch> fork;  // a fork made from the controls, shown instead of the original
  std::string fork_text;            // what it changed, from when
  std::string fork_error;           // why the controls' fork could not be made
  LabBranch* shown = &original;
  bool paused = false;
  bool ok = true;
  std::int64_t written = 0;  // the original's frames given to the outputs
  // The live frames' buttons: keys past the tape (a replay past its end holds none).
  const auto live_hands = [&](std::vector<std::uint8_t>& held) {
    if (options.replay) return;
    gui::Lab& lab = shown->shown().lab();
    const Micros now = VirtualFrameTime(static_cast<int>(shown->frame() + 1));
    for (std::size_t i = 0; i < held.size(); ++i) {
      if (options.compare) {
        held[i] = i == 0 ? keys[0].Held(now, lab.player(0)) : held[0];
      } else {
        held[i] = keys[i].Held(now, lab.player(i));
      }
    }
  };

  const bool written_ok = RunFrames(
      *app, options.run, timing,
      [&](int frame, Micros) {
        const gui::TimeControls controls = shown->shown().lab().timeline().TakeControls();
        if (controls.toggle_pause) paused = !paused;
        if (!paused) fork_error.clear();
        if (controls.leave_fork && fork) {
          shown = &original;
          paused = true;
          fork.reset();
          fork_text.clear();
        }
        if (controls.fork && !fork) {
          std::unique_ptr<LabBranch> made = original.ForkAt(ForkOf(*controls.fork, profiles), &error);
          if (made == nullptr) {
            fork_error = error;
          } else {
            fork = std::move(made);
            shown = fork.get();
            fork_text = fork->fork()->Describe() + " from frame " + std::to_string(fork->fork()->frame);
          }
        }
        if (controls.seek || controls.step_ticks != 0) {
          paused = true;
          const std::int64_t target =
              controls.seek ? *controls.seek : shown->FrameOfTickStep(controls.step_ticks);
          ok = SeekAndSay(*shown, target, clock, false) && ok;
        }
        if (!paused) {
          shown->Step(live_hands);
          if (shown == &original && original.frame() >= written &&
              (!options.replay || original.frame() < replay_frames)) {
            outputs.Frame(original.shown());
            written = original.frame() + 1;
          }
        }
        // A run without a window scrubs as --seek says once its frames are run.
        if (frame + 1 == options.run.frames && !options.seek.empty()) {
          paused = true;
          for (const std::int64_t target : options.seek) ok = SeekAndSay(*shown, target, clock, true) && ok;
        }
        gui::Lab& lab = shown->shown().lab();
        lab.SetReadOnly(paused);
        if (!fork_error.empty()) {
          lab.SetNotice(fork_error);  // until the run resumes
        } else if (paused || (!options.replay && !shown->at_edge())) {
          lab.SetNotice(TimeNotice(*shown, paused));
        } else if (options.replay) {
          ShowReplay(lab, options.replay_path, static_cast<int>(shown->frame()), replay_frames);
        } else {
          lab.SetNotice("");
        }
      },
      [&](Micros) {
        gui::Lab& lab = shown->shown().lab();
        lab.timeline().SetPosition(
            {shown->frame(), shown->edge(), paused, options.compare && !fork && !options.fork, fork_text});
        const Micros now = VirtualFrameTime(static_cast<int>(std::max<std::int64_t>(0, shown->frame())));
        lab.Draw(LabLayout::For(app->display_size(), lab.players()), now, profiles);
        if (!paused) {
          shown->KeepDrawn(lab.TakeHandTags(), lab.TakeReconnects());
        } else {
          shown->UndoDrawn();
        }
      },
      clock);
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
