#include "lab_branch.h"

#include <algorithm>
#include <utility>

#include "netcube/gui/frame_clock.h"
#include "netcube/protocol/messages.h"
#include "runner.h"

namespace netcube::apps {

std::string LabFork::Describe() const {
  std::string text;
  const auto add = [&text](const std::string& part) { text += (text.empty() ? "" : ", ") + part; };
  if (with) add(with->label);
  if (delay_ms) add(std::to_string(*delay_ms) + " ms view delay");
  if (adaptive_snapshot_rate)
    add(*adaptive_snapshot_rate ? "adaptive snapshot rate" : "the server's snapshot rate");
  if (link) add(link->name + " link");
  return text;
}

std::optional<gui::LabConfig> ForkLabConfig(const gui::LabConfig& config, const LabFork& fork,
                                            std::string* error) {
  const bool comparison =
      !config.server.collisions && config.server.shared_spawn &&
      std::all_of(config.players.begin(), config.players.end(), [&](const gui::LabPlayer& p) {
        return p.client.seed == config.players.front().client.seed;
      });
  if (!comparison || config.players.empty()) {
    *error =
        "a fork needs a comparison (--compare, or --replay of one): only its entries share the hands and the "
        "network's luck";
    return std::nullopt;
  }
  gui::LabConfig forked = config;
  forked.players.clear();
  const std::string what = fork.Describe();
  for (std::size_t i = 0; i < std::min(config.players.size(), kMaxForkedEntries); ++i) {
    const gui::LabPlayer& original = config.players[i];
    forked.players.push_back(original);
    gui::LabPlayer copy = original;
    copy.client.name = ("fork-" + original.client.name).substr(0, protocol::kMaxNameLength);
    copy.title = "fork of " + original.client.name + ": " + what;
    forked.players.push_back(std::move(copy));
  }
  return forked;
}

ServerControls ServerControls::Of(const server::Server& server) {
  const server::ServerConfig& c = server.config();
  return {c.tick_rate,     c.snapshot_rate,     c.collisions,   c.link,    c.lag_compensation,
          c.max_rewind_ms, c.snapshot_encoding, c.input_buffer, c.interest};
}

void ServerControls::ApplyTo(server::Server& server) const {
  server.SetTickRate(tick_rate);
  server.SetSnapshotRate(snapshot_rate);
  server.SetCollisions(collisions);
  server.SetLink(link);
  server.SetLagCompensation(lag_compensation);
  server.SetMaxRewindMs(max_rewind_ms);
  server.SetSnapshotEncoding(snapshot_encoding);
  server.SetInputBuffer(input_buffer);
  server.SetInterest(interest);
}

LabInstance::LabInstance(const LabRunOptions& options, std::optional<LabFork> fork)
    : options_(options), fork_(std::move(fork)) {}

LabInstance::~LabInstance() = default;

std::unique_ptr<LabInstance> LabInstance::Create(const LabRunOptions& options, const gui::LabConfig& config,
                                                 std::optional<LabFork> fork, std::string* error) {
  std::unique_ptr<LabInstance> instance(new LabInstance(options, std::move(fork)));
  LabInstance& self = *instance;
  gui::LabConfig wired = config;
  std::vector<std::string> labels;
  if (options.journaled()) {
    // Made before the lab, whose clients get its link logs.
    self.journal_.emplace(config.players.size());
    self.recorder_.emplace(*self.journal_);
    self.script_.emplace(options.link_script);
    for (std::size_t i = 0; i < wired.players.size(); ++i) {
      client::ClientConfig& client = wired.players[i].client;
      client.incoming_link_log = self.recorder_->DownLog(i);
      client.outgoing_link_log = self.recorder_->UpLog(i);
      labels.push_back(client.name);
    }
    self.explainer_.emplace(*self.journal_, labels, &self.script_->changes());
  }
  self.lab_ = gui::Lab::Create(wired, gui::VirtualFrameTime(0), error);
  if (self.lab_ == nullptr) return nullptr;
  if (self.journal_) self.lab_->timeline().Enable(&*self.journal_, std::move(labels));
  for (std::size_t i = 0; i < self.lab_->players(); ++i) {
    self.clients_.push_back(&self.lab_->player(i));
    // A fork's copies are every other player (ForkLabConfig).
    if (self.fork_ && i % 2 == 1) self.forked_.push_back(i);
  }
  self.const_clients_.assign(self.clients_.begin(), self.clients_.end());
  self.samplers_.resize(self.clients_.size());
  self.samples_.resize(self.clients_.size());
  return instance;
}

void LabInstance::ApplyFork() {
  for (const std::size_t index : forked_) {
    client::Client& player = lab_->player(index);
    client::Settings settings = fork_->with ? fork_->with->settings : player.settings();
    if (fork_->delay_ms) {
      settings.adaptive_delay = false;
      settings.interp_delay_ms = *fork_->delay_ms;
    }
    if (fork_->adaptive_snapshot_rate) settings.adaptive_snapshot_rate = *fork_->adaptive_snapshot_rate;
    player.SetSettings(client::Clamped(settings));
    if (fork_->link) player.SetLink(fork_->link->settings);
  }
}

void LabInstance::Step(std::span<const std::uint8_t> held, const LabTape& tape) {
  const std::int64_t frame = frames_;
  const auto frame32 = static_cast<std::int32_t>(frame);
  const Micros now = gui::VirtualFrameTime(static_cast<int>(frame));
  server::Server& server = lab_->server();
  if (options_.switch_encoding_frame > 0 && frame == options_.switch_encoding_frame) {
    server.SetSnapshotEncoding(server.config().snapshot_encoding == server::SnapshotEncoding::kDelta
                                   ? server::SnapshotEncoding::kFull
                                   : server::SnapshotEncoding::kDelta);
  }
  if (recorder_) {
    recorder_->BeginFrame(frame32);
    script_->Apply(frame32, now, server, clients_, &*recorder_);
  }
  if (fork_ && frame == fork_->frame) ApplyFork();
  lab_->Update(now, held);
  if (recorder_) recorder_->Record(frame32, now, server, const_clients_);
  explained_.clear();
  const std::span<const sim::PlayerCube> truth = server.world();
  for (std::size_t i = 0; i < clients_.size(); ++i) {
    samples_[i] = samplers_[i].Sample(frame, now, held[i], *clients_[i], truth, client::Tick{server.tick()});
    if (!explainer_) continue;
    explained_one_.clear();
    explainer_->Frame(i, samples_[i], *clients_[i], server, explained_one_);
    for (const timeline::Explanation& explanation : explained_one_) {
      lab_->timeline().Add(explanation);
      explained_.push_back(explanation);
    }
  }
  // What the tape holds for this frame (a live frame's are done as it is drawn, and on the tape after).
  for (const HandTag& tag : tape.hands.hand_tags) {
    if (tag.frame == frame) lab_->TagByHand(now, {tag.player, {tag.target}});
  }
  lab_->TakeHandTags();  // replayed, not new
  for (const LabTape::Reconnect& press : tape.reconnects) {
    if (press.frame == frame) lab_->Reconnect(press.player, now);
  }
  for (const LabTape::PlayerChange& change : tape.player_changes) {
    if (change.frame != frame || change.player >= clients_.size()) continue;
    clients_[change.player]->SetSettings(change.settings);
    clients_[change.player]->SetLink(change.link);
  }
  for (const LabTape::ServerChange& change : tape.server_changes) {
    if (change.frame == frame) change.controls.ApplyTo(server);
  }
  ++frames_;
}

LabBranch::LabBranch(const LabRunOptions& options, gui::LabConfig config, std::optional<LabFork> fork,
                     LabTape tape)
    : options_(options), config_(std::move(config)), fork_(std::move(fork)), tape_(std::move(tape)) {
  const std::size_t players = config_.players.size();
  // One timeline each from here on (a comparison's shared one is copied), so that live frames add to it.
  std::vector<InputTimeline>& inputs = tape_.hands.inputs;
  // assign(n, value) must not be given one of its own elements (libc++ frees them first): a copy.
  if (inputs.size() == 1 && players > 1) inputs.assign(players, InputTimeline(inputs.front()));
  held_.assign(players, 0);
  players_before_draw_.resize(players);
}

bool LabBranch::Start(std::string* error) {
  shown_ = LabInstance::Create(options_, config_, fork_, error);
  if (shown_ == nullptr) return false;
  NoteControls();
  return true;
}

bool LabBranch::Step(const std::function<void(std::vector<std::uint8_t>&)>& live) {
  const std::int64_t frame = shown_->frames();
  const bool live_frame = frame >= tape_.frames;
  if (live_frame) {
    std::fill(held_.begin(), held_.end(), std::uint8_t{0});
    if (live) live(held_);
    for (std::size_t i = 0; i < held_.size(); ++i) tape_.hands.RecordInput(i, frame, held_[i]);
    tape_.frames = frame + 1;
  } else {
    for (std::size_t i = 0; i < held_.size(); ++i) held_[i] = tape_.hands.ButtonsAt(i, frame);
  }
  shown_->Step(held_, tape_);
  if (static_cast<std::size_t>(frame) == ticks_.size()) ticks_.push_back(shown_->lab().server().tick());
  NoteControls();
  return live_frame;
}

void LabBranch::NoteControls() {
  for (std::size_t i = 0; i < players_before_draw_.size(); ++i) {
    const client::Client& player = shown_->lab().player(i);
    players_before_draw_[i] = {player.settings(), player.link()};
  }
  server_before_draw_ = ServerControls::Of(shown_->lab().server());
}

void LabBranch::KeepDrawn(const std::vector<gui::LabHandTag>& tags,
                          const std::vector<std::size_t>& reconnects) {
  const std::int64_t frame = this->frame();
  // Behind the edge (the tape playing) they go among the frames already there, in order.
  const auto after_frame = [frame](auto& list) {
    return std::upper_bound(list.begin(), list.end(), frame,
                            [](std::int64_t f, const auto& item) { return f < item.frame; });
  };
  std::vector<HandTag>& hand_tags = tape_.hands.hand_tags;
  for (const gui::LabHandTag& tag : tags)
    hand_tags.insert(after_frame(hand_tags), HandTag{frame, tag.player, tag.request.target});
  for (const std::size_t player : reconnects)
    tape_.reconnects.insert(after_frame(tape_.reconnects), LabTape::Reconnect{frame, player});
  for (std::size_t i = 0; i < players_before_draw_.size(); ++i) {
    const client::Client& player = shown_->lab().player(i);
    if (players_before_draw_[i] == std::pair(player.settings(), player.link())) continue;
    tape_.player_changes.insert(after_frame(tape_.player_changes),
                                LabTape::PlayerChange{frame, i, player.settings(), player.link()});
  }
  const ServerControls server = ServerControls::Of(shown_->lab().server());
  if (server != server_before_draw_)
    tape_.server_changes.insert(after_frame(tape_.server_changes), LabTape::ServerChange{frame, server});
  NoteControls();
}

void LabBranch::UndoDrawn() {
  for (std::size_t i = 0; i < players_before_draw_.size(); ++i) {
    client::Client& player = shown_->lab().player(i);
    const auto& [settings, link] = players_before_draw_[i];
    if (player.settings() != settings) player.SetSettings(settings);
    if (player.link() != link) player.SetLink(link);
  }
  server::Server& server = shown_->lab().server();
  if (ServerControls::Of(server) != server_before_draw_) server_before_draw_.ApplyTo(server);
}

std::optional<std::int64_t> LabBranch::SeekTo(std::int64_t target, std::string* error) {
  target = std::clamp<std::int64_t>(target, 0, std::max<std::int64_t>(0, tape_.frames - 1));
  if (target < frame()) {
    std::unique_ptr<LabInstance> fresh = LabInstance::Create(options_, config_, fork_, error);
    if (fresh == nullptr) return std::nullopt;
    // The explanation clicked (which asked for this seek) stays the one shown and highlighted.
    if (const std::optional<gui::GlitchAt> selected = shown_->lab().timeline().selection())
      fresh->lab().timeline().Select(*selected);
    shown_ = std::move(fresh);
  }
  std::int64_t run = 0;
  for (; frame() < target && !at_edge(); ++run) Step(nullptr);
  return run;
}

std::int64_t LabBranch::FrameOfTickStep(int ticks) const noexcept {
  const std::int64_t shown = frame();
  if (shown < 0 || static_cast<std::size_t>(shown) >= ticks_.size()) return shown;
  const std::uint32_t tick = ticks_[static_cast<std::size_t>(shown)];
  if (ticks > 0) {
    for (std::size_t f = static_cast<std::size_t>(shown) + 1; f < ticks_.size(); ++f)
      if (ticks_[f] != tick) return static_cast<std::int64_t>(f);
    return shown;
  }
  for (std::int64_t f = shown - 1; f >= 0; --f)
    if (ticks_[static_cast<std::size_t>(f)] != tick) return f;
  return shown;
}

std::unique_ptr<LabBranch> LabBranch::ForkAt(LabFork fork, std::string* error) const {
  fork.frame = frame() + 1;  // the shown frame is the last the two share
  std::optional<gui::LabConfig> config = ForkLabConfig(config_, fork, error);
  if (!config) return nullptr;
  // Entry i is player 2i in the fork and its copy 2i + 1: both play entry i's hands.
  LabTape tape;
  tape.frames = tape_.frames;
  tape.hands.inputs.clear();
  for (std::size_t j = 0; j < config->players.size(); ++j)
    tape.hands.inputs.push_back(tape_.hands.inputs[j / 2]);
  const std::size_t kept = config->players.size() / 2;
  for (const HandTag& tag : tape_.hands.hand_tags) {
    if (tag.player >= kept) continue;
    tape.hands.hand_tags.push_back({tag.frame, 2 * tag.player, tag.target});
    tape.hands.hand_tags.push_back({tag.frame, 2 * tag.player + 1, tag.target});
  }
  for (const LabTape::Reconnect& press : tape_.reconnects) {
    if (press.player >= kept) continue;
    tape.reconnects.push_back({press.frame, 2 * press.player});
    tape.reconnects.push_back({press.frame, 2 * press.player + 1});
  }
  for (const LabTape::PlayerChange& change : tape_.player_changes) {
    if (change.player >= kept) continue;
    LabTape::PlayerChange original = change;
    original.player = 2 * change.player;
    tape.player_changes.push_back(original);
    // After the fork the copy keeps its own settings.
    if (change.frame < fork.frame) {
      original.player += 1;
      tape.player_changes.push_back(original);
    }
  }
  tape.server_changes = tape_.server_changes;
  auto branch = std::make_unique<LabBranch>(options_, std::move(*config), std::move(fork), std::move(tape));
  if (!branch->Start(error) || !branch->SeekTo(frame(), error)) return nullptr;
  return branch;
}

}  // namespace netcube::apps
