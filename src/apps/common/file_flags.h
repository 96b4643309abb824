#pragma once
// The flags of netcube-bot and netcube-client that name a file or hold a script read from one: a link
// script (--link-script TEXT or @FILE) and a recorded session (--replay FILE). Each says what is wrong in
// one line, "<program>: ...", and gives nothing.
#include <optional>
#include <string>
#include <vector>

#include "netcube/timeline/link_script.h"
#include "session.h"

namespace netcube::apps {

// The link changes of --link-script `value` (the script, or @FILE); `text` gets the script itself.
std::optional<std::vector<timeline::LinkChange>> ReadLinkScriptFlag(const std::string& program,
                                                                    const std::string& value,
                                                                    std::string* text);
// The session --replay `path` names.
std::optional<Session> ReadSessionFlag(const std::string& program, const std::string& path);

}  // namespace netcube::apps
