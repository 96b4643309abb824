#pragma once
// What netcube-client's flags make of a lab run: its players (or a comparison, recorded or replayed), a fork
// of it, the link script, the files it writes. Every bad combination is said in one line.
#include <array>
#include <optional>

#include "command_line.h"
#include "runner.h"

namespace netcube::apps {

// The lab run the flags ask for, with player i driven by scripts[i]; nothing, said, when a flag is bad
// (the process then exits 2). `title` is the command line, saved in the journal.
std::optional<LabRunOptions> LabOptionsFrom(const ClientCommandLine& flags,
                                            std::array<std::optional<client::InputScript>, 2> scripts,
                                            std::string title);

}  // namespace netcube::apps
