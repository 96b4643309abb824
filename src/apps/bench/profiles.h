#pragma once
// The network-profile scenario, on a virtual clock (1 ms steps), over an in-memory hub by default (or real
// UDP loopback sockets, --transport udp): one server
// with collisions off, so that every player is solo and any correction comes from the network, and five
// groups of in-process players with the profile's link, random input and different settings:
//   default       the client's defaults (redundancy 32, adaptive interpolation delay, smoothing, adaptive
//                 snapshot rate)
//   redundancy-1  one input per packet: the baseline for redundancy
//   fixed-delay   a fixed interpolation delay (100 ms, the client's default): the adaptive delay's baseline
//   unsmoothed    smoothing off: remote cubes drawn exactly where the buffer says, however fast that is
//   server-rate   snapshots at the server's rate whatever the link: the adaptive snapshot rate's baseline
//   predict-others  the other family: the default with the remote cubes simulated to the present
//                 (Settings::predict_others), beside `default`, its interpolating twin
// plus a probe client, drawn at 60 fps, that idles and presses a key at a known frame, with prediction on
// and then off, counting the frames until its drawn cube moves.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "netcube/client/settings.h"
#include "netcube/transport/link_profile.h"
#include "netcube/transport/network.h"

namespace netcube::bench {

struct ProfileSettings {
  transport::LinkProfile profile;
  int group_size = 4;
  double play_s = 20.0;         // random play; then the groups settle
  bool delta_snapshots = true;  // the server's snapshot encoding
  bool input_buffer = true;     // the server's input buffer (off: the baseline, a tick applies what arrived)
  int key_trials = 5;           // key presses with prediction on, and as many with it off
  int fixed_delay_ms = client::Settings{}.interp_delay_ms;  // the fixed-delay group's
  std::uint64_t seed = 1;
  transport::NetworkKind network = transport::NetworkKind::kMemory;  // between the server and the players
  // The groups' players journaled (the server's ring too; not the probe): their explained glitches as JSON
  // lines to `explain` ("-": stdout), the journal to `journal_out` (netcube-client --open-journal).
  std::string explain;
  std::string journal_out;
};

struct GroupResult {
  std::string name;
  client::Settings settings;
  int players = 0;
  std::uint64_t inputs_sent = 0;
  std::uint64_t corrections = 0;
  double max_correction = 0.0;                  // units
  std::uint64_t inputs_lost = 0;                // the server saw a gap: never arrived
  std::uint64_t inputs_dropped_rate_limit = 0;  // arrived with the server's queue full
  // Server ticks at which a player's cube was moving, and of those the dry ones (too few of
  // its inputs had arrived: the cube stood still for a tick).
  std::uint64_t streaming_ticks = 0;
  std::uint64_t dry_ticks = 0;
  std::uint64_t interp_underruns = 0;
  double extrapolation_ms = 0.0;  // summed over players and their remote cubes
  double interp_delay_ms = 0.0;   // the delay in use at the end, mean over players
  // How far in the past remote cubes are drawn: the server's clock minus the render time, sampled every
  // frame for every player with remote cubes (one-way latency + interpolation delay).
  double view_delay_mean_ms = 0.0;
  double view_delay_max_ms = 0.0;
  // Remote error: how far a remote cube is drawn from where the server had it at the render time (its true
  // path, between the server's ticks), units, every frame for every remote cube of every player.
  double remote_error_mean = 0.0;
  double remote_error_p99 = 0.0;
  // The same against where the server had the cube at the present (its clock now): the other family's
  // promise.
  double remote_error_now_mean = 0.0;
  double remote_error_now_p99 = 0.0;
  // The largest move of a drawn remote cube from one frame to the next, units (its top speed allows
  // sim::kMaxSpeed per tick), and the moves longer than a cube can make in a frame (client::kJumpFactor),
  // per remote cube and second.
  double remote_max_step = 0.0;
  double remote_jumps_per_s = 0.0;
  // Each player's Client::Update, this thread's CPU time per player and frame (µs), and the world ticks
  // times cubes predict_others simulated per player and frame (0 without it).
  double update_cpu_us_per_frame = 0.0;
  double cube_ticks_per_frame = 0.0;
  double snapshot_loss = 0.0;  // mean over players: the snapshots the client measured missing
  double link_loss = 0.0;      // mean over players: the packets their incoming conditioner dropped
  std::uint64_t underruns_after_early = 0;  // interp_underruns after the first 5 s
  double rtt_ms = 0.0;                      // mean over players
  // Downstream per player over the play, bytes per second: protocol payload, and the network's (over UDP,
  // ENet's UDP payload with headers, acks and pings; in memory, the payload again: a hub has no headers).
  double down_bytes_per_s = 0.0;
  double wire_down_bytes_per_s = 0.0;
  double snapshot_rate =
      0.0;  // the rate the server sent at when the run ended, per second, mean over players
  bool all_settled = false;
  bool all_final_match = false;
};

struct KeyPressResult {
  // Per trial, frames after the one that read the key until the drawn cube moved (0: that very frame);
  // -1 if it never moved within 10 s.
  std::vector<int> frames_with_prediction;
  std::vector<int> frames_without_prediction;
};

struct ProfileResult {
  ProfileSettings settings;
  double ran_s = 0.0;  // virtual seconds the scenario ran
  std::vector<GroupResult> groups;
  KeyPressResult key_press;
};

std::optional<ProfileResult> RunProfile(const ProfileSettings& settings, std::string* error);

void to_json(nlohmann::json& j, const ProfileResult& r);

}  // namespace netcube::bench
