#pragma once
// A lab frame's fingerprint: the server's world and every cube each player draws, hashed. The simulation is
// integer-only and the clients' arithmetic plain IEEE doubles, so the same seed, link and keys give the
// same digests frame by frame on any compiler: the desktop lab (gcc) and the web lab (clang, wasm) prove it
// by writing theirs (netcube-client --digests, the web probe) and comparing.
#include <cstdint>
#include <string>
#include <vector>

#include "netcube/gui/lab.h"

namespace netcube::apps {

// FNV-1a over the server's tick and world (every cube's id and state) and, per player, its connection state,
// own cube as drawn and remote cubes as drawn (ids and positions, the doubles bit for bit).
std::uint64_t LabDigest(gui::Lab& lab);

// "frame digest" as a --digests file holds it: the frame in decimal, the digest in 16 hex digits.
std::string DigestLine(std::int64_t frame, std::uint64_t digest);

struct LabRunOptions;
// The digests of `frames` frames of `options`' lab run by a LabLoop on the virtual clock, as a headless
// netcube-client --lab --digests runs them, without a window (the web probe's: its page has one lab
// already). Every player is driven by a script (options.scripts): a keyboard read here would be the page's.
// Empty with `error` set when a player has no script or the lab cannot start.
std::vector<std::uint64_t> ScriptedLabDigests(LabRunOptions options, int frames, std::string* error);

}  // namespace netcube::apps
