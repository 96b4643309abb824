#include "session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "netcube/protocol/messages.h"
#include "netcube/sim/move.h"
#include "netcube/timeline/link_script.h"
#include "settings_json.h"

namespace netcube::apps {
namespace {

// Frames are 1/60 s: a day of them is more than any session needs, and keeps every product in range.
constexpr std::int64_t kMaxFrames = 24LL * 3600 * 60;
// As --tag-interval-ms allows.
constexpr double kMaxTagIntervalMs = 60'000.0;
// A hand tag's target is a point under the mouse over an arena: far beyond any arena is no such point.
constexpr double kMaxTargetUnits = 1e6;
constexpr std::size_t kMaxLinkScriptChars = 16384;

// Reads a session's fields by name and remembers the last one, so that an error can say which field of the
// file is wrong.
class FieldReader {
 public:
  const nlohmann::json& At(const nlohmann::json& object, const char* name) {
    field_ = name;
    return object.at(name);
  }
  template <class T>
  T Get(const nlohmann::json& object, const char* name) {
    return At(object, name).get<T>();
  }
  // A number in [0, max].
  double Range(const nlohmann::json& object, const char* name, double max) {
    const double value = Get<double>(object, name);
    if (!(value >= 0.0 && value <= max))
      throw std::out_of_range("out of [0, " + nlohmann::json(max).dump() + "]");
    return value;
  }
  // Blames `name` for the next error.
  void Name(const char* name) { field_ = name; }
  const std::string& field() const noexcept { return field_; }

 private:
  std::string field_;
};

client::Settings ReadSettings(const nlohmann::json& j, FieldReader& read) {
  client::Settings s;
  s.prediction = read.Get<bool>(j, "prediction");
  s.reconciliation = read.Get<bool>(j, "reconciliation");
  s.interpolation = read.Get<bool>(j, "interpolation");
  s.smoothing = read.Get<bool>(j, "smoothing");
  s.extrapolation = read.Get<bool>(j, "extrapolation");
  s.adaptive_delay = read.Get<bool>(j, "adaptive_delay");
  s.interp_delay_ms = read.Get<int>(j, "interp_delay_ms");
  s.smoothing_ms = read.Get<int>(j, "smoothing_ms");
  s.redundancy = read.Get<int>(j, "redundancy");
  s.input_pacing = read.Get<bool>(j, "input_pacing");
  s.adaptive_snapshot_rate = read.Get<bool>(j, "adaptive_snapshot_rate");
  // Sessions recorded before the other family existed did not use it.
  if (j.contains("predict_others")) s.predict_others = read.Get<bool>(j, "predict_others");
  if (j.contains("predict_window_ms")) s.predict_window_ms = read.Get<int>(j, "predict_window_ms");
  if (j.contains("predict_to_input_tick")) {
    s.predict_to_input_tick = read.Get<bool>(j, "predict_to_input_tick");
  }
  if (client::Clamped(s) != s) {
    read.Name("settings");  // which number is out of range is in the message
    throw std::out_of_range("a number is out of its range (" + client::TechniquesOf(s) + ")");
  }
  return s;
}

// nlohmann's message without its "[json.exception.type_error.302] " prefix.
std::string Reason(const nlohmann::json::exception& e) {
  const std::string what = e.what();
  const std::size_t end = what.find("] ");
  return end == std::string::npos ? what : what.substr(end + 2);
}

const InputTimeline& TimelineOf(const std::vector<InputTimeline>& inputs, std::size_t player) {
  static const InputTimeline kNone;
  if (inputs.size() == 1) return inputs[0];
  return player < inputs.size() ? inputs[player] : kNone;
}

// The parts of a session file, each read into `session`: why it is wrong, or empty. A missing or mistyped
// field throws, and ParseSession names it.
std::string ReadEntries(const nlohmann::json& doc, FieldReader& read, Session& session) {
  for (const nlohmann::json& entry : read.At(doc, "entries")) {
    std::string label = read.Get<std::string>(entry, "label");
    session.entries.push_back({std::move(label), ReadSettings(read.At(entry, "settings"), read)});
  }
  // One entry is a bot's run (or a lab's replayed with --compare); more are a comparison.
  if (session.entries.empty() || session.entries.size() > client::kMaxCompareEntries) {
    return "a session holds 1 to " + std::to_string(client::kMaxCompareEntries) + " entries";
  }
  return {};
}

// The link, seed, rates, tag interval and length.
std::string ReadNetwork(const nlohmann::json& doc, FieldReader& read, Session& session) {
  const nlohmann::json& link = read.At(doc, "link");
  session.link.latency_ms = read.Range(link, "latency_ms", 10'000.0);
  session.link.jitter_ms = read.Range(link, "jitter_ms", 10'000.0);
  session.link.loss = read.Range(link, "loss", 1.0);
  session.link.duplicate = read.Range(link, "duplicate", 1.0);
  session.link.reorder = read.Range(link, "reorder", 1.0);
  session.seed = read.Get<std::uint64_t>(doc, "seed");
  session.compared = read.Get<bool>(doc, "compared");
  session.tick_rate = read.Get<int>(doc, "tick_rate");
  session.snapshot_rate = read.Get<int>(doc, "snapshot_rate");
  const auto valid_rate = [](int rate) { return rate >= 1 && rate <= protocol::kMaxRate; };
  if (!valid_rate(session.tick_rate) || !valid_rate(session.snapshot_rate)) {
    return "tick_rate and snapshot_rate must be within [1, " + std::to_string(protocol::kMaxRate) + "]";
  }
  if (session.snapshot_rate > session.tick_rate) {
    return "snapshot_rate " + std::to_string(session.snapshot_rate) + " is more than tick_rate " +
           std::to_string(session.tick_rate) + ": a server sends at most one snapshot a tick";
  }
  session.tag_interval_ms = static_cast<int>(read.Range(doc, "tag_interval_ms", kMaxTagIntervalMs));
  session.frames = read.Get<std::int64_t>(doc, "frames");
  if (session.frames < 1 || session.frames > kMaxFrames) {
    return "frames must be within [1, " + std::to_string(kMaxFrames) + "]";
  }
  return {};
}

// The keys: one timeline for every entry, or one per entry, of [frame, buttons] changes.
std::string ReadInputs(const nlohmann::json& doc, FieldReader& read, Session& session) {
  const nlohmann::json& inputs = read.At(doc, "inputs");
  if (inputs.size() != 1 && inputs.size() != session.entries.size()) {
    return "inputs holds one timeline for every entry, or one per entry";
  }
  session.inputs.assign(inputs.size(), {});
  for (std::size_t player = 0; player < inputs.size(); ++player) {
    InputTimeline& timeline = session.inputs[player];
    for (const nlohmann::json& change : inputs.at(player)) {
      const auto frame = change.at(0).get<std::int64_t>();
      const auto buttons = change.at(1).get<unsigned>();
      const bool ordered = timeline.empty() || frame > timeline.back().frame;
      if (!ordered || frame < 0 || frame >= session.frames || (buttons & ~unsigned{sim::kButtonMask}) != 0) {
        return "input change at frame " + std::to_string(frame) +
               ": frames must increase within the "
               "session and buttons be sim::Button bits";
      }
      timeline.push_back({frame, static_cast<std::uint8_t>(buttons)});
    }
  }
  return {};
}

// The tags by hand: [frame, entry] or [frame, entry, x, y], in order.
std::string ReadHandTags(const nlohmann::json& doc, FieldReader& read, Session& session) {
  for (const nlohmann::json& item : read.At(doc, "hand_tags")) {
    HandTag tag;
    tag.frame = item.at(0).get<std::int64_t>();
    tag.player = item.at(1).get<std::size_t>();
    const bool ordered = session.hand_tags.empty() || tag.frame >= session.hand_tags.back().frame;
    const bool targeted = item.size() == 4;
    if (targeted) tag.target = client::Vec2{item.at(2).get<double>(), item.at(3).get<double>()};
    const auto in_reach = [](double v) { return std::isfinite(v) && std::abs(v) <= kMaxTargetUnits; };
    if (!ordered || tag.frame < 0 || tag.frame >= session.frames || tag.player >= session.entries.size() ||
        (item.size() != 2 && !targeted) ||
        (tag.target && !(in_reach(tag.target->x) && in_reach(tag.target->y)))) {
      return "hand tag at frame " + std::to_string(tag.frame) +
             ": [frame, entry] or [frame, entry, x, y], "
             "frames in order within the session, x and y finite";
    }
    session.hand_tags.push_back(tag);
  }
  return {};
}

// The link script, when the session has one.
std::string ReadLinkScript(const nlohmann::json& doc, FieldReader& read, Session& session) {
  if (!doc.contains("link_script")) return {};
  session.link_script = read.Get<std::string>(doc, "link_script");
  if (session.link_script.size() > kMaxLinkScriptChars) {
    return "link_script: longer than " + std::to_string(kMaxLinkScriptChars) + " characters";
  }
  std::string why;
  if (!timeline::ParseLinkScript(session.link_script, &why)) return "link_script: " + why;
  return {};
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
  const auto after =
      std::upper_bound(timeline.begin(), timeline.end(), frame,
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
    if (change.frame > from)
      segments.push_back({buttons, SessionFrameTime(change.frame) - SessionFrameTime(from)});
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
  const nlohmann::json doc = {{"netcube_session", kSessionFormat},
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
  // Only when there is one: older sessions, and readers before it, stay as they were.
  if (!session.link_script.empty()) {
    nlohmann::json with_script = doc;
    with_script["link_script"] = session.link_script;
    return with_script.dump(1) + "\n";
  }
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
  FieldReader read;
  try {
    const nlohmann::json doc = nlohmann::json::parse(json_text);
    if (!doc.is_object()) {
      *error = "not a netcube session: the file holds no JSON object";
      return std::nullopt;
    }
    if (read.Get<int>(doc, "netcube_session") != kSessionFormat) {
      *error = "not a netcube session of format " + std::to_string(kSessionFormat);
      return std::nullopt;
    }
    Session session;
    // Each part in the file's order, the first that is wrong said.
    for (const auto part : {ReadEntries, ReadNetwork, ReadInputs, ReadHandTags, ReadLinkScript}) {
      if (std::string why = part(doc, read, session); !why.empty()) {
        *error = std::move(why);
        return std::nullopt;
      }
    }
    return session;
  } catch (const nlohmann::json::parse_error& e) {
    *error = "not JSON: " + Reason(e);
  } catch (const nlohmann::json::out_of_range& e) {
    *error = "field '" + read.field() + "': " + (e.id == 403 ? std::string("missing") : Reason(e));
  } catch (const nlohmann::json::exception& e) {
    *error = "field '" + read.field() + "': " + Reason(e);
  } catch (const std::out_of_range& e) {
    *error = "field '" + read.field() + "': " + e.what();
  }
  return std::nullopt;
}

}  // namespace netcube::apps
