#pragma once
// What the browser tests read from the web lab (tests/web): the page's loop shows the probe every frame it
// draws, and the tests call the probe's extern "C" functions (probe.cpp) through Module.ccall: the cubes as
// each player draws them and the key each one's newest input holds, frame by frame; the frame and tick
// rates; the per-frame digest; a player's prediction ticked or unticked as its panel does.
#include "netcube/gui/lab.h"

namespace netcube::web {

// Call once per frame while the lab shown is drawn (after gui::Lab::Draw, where the panels change settings,
// and before the frame's changes are kept on the tape), with the page's clock (performance.now(), ms).
void ProbeFrame(gui::Lab& lab, double now_ms);

}  // namespace netcube::web
