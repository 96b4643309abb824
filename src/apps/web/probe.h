#pragma once
// What the browser tests read from the web lab (tests/web): the page's loop shows the probe every frame it
// draws, and the tests call the probe's extern "C" functions (probe.cpp) through Module.ccall: the cubes as
// each player draws them and the keys each one's newest input holds, frame by frame; the frames drawn and
// the server's tick (the tests take the rates over the page's clock); a scripted run's per-frame
// digests; a player's prediction ticked or unticked as its panel does.
#include "netcube/gui/lab.h"

namespace netcube::web {

// Call once per frame with the lab shown, after its update and before it is drawn (a change the probe makes
// then is one of the frame's panel changes, which the time machine keeps), with the page's clock
// (emscripten_get_now(): performance.now(), ms since the navigation).
void ProbeFrame(gui::Lab& lab, double now_ms);

}  // namespace netcube::web
