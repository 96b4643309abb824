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
// The digests of `frames` frames of `options`' lab (not a comparison) run on the virtual clock without a
// window, each player driven by its script in options.scripts (none: no key held), as RunLab drives them:
// what netcube-client --lab --digests writes, computed where there is no desktop loop (the web probe).
// Empty with `error` set when the lab cannot start.
std::vector<std::uint64_t> ScriptedLabDigests(const LabRunOptions& options, int frames, std::string* error);

}  // namespace netcube::apps
