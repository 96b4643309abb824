#pragma once
// What the crowd lab shows of interest management: player 1's relevant set over the server's arena (the
// circle a cube enters within, the one it leaves beyond, each member's importance, the cubes left out),
// its legend, and the switch with what player 1's snapshots cost beside it.
#include <imgui.h>

#include "netcube/gui/arena.h"
#include "netcube/gui/server_view.h"
#include "netcube/server/server.h"

namespace netcube::gui {

// Over the server's cubes, around player `subject`'s (outlined as its own): the relevance circle (the
// interest radius), the leave circle (radius + margin) dashed, a ring on each member (brighter and thicker
// the more important; the members sent in every snapshot in their own colour) and the cubes left out
// dimmed.
void DrawRelevantSet(ImDrawList& draw, const ArenaMapping& mapping, const server::Server& server,
                     sim::PlayerId subject, const server::InterestInfo& set);

// The "interest management" switch, player 1's bytes down a second and InterestSnapshots beside it, and
// the legend of DrawRelevantSet, into the current ImGui window.
void DrawInterestControls(server::Server& server, const CrowdFocus& crowd);

}  // namespace netcube::gui
