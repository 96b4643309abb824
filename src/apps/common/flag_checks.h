#pragma once
// Checks for number and name flags that CLI11's own let through: its Range, PositiveNumber and
// NonNegativeNumber accept NaN (every comparison with it is false) and PositiveNumber accepts infinity
// and values so large that a duration made of them overflows; a 64-bit unsigned flag takes "-1" as 2^64-1.
#include <optional>
#include <string>

#include "cli_forward.h"
#include "netcube/sim/move.h"

namespace netcube::apps {

// The longest run any executable is asked for, seconds (a year): longer is a typing mistake.
inline constexpr double kMaxRunSeconds = 366.0 * 24 * 3600;
// The largest latency or jitter a link conditioner is given, milliseconds.
inline constexpr double kMaxLinkDelayMs = 10'000.0;

// A finite number in [min, max].
CLI::Validator FiniteRange(double min, double max);
// A whole number of at least 0 for an unsigned 64-bit flag (a seed): no sign.
CLI::Validator Unsigned();
// A UDP port, 0..65535 (0: any free port): a larger one is refused as such, not as a failed conversion.
CLI::Validator Port();
// A player's name as the protocol carries it: 1..protocol::kMaxNameLength printable ASCII characters.
CLI::Validator PlayerName();

// An arena given as WxH in whole units, each within [sim::kMinArenaUnits, sim::kMaxArenaUnits]: the
// arena, or nothing when `text` is not one.
std::optional<sim::Arena> ParseArena(const std::string& text);
// Adds `--arena WxH` to `app`, read into `arena`.
CLI::Option* AddArenaFlag(CLI::App& app, sim::Arena& arena, const std::string& help);

}  // namespace netcube::apps
