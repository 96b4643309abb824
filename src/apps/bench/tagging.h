#pragma once
// The tagging scenario, on a virtual clock (1 ms steps; the loopback sockets are real): one server with
// collisions off and players with a profile's link, moving at random and tagging the nearest remote cube
// exactly as they draw it at the cooldown rate (the bot's tag script), once with lag compensation on and
// once off. It measures the hit rate, the server's rewind against the players' round trip and
// interpolation delay, and the victim's view: how long before a tag's result reached the victim its cube
// had left the spot where it was hit.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "netcube/client/settings.h"
#include "netcube/transport/link_profile.h"
#include "netcube/transport/network.h"
#include "scale.h"

namespace netcube::bench {

struct TagSettings {
  transport::LinkProfile profile;
  bool lag_compensation = true;
  // The shooters' techniques: the defaults (interpolation), or predict_others (the other family: a cube
  // drawn at the present is claimed, and judged, at the present).
  client::Settings client;
  int players = 8;
  double play_s = 20.0;
  std::uint64_t seed = 1;
  transport::NetworkKind network = transport::NetworkKind::kMemory;  // between the server and the players
};

struct TagResult {
  TagSettings settings;
  std::uint64_t tags_judged = 0;
  std::uint64_t tags_hit = 0;
  std::uint64_t tags_refused = 0;
  std::uint64_t tags_capped = 0;
  double hit_rate = 0.0;  // hits / judged
  // The server's rewind per judged tag (with compensation off: what it would have granted).
  double rewind_ms_mean = 0.0;
  double rewind_ms_max = 0.0;
  // What the shooters had: round trip (mean of the players' means) and interpolation delay (mean at the
  // end); their sum plus half a snapshot interval is about the rewind a tag needs.
  double rtt_ms = 0.0;
  double interp_delay_ms = 0.0;
  // Victim's view over every tag taken (ms, on the victim's clock).
  std::uint64_t victim_samples = 0;
  double victim_view_ms_mean = 0.0;
  double victim_view_ms_p99 = 0.0;
  double victim_view_ms_max = 0.0;
};

std::optional<TagResult> RunTagging(const TagSettings& settings, std::string* error);

// The table: each profile with compensation on and off, and the tick cost of 64 players tagging.
void PrintTagging(const std::vector<TagResult>& runs, const std::vector<ScaleResult>& cost);

void to_json(nlohmann::json& j, const TagResult& r);

}  // namespace netcube::bench
