#pragma once
// The lab's time machine. A lab run is deterministic (virtual clock, seeded links, an in-memory network), so
// its hands (the buttons each player held, the tags fired by hand, the Reconnect presses and the panels'
// changes, frame by frame)
// are all it takes to show it again at any frame: a branch keeps them on a tape and seeks back by running a
// fresh lab from the start with them, forward by running on. A fork is a comparison in which every entry
// runs beside a copy of itself (the same seed: the same hands and network luck) that takes other settings
// at the fork's frame: the two are the same before it.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "netcube/client/frame_sample.h"
#include "netcube/client/settings.h"
#include "netcube/gui/lab.h"
#include "netcube/server/server.h"
#include "netcube/timeline/explainer.h"
#include "netcube/timeline/journal.h"
#include "netcube/timeline/link_script.h"
#include "netcube/timeline/recorder.h"
#include "netcube/transport/link_profile.h"
#include "session.h"

namespace netcube::apps {

struct LabRunOptions;

// What a fork changes in each forked entry at its frame (at least one of them).
struct LabFork {
  std::int64_t frame = 0;                    // the change applies before this frame's update
  std::optional<client::TechniqueSet> with;  // another technique set (a preset, or toggles)
  std::optional<int> delay_ms;               // a fixed view delay (adaptive delay off)
  // The snapshot rate the copy asks for: adaptive (the tick rate while the link costs view delay), or off
  // (the server's). The server's own rate is every entry's, so a fork cannot change it.
  std::optional<bool> adaptive_snapshot_rate;
  std::optional<transport::LinkProfile> link;
  // "naive, 100 ms view delay, the server's snapshot rate, lossy link".
  std::string Describe() const;
};

// The most entries a fork keeps: each runs beside its fork in the lab's kMaxLabPlayers columns.
inline constexpr std::size_t kMaxForkedEntries = gui::kMaxLabPlayers / 2;

// A comparison's lab with every entry (the first kMaxForkedEntries) followed by its fork. nullopt with
// `error` set when `config` is not a comparison (its players collide, or have each their own network).
std::optional<gui::LabConfig> ForkLabConfig(const gui::LabConfig& config, const LabFork& fork,
                                            std::string* error);

// The settings of the server's panel that a run can change as it goes.
struct ServerControls {
  int tick_rate = 0;
  int snapshot_rate = 0;
  bool collisions = false;
  transport::LinkSettings link;
  bool lag_compensation = false;
  int max_rewind_ms = 0;
  server::SnapshotEncoding snapshot_encoding = server::SnapshotEncoding::kDelta;
  bool input_buffer = false;
  bool interest = false;
  static ServerControls Of(const server::Server& server);
  void ApplyTo(server::Server& server) const;
  friend bool operator==(const ServerControls&, const ServerControls&) = default;
};

// A run's hands, frame by frame.
struct LabTape {
  struct PlayerChange {
    std::int64_t frame = 0;  // applied after this frame's update, as the panels do
    std::size_t player = 0;
    client::Settings settings;
    transport::LinkSettings link;
  };
  struct ServerChange {
    std::int64_t frame = 0;
    ServerControls controls;
  };
  struct Reconnect {
    std::int64_t frame = 0;  // pressed as this frame was drawn (after its update)
    std::size_t player = 0;
  };
  Session hands;  // every player's buttons (or one timeline for all) and the tags by hand
  std::vector<PlayerChange> player_changes;
  std::vector<ServerChange> server_changes;
  std::vector<Reconnect> reconnects;
  std::int64_t frames = 0;  // the frames it holds: 0 .. frames - 1
};

// One lab running through a tape: the lab, its journal (when journaled) and the frame samples that the
// explanations and the outputs read.
class LabInstance {
 public:
  // nullptr with `error` set when the lab cannot start.
  static std::unique_ptr<LabInstance> Create(const LabRunOptions& options, const gui::LabConfig& config,
                                             std::optional<LabFork> fork, std::string* error);
  ~LabInstance();

  // Runs frame frames(): the link changes and the fork due, the buttons `held` (one per player), the
  // journal, the samples and explanations; then the tags by hand, the Reconnect presses and the panel
  // changes of this frame on `tape` (a live frame's come from its drawing instead).
  void Step(std::span<const std::uint8_t> held, const LabTape& tape);

  gui::Lab& lab() noexcept { return *lab_; }
  std::int64_t frames() const noexcept { return frames_; }
  // The last frame run's samples (one per player) and explanations.
  const std::vector<client::FrameSample>& samples() const noexcept { return samples_; }
  const std::vector<timeline::Explanation>& explained() const noexcept { return explained_; }
  const timeline::Journal* journal() const noexcept { return journal_ ? &*journal_ : nullptr; }

 private:
  LabInstance(const LabRunOptions& options, std::optional<LabFork> fork);
  void ApplyFork();

  const LabRunOptions& options_;
  std::optional<LabFork> fork_;
  std::vector<std::size_t> forked_;  // the players that take the fork
  std::optional<timeline::Journal> journal_;
  std::optional<timeline::Recorder> recorder_;
  std::optional<timeline::LinkScriptPlayer> script_;
  std::optional<timeline::Explainer> explainer_;
  std::unique_ptr<gui::Lab> lab_;
  std::vector<client::Client*> clients_;
  std::vector<const client::Client*> const_clients_;
  std::vector<client::FrameSampler> samplers_;
  std::vector<client::FrameSample> samples_;
  std::vector<timeline::Explanation> explained_;
  std::vector<timeline::Explanation> explained_one_;
  std::int64_t frames_ = 0;
};

// A run that can go back: its tape and the instance shown, at any frame up to the tape's end (the edge).
class LabBranch {
 public:
  LabBranch(const LabRunOptions& options, gui::LabConfig config, std::optional<LabFork> fork, LabTape tape);
  // The instance at the start; false with `error` set when the lab cannot start.
  bool Start(std::string* error);

  LabInstance& shown() noexcept { return *shown_; }
  const LabInstance& shown() const noexcept { return *shown_; }
  // The frame shown (the last one run), -1 before the first.
  std::int64_t frame() const noexcept { return shown_->frames() - 1; }
  // The tape's end: frames before it are replayed from the tape, the next ones take live hands.
  std::int64_t edge() const noexcept { return tape_.frames; }
  bool at_edge() const noexcept { return shown_->frames() >= tape_.frames; }
  const gui::LabConfig& config() const noexcept { return config_; }
  const std::optional<LabFork>& fork() const noexcept { return fork_; }
  const LabTape& tape() const noexcept { return tape_; }

  // Runs the next frame: from the tape before the edge, else with the buttons `live` fills in (one per
  // player), which the tape keeps. True when the frame was live (new).
  bool Step(const std::function<void(std::vector<std::uint8_t>&)>& live);
  // Shows frame `target` (clamped to the tape): forward by running on, back by running a fresh lab from
  // the start. Returns the frames run; false with `error` set when the lab cannot start.
  std::optional<std::int64_t> SeekTo(std::int64_t target, std::string* error);
  // The frame `ticks` server ticks (+1 or -1) from the shown one, within the tape.
  std::int64_t FrameOfTickStep(int ticks) const noexcept;
  // After a frame is drawn in a run that goes on: its tags by hand, Reconnect presses (players) and the
  // panels' changes go on the tape at the frame shown (live, or the tape playing: history from there on has
  // them).
  void KeepDrawn(const std::vector<gui::LabHandTag>& tags, const std::vector<std::size_t>& reconnects);
  // After a paused frame is drawn: what the panels changed is put back.
  void UndoDrawn();

  // A fork of this branch's comparison from the shown frame: its tape holds this one's hands for the
  // original entries and their forks alike. nullopt with `error` set when this is no comparison.
  std::unique_ptr<LabBranch> ForkAt(LabFork fork, std::string* error) const;

 private:
  void NoteControls();

  const LabRunOptions& options_;
  gui::LabConfig config_;
  std::optional<LabFork> fork_;
  LabTape tape_;
  std::unique_ptr<LabInstance> shown_;
  std::vector<std::uint8_t> held_;
  std::vector<std::uint32_t> ticks_;  // the server's tick after each frame on tape
  std::vector<std::pair<client::Settings, transport::LinkSettings>> players_before_draw_;
  ServerControls server_before_draw_;
};

}  // namespace netcube::apps
