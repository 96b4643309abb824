#include "probe.h"

#include <emscripten/emscripten.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lab_digest.h"
#include "netcube/client/input_script.h"
#include "runner.h"

namespace netcube::web {
namespace {

// One frame as the players drew it.
struct FrameRecord {
  std::int64_t frame = 0;
  double at_ms = 0.0;  // the page's clock
  std::uint32_t tick = 0;
  std::array<client::Vec2, 2> drawn{};    // players 1 and 2's own cubes as drawn
  std::array<std::uint8_t, 2> buttons{};  // the buttons of each one's newest input (0 when none is pending)
  std::array<bool, 2> prediction{};
};

constexpr std::size_t kHistory = 1200;  // 20 s at 60 frames a second

struct Probe {
  gui::Lab* lab = nullptr;
  std::int64_t frames = 0;
  double first_frame_ms = -1.0;
  std::deque<FrameRecord> history;
  std::optional<std::pair<std::size_t, bool>> set_prediction;  // applied as the next frame is drawn
  std::string text;  // the last string returned (ccall copies it before the next call)
};

Probe& TheProbe() {
  static Probe probe;
  return probe;
}

const char* Return(std::string text) {
  TheProbe().text = std::move(text);
  return TheProbe().text.c_str();
}

std::uint8_t NewestButtons(const client::Client& player) {
  const client::PendingInputs& pending = player.pending();
  return pending.empty() ? 0 : pending[pending.size() - 1].input.buttons;
}

}  // namespace

void ProbeFrame(gui::Lab& lab, double now_ms) {
  Probe& probe = TheProbe();
  probe.lab = &lab;
  if (probe.set_prediction && probe.set_prediction->first < lab.players()) {
    client::Client& player = lab.player(probe.set_prediction->first);
    client::Settings settings = player.settings();
    settings.prediction = probe.set_prediction->second;
    player.SetSettings(settings);
  }
  probe.set_prediction.reset();
  // The first frame is on screen once the browser has run the next one.
  if (probe.frames == 1) probe.first_frame_ms = now_ms;
  FrameRecord record{probe.frames, now_ms, lab.server().tick(), {}, {}, {}};
  for (std::size_t i = 0; i < std::min<std::size_t>(2, lab.players()); ++i) {
    record.drawn[i] = lab.player(i).local().drawn;
    record.buttons[i] = NewestButtons(lab.player(i));
    record.prediction[i] = lab.player(i).settings().prediction;
  }
  probe.history.push_back(record);
  if (probe.history.size() > kHistory) probe.history.pop_front();
  ++probe.frames;
}

}  // namespace netcube::web

using netcube::web::TheProbe;

extern "C" {

// Frames drawn since the page started, and when the first one was on screen (performance.now(), ms since
// the navigation: the second frame's start; -1 before).
EMSCRIPTEN_KEEPALIVE int netcube_probe_frames() { return static_cast<int>(TheProbe().frames); }
EMSCRIPTEN_KEEPALIVE double netcube_probe_first_frame_ms() { return TheProbe().first_frame_ms; }

// The server's tick (the game's time: 60 a second of it), -1 before the first frame.
EMSCRIPTEN_KEEPALIVE int netcube_probe_server_tick() {
  return TheProbe().lab == nullptr ? -1 : static_cast<int>(TheProbe().lab->server().tick());
}

// Every player connected, its cube at rest and every input acknowledged (client::Client::Settled).
EMSCRIPTEN_KEEPALIVE int netcube_probe_settled() {
  netcube::gui::Lab* lab = TheProbe().lab;
  if (lab == nullptr) return 0;
  for (std::size_t i = 0; i < lab->players(); ++i) {
    if (!lab->player(i).Settled()) return 0;
  }
  return 1;
}

// The frames recorded from frame `since` on, as JSON:
// [{"frame":F,"ms":PAGE_CLOCK,"tick":T,"players":[{"x":..,"y":.., "buttons":B,"prediction":true},..]},..].
EMSCRIPTEN_KEEPALIVE const char* netcube_probe_history(int since) {
  std::string json = "[";
  for (const netcube::web::FrameRecord& record : TheProbe().history) {
    if (record.frame < since) continue;
    char line[320];
    std::snprintf(
        line, sizeof line,
        "%s{\"frame\":%lld,\"ms\":%.3f,\"tick\":%u,\"players\":[{\"x\":%.17g,\"y\":%.17g,\"buttons\":%u,"
        "\"prediction\":%s},{\"x\":%.17g,\"y\":%.17g,\"buttons\":%u,\"prediction\":%s}]}",
        json.size() > 1 ? "," : "", static_cast<long long>(record.frame), record.at_ms, record.tick,
        record.drawn[0].x, record.drawn[0].y, unsigned{record.buttons[0]},
        record.prediction[0] ? "true" : "false", record.drawn[1].x, record.drawn[1].y,
        unsigned{record.buttons[1]}, record.prediction[1] ? "true" : "false");
    json += line;
  }
  return netcube::web::Return(json + "]");
}

// Ticks or unticks player `player`'s (0-based) prediction as its panel's checkbox does, while the next
// frame is drawn.
EMSCRIPTEN_KEEPALIVE void netcube_probe_set_prediction(int player, int on) {
  TheProbe().set_prediction = std::pair(static_cast<std::size_t>(player), on != 0);
}

// The digests of `frames` frames of the default lab on the virtual clock, players seeded `seed` and `seed`
// + 1 and driven by the two scripts (netcube-client --lab --seed S --script A --script2 B --frames N
// --digests writes the same lines), as "frame digest" lines; "error: ..." when a script or the lab is bad.
EMSCRIPTEN_KEEPALIVE const char* netcube_probe_scripted_digests(const char* script1, const char* script2,
                                                                int seed, int frames) {
  netcube::apps::LabRunOptions options;
  std::string error;
  const char* scripts[] = {script1, script2};
  for (std::size_t i = 0; i < 2; ++i) {
    options.scripts[i] = netcube::client::InputScript::Parse(scripts[i], &error);
    if (!options.scripts[i])
      return netcube::web::Return("error: script " + std::to_string(i + 1) + ": " + error);
  }
  for (std::size_t i = 0; i < options.lab.players.size(); ++i)
    options.lab.players[i].client.seed = static_cast<std::uint64_t>(seed) + i;
  const std::vector<std::uint64_t> digests =
      netcube::apps::ScriptedLabDigests(std::move(options), frames, &error);
  if (digests.empty()) return netcube::web::Return("error: " + error);
  std::string lines;
  for (std::size_t frame = 0; frame < digests.size(); ++frame)
    lines += netcube::apps::DigestLine(static_cast<std::int64_t>(frame), digests[frame]);
  return netcube::web::Return(lines);
}

}  // extern "C"
