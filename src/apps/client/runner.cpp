#include "runner.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <string_view>
#include <thread>

#include "compare_csv.h"
#include "explain_json.h"
#include "files.h"
#include "link_profiles.h"
#include "netcube/client/frame_sample.h"
#include "netcube/gui/compare_plot.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/keys.h"
#include "netcube/timeline/explainer.h"
#include "netcube/timeline/recorder.h"
#include "run_journal.h"
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
  const Micros start = clock.Now();
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

// The run's journal, its explanations (--explain) and its scripted link (--link-script). Made before the
// lab, whose clients get its link logs.
class LabJournal {
 public:
  explicit LabJournal(LabRunOptions& options)
      : journal_(options.lab.players.size()),
        recorder_(journal_),
        script_(options.link_script),
        journal_out_(options.journal_out),
        title_(options.title) {
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < options.lab.players.size(); ++i) {
      client::ClientConfig& config = options.lab.players[i].client;
      config.incoming_link_log = recorder_.DownLog(i);
      config.outgoing_link_log = recorder_.UpLog(i);
      labels.push_back(config.name);
    }
    labels_ = labels;
    explainer_.emplace(journal_, std::move(labels), &script_.changes());
    if (!options.explain.empty() && options.explain != "-") {
      file_.open(options.explain, std::ios::binary | std::ios::trunc);
    }
    out_ = options.explain.empty() ? nullptr : options.explain == "-" ? &std::cout : &file_;
  }

  bool ok() const { return out_ == nullptr || out_->good(); }

  // Before the frame's updates: the link changes due.
  void BeginFrame(int frame, Micros now, Lab& lab) {
    recorder_.BeginFrame(frame);
    if (clients_.empty()) {
      for (std::size_t i = 0; i < lab.players(); ++i) clients_.push_back(&lab.player(i));
      lab.timeline().Enable(&journal_, labels_);
    }
    script_.Apply(frame, now, lab.server(), clients_, &recorder_);
  }
  // After them: the journal, then each client's glitches with their causes.
  void Frame(int frame, Micros now, Lab& lab) {
    const_clients_.assign(clients_.begin(), clients_.end());
    recorder_.Record(frame, now, lab.server(), const_clients_);
  }
  void Explain(std::size_t index, const client::FrameSample& sample, Lab& lab) {
    explained_.clear();
    explainer_->Frame(index, sample, lab.player(index), lab.server(), explained_);
    for (const timeline::Explanation& explanation : explained_) {
      if (out_ != nullptr) *out_ << ExplanationJson(explanation);
      lab.timeline().Add(explanation);
      if (!journal_out_.empty()) KeepForJournalFile(kept_, explanation);
      ++count_;
    }
  }
  // False (said on stderr) when the explanations could not be written.
  bool Finish(const std::string& path) {
    if (!journal_out_.empty()) {
      std::vector<std::string> script;
      for (const timeline::LinkChange& change : script_.changes()) script.push_back(change.text);
      if (!WriteJournalFile(journal_out_, "netcube-client", title_, true, labels_, script, journal_, kept_))
        return false;
    }
    if (out_ == nullptr) return true;
    out_->flush();
    if (out_ == &file_) file_.close();
    if (!out_->good() || (out_ == &file_ && file_.fail())) {
      std::cerr << "netcube-client: cannot write " << path << '\n';
      return false;
    }
    if (out_ == &file_) {
      std::uint64_t events = journal_.server().total();
      for (std::size_t i = 0; i < journal_.clients(); ++i) events += journal_.client(i).total();
      std::cout << "netcube-client: wrote " << path << " (" << count_
                << " explained glitches; the journal took " << events << " events, "
                << events * sizeof(timeline::Event) / 1024 << " KiB, in rings of "
                << journal_.memory_bytes() / 1024 << " KiB)\n";
    }
    return true;
  }

 private:
  timeline::Journal journal_;
  timeline::Recorder recorder_;
  timeline::LinkScriptPlayer script_;
  std::optional<timeline::Explainer> explainer_;
  std::vector<std::string> labels_;
  std::vector<client::Client*> clients_;
  std::vector<const client::Client*> const_clients_;
  std::vector<timeline::Explanation> explained_;
  std::ofstream file_;
  std::ostream* out_ = nullptr;
  std::uint64_t count_ = 0;
  std::string journal_out_;
  std::string title_;
  std::vector<timeline::Explanation> kept_;  // for the journal file
};

// What a lab run records as it goes: the session (--record), the CSV (--csv), the plot's samples and the
// explanations (--explain).
class LabRecorder {
 public:
  LabRecorder(const LabRunOptions& options, const gui::Lab& lab, LabJournal* journal)
      : options_(options), journal_(journal) {
    for (const gui::LabPlayer& player : options.lab.players) series_.push_back({player.title, {}, {}});
    samplers_.resize(lab.players());
    if (!options.csv.empty()) {
      csv_.open(options.csv, std::ios::binary | std::ios::trunc);
      csv_ << CompareCsvHeader();
    }
  }

  bool csv_ok() const { return options_.csv.empty() || csv_.good(); }

  void Frame(int frame, Micros now, std::span<const std::uint8_t> held, gui::Lab& lab) {
    if (!options_.record.empty()) session_.RecordInput(0, frame, held[0]);  // the keys every player shares
    frames_ = frame + 1;
    if (journal_ != nullptr) journal_->Frame(frame, now, lab);
    if (options_.csv.empty() && options_.plot.empty() && journal_ == nullptr) return;
    const std::span<const sim::PlayerCube> truth = lab.server().world();
    for (std::size_t i = 0; i < lab.players(); ++i) {
      const client::Client& player = lab.player(i);
      const client::FrameSample sample =
          samplers_[i].Sample(frame, now, held[i], player, truth, client::Tick{lab.server().tick()});
      if (journal_ != nullptr) journal_->Explain(i, sample, lab);
      if (!options_.csv.empty()) {
        csv_ << CompareCsvRow(options_.lab.players[i].client.name, client::TechniquesOf(player.settings()),
                              sample);
      }
      if (!options_.csv.empty() || !options_.plot.empty()) series_[i].samples.push_back(sample);
    }
  }

  void HandTags(int frame, const std::vector<gui::LabHandTag>& tags) {
    if (options_.record.empty()) return;
    for (const gui::LabHandTag& tag : tags)
      session_.hand_tags.push_back({frame, tag.player, tag.request.target});
  }

  // Prints the run's figures, writes the session and the plot, and closes the CSV; false (with the reason on
  // stderr) on a failure.
  bool Finish(App& app) {
    bool ok = true;
    for (gui::PlotSeries& series : series_) {
      if (series.samples.empty()) continue;
      series.summary = client::Summarize(series.samples);
      std::cout << SummaryText(series.label, series.summary);
    }
    if (!options_.csv.empty()) {
      csv_.close();
      if (csv_.fail()) {
        std::cerr << "netcube-client: cannot write " << options_.csv << '\n';
        ok = false;
      } else {
        std::cout << "netcube-client: wrote " << options_.csv << " (CSV, " << frames_ << " frames)\n";
      }
    }
    if (!options_.record.empty()) {
      Session session = options_.session;
      session.frames = frames_;
      session.inputs = session_.inputs;
      session.hand_tags = session_.hand_tags;
      std::string error;
      if (!WriteFile(options_.record, SessionToJson(session), &error)) {
        std::cerr << "netcube-client: " << error << '\n';
        ok = false;
      } else {
        std::cout << "netcube-client: wrote " << options_.record << " (session, " << frames_ << " frames)\n";
      }
    }
    if (!options_.plot.empty()) {
      app.BeginFrame();
      const ImVec2 size = app.display_size();
      gui::DrawComparePlot(*ImGui::GetBackgroundDrawList(), {0.0F, 0.0F, size.x, size.y}, series_,
                           options_.plot_title);
      app.Render();
      ok = WriteFramePng(app, options_.plot, "plot") && ok;
    }
    return ok;
  }

 private:
  const LabRunOptions& options_;
  LabJournal* journal_;
  std::vector<client::FrameSampler> samplers_;
  std::vector<gui::PlotSeries> series_;
  std::ofstream csv_;
  Session session_;  // only its inputs and tags by hand: the rest comes from the options at the end
  int frames_ = 0;
};

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
  std::optional<LabJournal> journal;
  if (options.journal || !options.explain.empty() || !options.link_script.empty() ||
      !options.journal_out.empty()) {
    journal.emplace(options);
  }
  if (journal && !journal->ok()) {
    std::cerr << "netcube-client: cannot write " << options.explain << '\n';
    return 1;
  }
  std::unique_ptr<Lab> lab = Lab::Create(options.lab, VirtualFrameTime(0), &error);
  if (lab == nullptr) {
    std::cerr << "netcube-client: cannot start the lab: " << error << '\n';
    return 1;
  }
  // With --compare every player gets the same buttons: a replayed timeline, or one set of keys (a script,
  // or the arrows and W A S D alike). Otherwise each player has its own keys.
  std::vector<PlayerKeys> keys;
  if (options.compare) {
    keys.emplace_back(std::move(options.scripts[0]), options.session.seed, KeyBinding::kArrowsAndWasd);
  } else {
    for (std::size_t i = 0; i < lab->players(); ++i) {
      keys.emplace_back(std::move(options.scripts[i % options.scripts.size()]),
                        options.lab.players[i].client.seed, options.lab.players[i].keys);
    }
  }
  LabRecorder recorder(options, *lab, journal ? &*journal : nullptr);
  if (!recorder.csv_ok()) {
    std::cerr << "netcube-client: cannot write " << options.csv << '\n';
    return 1;
  }
  std::vector<std::uint8_t> held(lab->players(), 0);
  int frame_now = 0;
  auto replayed_tag = options.session.hand_tags.cbegin();

  const bool written = RunFrames(
      *app, options.run, timing,
      [&](int frame, Micros now) {
        const bool replaying = options.replay && frame < replay_frames;
        if (options.replay) ShowReplay(*lab, options.replay_path, frame, replay_frames);
        for (std::size_t i = 0; i < held.size(); ++i) {
          if (options.replay) {
            held[i] = replaying ? options.session.ButtonsAt(i, frame) : 0;
          } else if (options.compare) {
            held[i] = i == 0 ? keys[0].Held(now, lab->player(0)) : held[0];
          } else {
            held[i] = keys[i].Held(now, lab->player(i));
          }
        }
        if (options.switch_encoding_frame > 0 && frame == options.switch_encoding_frame) {
          server::Server& server = lab->server();
          server.SetSnapshotEncoding(server.config().snapshot_encoding == server::SnapshotEncoding::kDelta
                                         ? server::SnapshotEncoding::kFull
                                         : server::SnapshotEncoding::kDelta);
        }
        if (journal) journal->BeginFrame(frame, now, *lab);
        lab->Update(now, held);
        if (!options.replay || replaying) recorder.Frame(frame, now, held, *lab);
        // Where a live run takes its tags by hand: after the frame's update and sample, before the next.
        for (; options.replay && replayed_tag != options.session.hand_tags.cend() &&
               replayed_tag->frame <= frame;
             ++replayed_tag) {
          lab->TagByHand(now, {replayed_tag->player, {replayed_tag->target}});
        }
        frame_now = frame;
      },
      [&](Micros now) {
        lab->Draw(LabLayout::For(app->display_size(), lab->players()), now, profiles);
        recorder.HandTags(frame_now, lab->TakeHandTags());
      },
      clock);
  bool finished = recorder.Finish(*app);
  if (journal) finished = journal->Finish(options.explain) && finished;
  if (!options.stats_json.empty()) {
    if (WriteServerStats(options.stats_json, lab->server(), &error)) {
      std::cout << "netcube-client: wrote " << options.stats_json << " (the lab server's statistics)\n";
    } else {
      std::cerr << "netcube-client: " << error << '\n';
      finished = false;
    }
  }
  return written && finished ? 0 : 1;
}

}  // namespace netcube::apps
