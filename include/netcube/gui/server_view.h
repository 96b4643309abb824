#pragma once
// The lab's middle view: the in-process server's world (the truth), its live settings, and how it judged
// the latest tags (the ray, the cube as rewound beside where it is now, the log).
#include <imgui.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "netcube/gui/arena.h"
#include "netcube/server/server.h"
#include "netcube/sim/time.h"

namespace netcube::gui {

// The crowd lab (a lab with wandering players) as the server view shows it: only the players with a column
// are labelled and listed (the wanderers would bury the arena in labels and the panel in rows), and player
// 1's relevant set is drawn over the arena with what its snapshots cost beside the interest switch.
struct CrowdFocus {
  std::vector<sim::PlayerId> listed;      // the columns' players that have an id
  std::optional<sim::PlayerId> player_1;  // whose relevant set is drawn
  // Player 1's client: its bytes down over the last second, and the InterestSnapshots it has received.
  double bytes_down_per_s = 0.0;
  std::uint64_t interest_snapshots = 0;
};

class ServerView {
 public:
  // Records trails, and in the crowd lab (`crowd`) player 1's relevant set. Call once per frame after
  // Server::Update.
  void Observe(Micros now, const server::Server& server, const CrowdFocus* crowd = nullptr);
  // Every cube where the server has it, labelled with its id, name and last processed input; the latest
  // tags' rays, each tag's subject as judged (rewound) beside where it is now with the rewind in ms, and a
  // flash around each cube hit.
  void DrawArena(ImDrawList& draw, const ArenaMapping& mapping, const server::Server& server) const;
  // Tick rate, snapshot rate, collisions, lag compensation, a table of the clients and the log of the last
  // tags, into the current ImGui window.
  void DrawPanel(server::Server& server);
  // The trails' switch, as the panel's (on at first).
  void SetTrails(bool on) noexcept { show_trails_ = on; }

 private:
  // Whether the cube of player `id` gets a label and a row: every player's, or in a crowd the columns'.
  bool Listed(sim::PlayerId id) const;

  Trails trails_;
  bool show_trails_ = true;
  std::optional<CrowdFocus> crowd_;
  server::InterestInfo relevant_;  // player 1's set in the crowd lab, its room reused every frame
  bool has_relevant_ = false;
};

}  // namespace netcube::gui
