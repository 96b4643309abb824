#pragma once
// What netcube-bot prepares before its players start: their configuration from the flags (or a replayed
// session), the session --record writes, a server of its own when a replay has none to connect to, and
// the journal.
#include <memory>
#include <optional>

#include "bot_flags.h"
#include "netcube/server/server.h"
#include "run_journal.h"
#include "session.h"

namespace netcube::apps {

// Completes flags.config (address, script, views, techniques, link; a replay's players, seeds and tags)
// and starts `session` as --record will write it. False, said in one line, on a bad flag.
bool ConfigurePlayers(BotFlags& flags, Session& session);

// A replay without a server to connect to brings its own, with the session's rates and the server a
// comparison needs (cubes that spawn alike and never collide), on the virtual clock. Points config at it.
std::unique_ptr<server::Server> StartOwnServer(client::BotConfig& config, const Session& session);

// The journal, when --explain, --journal-out or a link script asks for one (attached to flags.config);
// nothing otherwise. The exit code, said, when the link script is bad (2) or the journal cannot be opened
// (1).
std::optional<int> OpenJournal(BotFlags& flags, bool has_server, int argc, char** argv,
                               std::optional<RunJournal>& journal);

}  // namespace netcube::apps
