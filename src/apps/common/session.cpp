#include "session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "netcube/protocol/messages.h"
#include "netcube/sim/move.h"

namespace netcube::apps {
namespace {

// Frames are 1/60 s: a day of them is more than any session needs, and keeps every product in range.
constexpr std::int64_t kMaxFrames = 24LL * 3600 * 60;
// As --tag-interval-ms allows.
constexpr double kMaxTagIntervalMs = 60'000.0;
// A hand tag's target is a point under the mouse over an arena: far beyond any arena is no such point.
constexpr double kMaxTargetUnits = 1e6;

nlohmann::json SettingsJson(const client::Settings& s) {
  return {{"prediction", s.prediction},         {"reconciliation", s.reconciliation},
          {"interpolation", s.interpolation},   {"smoothing", s.smoothing},
          {"extrapolation", s.extrapolation},   {"adaptive_delay", s.adaptive_delay},
          {"interp_delay_ms", s.interp_delay_ms}, {"smoothing_ms", s.smoothing_ms},
          {"redundancy", s.redundancy},         {"input_pacing", s.input_pacing},
          {"adaptive_snapshot_rate", s.adaptive_snapshot_rate}};
}

client::Settings ReadSettings(const nlohmann::json& j) {
  client::Settings s;
  s.prediction = j.at("prediction").get<bool>();
  s.reconciliation = j.at("reconciliation").get<bool>();
  s.interpolation = j.at("interpolation").get<bool>();
  s.smoothing = j.at("smoothing").get<bool>();
  s.extrapolation = j.at("extrapolation").get<bool>();
  s.adaptive_delay = j.at("adaptive_delay").get<bool>();
  s.interp_delay_ms = j.at("interp_delay_ms").get<int>();
  s.smoothing_ms = j.at("smoothing_ms").get<int>();
  s.redundancy = j.at("redundancy").get<int>();
  s.input_pacing = j.at("input_pacing").get<bool>();
  s.adaptive_snapshot_rate = j.at("adaptive_snapshot_rate").get<bool>();
  if (client::Clamped(s) != s) throw std::out_of_range("a setting is out of its range");
  return s;
}

double ReadRange(const nlohmann::json& j, const char* key, double max) {
  const double value = j.at(key).get<double>();
  if (!(value >= 0.0 && value <= max)) throw std::out_of_range(std::string(key) + " is out of range");
  return value;
}

const InputTimeline& TimelineOf(const std::vector<InputTimeline>& inputs, std::size_t player) {
  static const InputTimeline kNone;
  if (inputs.size() == 1) return inputs[0];
  return player < inputs.size() ? inputs[player] : kNone;
}

}  // namespace

void Session::RecordInput(std::size_t player, std::int64_t frame, std::uint8_t buttons) {
  if (player >= inputs.size()) inputs.resize(player + 1);
  InputTimeline& timeline = inputs[player];
  if (timeline.empty() ? buttons == 0 : timeline.back().buttons == buttons) return;
  timeline.push_back({frame, buttons});
}

std::uint8_t Session::ButtonsAt(std::size_t player, std::int64_t frame) const noexcept {
  const InputTimeline& timeline = TimelineOf(inputs, player);
  const auto after = std::upper_bound(timeline.begin(), timeline.end(), frame,
                                      [](std::int64_t f, const InputChange& change) { return f < change.frame; });
  return after == timeline.begin() ? 0 : std::prev(after)->buttons;
}

bool Session::ReplaceEntries(std::vector<client::TechniqueSet> replacement, std::string* error) {
  if (inputs.size() > 1 && inputs.size() != replacement.size()) {
    *error = "the session's " + std::to_string(inputs.size()) + " players each have their own keys: give " +
             std::to_string(inputs.size()) + " entries";
    return false;
  }
  entries = std::move(replacement);
  std::erase_if(hand_tags, [this](const HandTag& tag) { return tag.player >= entries.size(); });
  return true;
}

client::InputScript Session::Script(std::size_t player) const {
  std::vector<client::InputScript::Segment> segments;
  std::int64_t from = 0;
  std::uint8_t buttons = 0;
  for (const InputChange& change : TimelineOf(inputs, player)) {
    if (change.frame > from) segments.push_back({buttons, SessionFrameTime(change.frame) - SessionFrameTime(from)});
    from = change.frame;
    buttons = change.buttons;
  }
  if (frames > from) segments.push_back({buttons, SessionFrameTime(frames) - SessionFrameTime(from)});
  return client::InputScript::Timeline(std::move(segments));
}

std::string SessionToJson(const Session& session) {
  nlohmann::json entries = nlohmann::json::array();
  for (const client::TechniqueSet& entry : session.entries) {
    entries.push_back({{"label", entry.label}, {"settings", SettingsJson(entry.settings)}});
  }
  nlohmann::json inputs = nlohmann::json::array();
  for (const InputTimeline& timeline : session.inputs) {
    nlohmann::json changes = nlohmann::json::array();
    for (const InputChange& change : timeline) changes.push_back({change.frame, change.buttons});
    inputs.push_back(std::move(changes));
  }
  nlohmann::json hand_tags = nlohmann::json::array();
  for (const HandTag& tag : session.hand_tags) {
    nlohmann::json item = {tag.frame, tag.player};
    if (tag.target) {
      item.push_back(tag.target->x);
      item.push_back(tag.target->y);
    }
    hand_tags.push_back(std::move(item));
  }
  const transport::LinkSettings& link = session.link;
  const nlohmann::json doc = {
      {"netcube_session", kSessionFormat},
      {"entries", entries},
      {"link",
       {{"latency_ms", link.latency_ms},
        {"jitter_ms", link.jitter_ms},
        {"loss", link.loss},
        {"duplicate", link.duplicate},
        {"reorder", link.reorder}}},
      {"seed", session.seed},
      {"compared", session.compared},
      {"tick_rate", session.tick_rate},
      {"snapshot_rate", session.snapshot_rate},
      {"tag_interval_ms", session.tag_interval_ms},
      {"frames", session.frames},
      {"inputs", inputs},
      {"hand_tags", hand_tags}};
  return doc.dump(1) + "\n";
}

std::string CompareTitle(const Session& session) {
  std::string title;
  for (const client::TechniqueSet& entry : session.entries) {
    if (!title.empty()) title += " vs ";
    title += entry.label;
  }
  char network[160];
  std::snprintf(network, sizeof network, ": %.0f ms round trip, +-%.0f ms jitter, %.0f%% loss, seed %llu",
                2.0 * session.link.latency_ms, session.link.jitter_ms, 100.0 * session.link.loss,
                static_cast<unsigned long long>(session.seed));
  return title + network;
}

std::optional<Session> ParseSession(std::string_view json_text, std::string* error) {
  try {
    const nlohmann::json doc = nlohmann::json::parse(json_text);
    if (doc.at("netcube_session").get<int>() != kSessionFormat) {
      *error = "not a netcube session of format " + std::to_string(kSessionFormat);
      return std::nullopt;
    }
    Session session;
    for (const nlohmann::json& entry : doc.at("entries")) {
      session.entries.push_back({entry.at("label").get<std::string>(), ReadSettings(entry.at("settings"))});
    }
    // One entry is a bot's run (or a lab's replayed with --compare); more are a comparison.
    if (session.entries.empty() || session.entries.size() > client::kMaxCompareEntries) {
      *error = "a session holds 1 to " + std::to_string(client::kMaxCompareEntries) + " entries";
      return std::nullopt;
    }
    const nlohmann::json& link = doc.at("link");
    session.link.latency_ms = ReadRange(link, "latency_ms", 10'000.0);
    session.link.jitter_ms = ReadRange(link, "jitter_ms", 10'000.0);
    session.link.loss = ReadRange(link, "loss", 1.0);
    session.link.duplicate = ReadRange(link, "duplicate", 1.0);
    session.link.reorder = ReadRange(link, "reorder", 1.0);
    session.seed = doc.at("seed").get<std::uint64_t>();
    session.compared = doc.at("compared").get<bool>();
    session.tick_rate = doc.at("tick_rate").get<int>();
    session.snapshot_rate = doc.at("snapshot_rate").get<int>();
    const auto valid_rate = [](int rate) { return rate >= 1 && rate <= protocol::kMaxRate; };
    if (!valid_rate(session.tick_rate) || !valid_rate(session.snapshot_rate)) {
      *error = "tick_rate and snapshot_rate must be within [1, " + std::to_string(protocol::kMaxRate) + "]";
      return std::nullopt;
    }
    session.tag_interval_ms = static_cast<int>(ReadRange(doc, "tag_interval_ms", kMaxTagIntervalMs));
    session.frames = doc.at("frames").get<std::int64_t>();
    if (session.frames < 1 || session.frames > kMaxFrames) {
      *error = "frames must be within [1, " + std::to_string(kMaxFrames) + "]";
      return std::nullopt;
    }
    const nlohmann::json& inputs = doc.at("inputs");
    if (inputs.size() != 1 && inputs.size() != session.entries.size()) {
      *error = "inputs holds one timeline for every entry, or one per entry";
      return std::nullopt;
    }
    session.inputs.assign(inputs.size(), {});
    for (std::size_t player = 0; player < inputs.size(); ++player) {
      InputTimeline& timeline = session.inputs[player];
      for (const nlohmann::json& change : inputs.at(player)) {
        const auto frame = change.at(0).get<std::int64_t>();
        const auto buttons = change.at(1).get<unsigned>();
        const bool ordered = timeline.empty() || frame > timeline.back().frame;
        if (!ordered || frame < 0 || frame >= session.frames || (buttons & ~unsigned{sim::kButtonMask}) != 0) {
          *error = "input change at frame " + std::to_string(frame) + ": frames must increase within the "
                   "session and buttons be sim::Button bits";
          return std::nullopt;
        }
        timeline.push_back({frame, static_cast<std::uint8_t>(buttons)});
      }
    }
    for (const nlohmann::json& item : doc.at("hand_tags")) {
      HandTag tag;
      tag.frame = item.at(0).get<std::int64_t>();
      tag.player = item.at(1).get<std::size_t>();
      const bool ordered = session.hand_tags.empty() || tag.frame >= session.hand_tags.back().frame;
      const bool targeted = item.size() == 4;
      if (targeted) tag.target = client::Vec2{item.at(2).get<double>(), item.at(3).get<double>()};
      const auto in_reach = [](double v) { return std::isfinite(v) && std::abs(v) <= kMaxTargetUnits; };
      if (!ordered || tag.frame < 0 || tag.frame >= session.frames || tag.player >= session.entries.size() ||
          (item.size() != 2 && !targeted) || (tag.target && !(in_reach(tag.target->x) && in_reach(tag.target->y)))) {
        *error = "hand tag at frame " + std::to_string(tag.frame) + ": [frame, entry] or [frame, entry, x, y], "
                 "frames in order within the session, x and y finite";
        return std::nullopt;
      }
      session.hand_tags.push_back(tag);
    }
    return session;
  } catch (const std::exception& e) {
    *error = std::string("invalid session: ") + e.what();
    return std::nullopt;
  }
}

}  // namespace netcube::apps
