#pragma once
// A journal saved to reopen elsewhere (netcube-bot --journal-out, netcube-bench --journal-out, read by
// netcube-client --open-journal): every ring's events as held, the players' names, the scripted changes and
// the newest explanations, in one binary file (docs/LAB.md, "Sharing a run"). Versioned and bounded: a
// reader takes at most kMaxJournalFileBytes and checks every count, kind and length and the checksum over
// the whole, so a truncated or corrupt file is one line of error, never a crash. Encoding and decoding
// only: the programs read and write the bytes.
//
// Layout, little-endian: "NCJOURNL", u32 version, u32 flags (bit 0: the server's ring is there), the
// title, u16 players and their names, u16 script lines, then per source (the server first) u64 total,
// u32 events and the events (28 bytes each), then u32 explanations with their causes, then a u32 FNV-1a
// checksum of everything before it. Strings are a u16 length and bytes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netcube/timeline/explainer.h"
#include "netcube/timeline/journal.h"

namespace netcube::timeline {

inline constexpr std::uint32_t kJournalFileVersion = 1;
inline constexpr std::size_t kMaxJournalFilePlayers = 256;
inline constexpr std::size_t kMaxJournalFileEvents = std::size_t{1} << 20;  // per source
inline constexpr std::size_t kMaxJournalFileExplanations = 4096;            // the newest kept
inline constexpr std::size_t kMaxJournalFileBytes = std::size_t{512} << 20;

struct SavedJournal {
  std::string title;                // what ran, e.g. "netcube-bot --connect 127.0.0.1:7777 --count 2"
  bool has_server = true;           // false: the server ran in another process, its ring is empty
  std::vector<std::string> labels;  // each player's name
  std::vector<std::string> script;  // the scripted changes, as written (a link_change's `a` indexes it)
  Journal journal{0, 1};
  std::vector<std::uint64_t> totals;      // per source (the server first): events the run recorded
  std::vector<Explanation> explanations;  // oldest first
};

// The file's bytes: the journal's events as its rings hold them, and at most the newest
// kMaxJournalFileExplanations of `explanations`.
std::string EncodeJournalFile(std::string_view title, bool has_server, const std::vector<std::string>& labels,
                              const std::vector<std::string>& script, const Journal& journal,
                              const std::vector<Explanation>& explanations);
// nullopt with `error` set to one line (what is wrong, and where) when the bytes are not such a file.
std::optional<SavedJournal> DecodeJournalFile(std::string_view bytes, std::string* error);

}  // namespace netcube::timeline
