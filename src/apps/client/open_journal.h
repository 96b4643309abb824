#pragma once
// netcube-client --open-journal FILE: a journal saved by netcube-bot or netcube-bench (--journal-out)
// shown read-only, its timeline's lanes and explanations (gui::JournalViewer).
#include <string>

#include "runner.h"

namespace netcube::apps {

// The process exit code: 2 (with one line on stderr) when the file is not a journal this build reads.
int OpenJournal(RunOptions run, const std::string& path);

}  // namespace netcube::apps
