#pragma once
// A session as a file: its players (one technique set per entry), the network they sit behind (link
// settings and a conditioner seed: the same for every entry of a comparison, seed + i for the bot's
// independent players), the server's rates, the scripted tags' interval, and the input timelines, frame by
// frame: one that drives every entry (a comparison), or one per entry (a bot's players, each with its own
// keys), and the tags made by hand. --record writes it and --replay reads it back, so the same file replays
// the same hands on the same network. Replacing the entries (--compare with --replay) replays them with other
// techniques.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netcube/client/input_script.h"
#include "netcube/client/settings.h"
#include "netcube/client/units.h"
#include "netcube/sim/time.h"
#include "netcube/transport/link_conditioner.h"

namespace netcube::apps {

inline constexpr int kSessionFormat = 5;  // 5: settings carry adaptive_snapshot_rate
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

// A tag made by hand (the tag key, a click) at `frame` by entry `player`: toward `target` (an arena point,
// units) when the mouse was over its arena, else along the cube's motion (client::HandAim).
struct HandTag {
  std::int64_t frame = 0;
  std::size_t player = 0;
  std::optional<client::Vec2> target;
  friend bool operator==(const HandTag&, const HandTag&) = default;
};

// One player's buttons: increasing frames, each a change from the one before.
using InputTimeline = std::vector<InputChange>;

struct Session {
  std::vector<client::TechniqueSet> entries;
  transport::LinkSettings link;
  std::uint64_t seed = 1;
  // True: the entries are compared, each behind a conditioner seeded with `seed` itself (the same network)
  // on a server where their cubes spawn alike and never collide. False: independent players, entry i behind
  // seed + i, on a server with collisions (the bot's players).
  bool compared = true;
  int tick_rate = 60;
  int snapshot_rate = 20;
  int tag_interval_ms = 0;               // scripted tags (LabConfig::tag_interval_ms); 0 = none
  std::int64_t frames = 0;               // how long the session ran
  std::vector<InputTimeline> inputs{1};  // one shared by every entry, or one per entry
  std::vector<HandTag> hand_tags;        // frames in order
  std::string link_script;               // the scripted link changes, as written (empty: none)

  // The conditioner seed of entry `index`.
  std::uint64_t SeedOf(std::size_t index) const noexcept { return compared ? seed : seed + index; }
  // Notes `buttons` as held by `player` at `frame` (each player's frames in increasing order); only changes
  // are kept. Recording any player but 0 makes the timelines one per player.
  void RecordInput(std::size_t player, std::int64_t frame, std::uint8_t buttons);
  // The buttons `player` holds at `frame`.
  std::uint8_t ButtonsAt(std::size_t player, std::int64_t frame) const noexcept;
  // `player`'s timeline as a script of `frames` frames (the bot plays it).
  client::InputScript Script(std::size_t player) const;
  // Replaces the entries (a replay with other techniques); false with `error` set when the session's
  // players each have their own keys and `entries` are not as many. Fewer entries drop the others' tags.
  bool ReplaceEntries(std::vector<client::TechniqueSet> entries, std::string* error);

  friend bool operator==(const Session&, const Session&) = default;
};

std::string SessionToJson(const Session& session);
// One line saying what the session compares on which network, e.g. "naive vs predicted vs full: 250 ms
// round trip, +-20 ms jitter, 0% loss, seed 1".
std::string CompareTitle(const Session& session);
// nullopt with `error` set when the text is not a valid session (every bound is checked).
std::optional<Session> ParseSession(std::string_view json_text, std::string* error);

}  // namespace netcube::apps
