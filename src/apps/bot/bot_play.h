#pragma once
// netcube-bot's run: the players play their scripts and settle, say goodbye, and the run's outputs are
// written: the summary, the CSV, the journal, the session (--record) and the JSON report.
#include <optional>

#include "bot_flags.h"
#include "netcube/server/server.h"
#include "run_journal.h"
#include "session.h"

namespace netcube::apps {

// Plays flags.config's players (against `server` on its virtual clock when there is one, else on the
// steady clock) and writes what the flags ask for. Returns the process's exit code.
int PlayBots(const BotFlags& flags, server::Server* server, RunJournal* journal, Session& session);

}  // namespace netcube::apps
