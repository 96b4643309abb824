#pragma once
// A comparison session as a file: what it compares (one technique set per entry), the network every entry
// sits behind (link settings and the one conditioner seed they share), the server's rates, the scripted
// tags' interval, and the input timeline that drives every entry, frame by frame. --record writes it and
// --replay reads it back, so the same file replays the same hands on the same network. Replacing the
// entries (--compare with --replay) replays them with other techniques.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netcube/client/input_script.h"
#include "netcube/client/settings.h"
#include "netcube/sim/time.h"
#include "netcube/transport/link_conditioner.h"

namespace netcube::apps {

inline constexpr int kSessionFormat = 1;
// A session's frames are the lab's (gui::VirtualFrameTime): frame i starts i/60 s after the start. The bot
// counts its frames from when its script starts.
inline constexpr std::int64_t kSessionFramesPerSecond = 60;
constexpr Micros SessionFrameTime(std::int64_t frame) noexcept {
  return Micros(frame * 1'000'000 / kSessionFramesPerSecond);
}
// The frame under way `elapsed` after the start.
constexpr std::int64_t SessionFrameAt(Micros elapsed) noexcept {
  return elapsed.count() * kSessionFramesPerSecond / 1'000'000;
}

// The buttons held from `frame` on, until the next change.
struct InputChange {
  std::int64_t frame = 0;
  std::uint8_t buttons = 0;
  friend bool operator==(const InputChange&, const InputChange&) = default;
};

struct Session {
  std::vector<client::TechniqueSet> entries;
  transport::LinkSettings link;
  std::uint64_t seed = 1;  // every entry's link conditioner
  int tick_rate = 60;
  int snapshot_rate = 20;
  int tag_interval_ms = 0;          // scripted tags (LabConfig::tag_interval_ms); 0 = none
  std::int64_t frames = 0;          // how long the session ran
  std::vector<InputChange> inputs;  // increasing frames, each a change from the one before

  // Notes `buttons` as held at `frame` (frames in increasing order); only changes are kept.
  void RecordInput(std::int64_t frame, std::uint8_t buttons);
  // The buttons held at `frame`.
  std::uint8_t ButtonsAt(std::int64_t frame) const noexcept;
  // The input timeline as a script of `frames` frames (the bot plays it).
  client::InputScript Script() const;

  friend bool operator==(const Session&, const Session&) = default;
};

std::string SessionToJson(const Session& session);
// One line saying what the session compares on which network, e.g. "naive vs predicted vs full: 250 ms
// round trip, +-20 ms jitter, 0% loss, seed 1".
std::string CompareTitle(const Session& session);
// nullopt with `error` set when the text is not a valid session (every bound is checked).
std::optional<Session> ParseSession(std::string_view json_text, std::string* error);

}  // namespace netcube::apps
