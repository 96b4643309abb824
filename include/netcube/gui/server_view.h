#pragma once
// The lab's middle view: the in-process server's world (the truth), its live settings, and how it judged
// the latest tags (the ray, the cube as rewound beside where it is now, the log).
#include <imgui.h>

#include "netcube/gui/arena.h"
#include "netcube/server/server.h"
#include "netcube/sim/time.h"

namespace netcube::gui {

class ServerView {
 public:
  // Records trails. Call once per frame after Server::Update.
  void Observe(Micros now, const server::Server& server);
  // Every cube where the server has it, labelled with its id, name and last processed input; the latest
  // tags' rays, each tag's subject as judged (rewound) beside where it is now with the rewind in ms, and a
  // flash around each cube hit.
  void DrawArena(ImDrawList& draw, const ArenaMapping& mapping, const server::Server& server) const;
  // Tick rate, snapshot rate, collisions, lag compensation, a table of the clients and the log of the last
  // tags, into the current ImGui window.
  void DrawPanel(server::Server& server);

 private:
  Trails trails_;
  bool show_trails_ = true;
};

}  // namespace netcube::gui
