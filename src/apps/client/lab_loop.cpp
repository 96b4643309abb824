#include "lab_loop.h"

#include <algorithm>
#include <iostream>
#include <utility>

namespace netcube::apps {
namespace {

// Where a paused or rewound run stands.
std::string TimeNotice(const LabBranch& branch, bool paused) {
  const std::string at = "frame " + std::to_string(branch.frame()) + " of " + std::to_string(branch.edge());
  if (paused) return "paused at " + at;
  return "replaying the tape, " + at;
}

// A replay's progress, or that it ended.
std::string ReplayNotice(std::int64_t frame, std::int64_t frames) {
  if (frame < frames) {
    return "replaying, frame " + std::to_string(frame + 1) + " of " + std::to_string(frames);
  }
  return "the replay ended at frame " + std::to_string(frames);
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

// The options' link script must name players the lab has.
bool CheckLinkScript(const LabRunOptions& options, std::string* error) {
  for (const timeline::LinkChange& change : options.link_script) {
    if (change.client && *change.client >= options.lab.players.size()) {
      *error = "bad --link-script: '" + change.text + "': the lab has " +
               std::to_string(options.lab.players.size()) + " players";
      return false;
    }
  }
  return true;
}

}  // namespace

LabLoop::LabLoop(LabRunOptions& options, std::vector<transport::LinkProfile> profiles)
    : options_(options), profiles_(std::move(profiles)), outputs_(options) {}

std::unique_ptr<LabLoop> LabLoop::Create(LabRunOptions& options, std::vector<transport::LinkProfile> profiles,
                                         std::string* error, int* exit_code) {
  *exit_code = 2;
  options.lab.hand_tags = !options.replay;  // a replay's tags by hand are the recorded ones
  if (!CheckLinkScript(options, error)) return nullptr;
  if (options.fork) {
    std::optional<gui::LabConfig> forked = ForkLabConfig(options.lab, *options.fork, error);
    if (!forked) {
      *error = "bad --fork-at: " + *error;
      return nullptr;
    }
    options.lab = std::move(*forked);
  }
  *exit_code = 1;
  std::unique_ptr<LabLoop> loop(new LabLoop(options, std::move(profiles)));
  if (!loop->outputs_.ok()) {
    *error = "cannot write the lab's outputs";
    return nullptr;
  }
  LabTape tape;
  if (options.replay) {
    tape.hands = options.session;
    tape.frames = static_cast<std::int64_t>(options.session.frames);
  }
  loop->original_ = std::make_unique<LabBranch>(options, options.lab, options.fork, std::move(tape));
  if (!loop->original_->Start(error)) {
    *error = "cannot start the lab: " + *error;
    return nullptr;
  }
  loop->shown_ = loop->original_.get();
  if (options.compare) {
    loop->keys_.emplace_back(std::move(options.scripts[0]), options.session.seed,
                             gui::KeyBinding::kArrowsAndWasd);
  } else {
    for (std::size_t i = 0; i < options.lab.players.size(); ++i) {
      loop->keys_.emplace_back(std::move(options.scripts[i % options.scripts.size()]),
                               options.lab.players[i].client.seed, options.lab.players[i].keys);
    }
  }
  return loop;
}

void LabLoop::UpdateOneFrame() {
  paced_ = false;
  TakeControls();
  RunFrames(1);
}

void LabLoop::Update(Micros real_now) {
  paced_ = true;
  const bool was_paused = paused_;
  const LabBranch* was_shown = shown_;
  TakeControls();
  // A pause, a seek or a fork takes real time that the game does not owe.
  if (paused_ || was_paused || shown_ != was_shown) pacer_.Restart();
  if (paused_) return;
  RunFrames(pacer_.Due(real_now));
}

void LabLoop::TakeControls() {
  const gui::TimeControls controls = lab().timeline().TakeControls();
  if (controls.toggle_pause) paused_ = !paused_;
  if (!paused_) fork_error_.clear();
  if (controls.leave_fork && fork_) {
    shown_ = original_.get();
    paused_ = true;
    fork_.reset();
    fork_text_.clear();
  }
  if (controls.fork && !fork_) {
    std::string error;
    std::unique_ptr<LabBranch> made = original_->ForkAt(ForkOf(*controls.fork, profiles_), &error);
    if (made == nullptr) {
      fork_error_ = error;
    } else {
      fork_ = std::move(made);
      shown_ = fork_.get();
      fork_text_ = fork_->fork()->Describe() + " from frame " + std::to_string(fork_->fork()->frame);
    }
  }
  if (controls.seek || controls.step_ticks != 0) {
    const std::int64_t target = controls.seek ? *controls.seek : shown_->FrameOfTickStep(controls.step_ticks);
    std::string error;
    if (!PauseAndSeek(target, &error)) std::cerr << "netcube-client: cannot seek: " << error << '\n';
  }
}

void LabLoop::RunFrames(int frames) {
  if (paused_) return;
  const std::int64_t replay_frames = static_cast<std::int64_t>(options_.session.frames);
  for (int i = 0; i < frames; ++i) {
    shown_->Step([this](std::vector<std::uint8_t>& held) { LiveHands(held); });
    if (shown_ == original_.get() && original_->frame() >= written_ &&
        (!options_.replay || original_->frame() < replay_frames)) {
      outputs_.Frame(original_->shown());
      written_ = original_->frame() + 1;
    }
    if (options_.replay && shown_->frame() == replay_frames) {
      std::cout << "netcube-client: the replay of " << options_.replay_path << " ended after "
                << replay_frames << " frames; close the window to quit" << std::endl;
    }
  }
}

// The live frames' buttons: keys past the tape (a replay past its end holds none).
void LabLoop::LiveHands(std::vector<std::uint8_t>& held) {
  if (options_.replay) return;
  gui::Lab& shown_lab = lab();
  const Micros now = gui::VirtualFrameTime(static_cast<int>(shown_->frame() + 1));
  for (std::size_t i = 0; i < held.size(); ++i) {
    if (options_.compare) {
      held[i] = i == 0 ? keys_[0].Held(now, shown_lab.player(0)) : held[0];
    } else {
      held[i] = keys_[i].Held(now, shown_lab.player(i));
    }
  }
}

std::optional<std::int64_t> LabLoop::PauseAndSeek(std::int64_t target, std::string* error) {
  paused_ = true;
  std::optional<std::int64_t> run = shown_->SeekTo(target, error);
  if (!run) ok_ = false;
  return run;
}

std::string LabLoop::Notice() const {
  if (!fork_error_.empty()) return fork_error_;
  if (paused_ || (!options_.replay && !shown_->at_edge())) return TimeNotice(*shown_, paused_);
  if (options_.replay)
    return ReplayNotice(shown_->frame(), static_cast<std::int64_t>(options_.session.frames));
  return paced_ ? pacer_.SlowNotice() : std::string();
}

void LabLoop::Draw(ImVec2 display_size) {
  gui::Lab& shown_lab = lab();
  shown_lab.SetReadOnly(paused_);
  shown_lab.SetNotice(Notice());
  shown_lab.timeline().SetPosition(
      {shown_->frame(), shown_->edge(), paused_, options_.compare && !fork_ && !options_.fork, fork_text_});
  const Micros now = gui::VirtualFrameTime(static_cast<int>(std::max<std::int64_t>(0, shown_->frame())));
  shown_lab.Draw(gui::LabLayout::For(display_size, shown_lab.players()), now, profiles_);
  if (!paused_) {
    shown_->KeepDrawn(shown_lab.TakeHandTags(), shown_lab.TakeReconnects());
  } else {
    shown_->UndoDrawn();
  }
}

}  // namespace netcube::apps
