#pragma once
// The journal of a headless run of players (netcube-bot, the bench's profile groups): their rings (and the
// server's when it runs in this process), each glitch explained as a JSON line (--explain FILE, - for
// stdout) and the journal saved for the lab to open (--journal-out FILE, timeline/journal_file.h).
// Frames are 1/60 s of the run's time, as the lab's.
#include <cstdint>
#include <fstream>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "netcube/client/bot.h"
#include "netcube/client/frame_sample.h"
#include "netcube/server/server.h"
#include "netcube/timeline/explainer.h"
#include "netcube/timeline/journal.h"
#include "netcube/timeline/link_script.h"
#include "netcube/timeline/recorder.h"

namespace netcube::apps {

// Keeps `e` for a journal file in `kept`, bounded: once twice the file's share is there, the older half
// leaves (EncodeJournalFile takes the newest).
void KeepForJournalFile(std::vector<timeline::Explanation>& kept, timeline::Explanation e);
// Writes the journal file and says so on stdout ("<program>: wrote PATH (journal, N KiB ...)"), or says
// why not on stderr and returns false.
bool WriteJournalFile(const std::string& path, const std::string& program, const std::string& title,
                      bool has_server, const std::vector<std::string>& labels,
                      const std::vector<std::string>& script, const timeline::Journal& journal,
                      const std::vector<timeline::Explanation>& kept);

class RunJournal {
 public:
  // `labels`: the players' names, in the order of the runs given to AfterUpdate and of their players;
  // `title`: what ran (saved in the journal file); `has_server`: the server runs in this process and is given
  // to Frame. `program` prefixes its messages.
  // `script`: scripted link changes (and clock steps) applied to the players as the run's time reaches them.
  RunJournal(std::vector<std::string> labels, std::string title, bool has_server, std::string explain_path,
             std::string journal_out, std::string program, std::vector<timeline::LinkChange> script = {});
  RunJournal(const RunJournal&) = delete;
  RunJournal& operator=(const RunJournal&) = delete;

  // False (said on stderr) when --explain's file cannot be opened.
  bool ok() const;
  // Gives the players' link logs to a run's configuration (before BotRun::Start): its players are the
  // journal's from `first` on.
  void Attach(client::BotConfig& config, std::size_t first = 0);
  // Every time the run advances (before the runs' Updates): the frame its packets belong to, and the
  // scripted changes due (`server` null when it runs elsewhere: its changes are skipped).
  void BeginUpdate(Micros now, std::span<const client::BotRun* const> runs, server::Server* server);
  // After the runs' Updates: once a frame, the journal recorded and each player's glitches explained.
  // `server` null when it runs elsewhere.
  void AfterUpdate(Micros now, std::span<const client::BotRun* const> runs, const server::Server* server);
  // Writes the journal file and says what the journal took; false (said on stderr) on a failure.
  bool Finish();

  const timeline::Journal& journal() const noexcept { return journal_; }
  const std::vector<timeline::Explanation>& explanations() const noexcept { return kept_; }

 private:
  std::int32_t FrameAt(Micros now) const;

  std::vector<std::string> labels_;
  std::string title_;
  bool has_server_;
  std::string explain_path_;
  std::string journal_out_;
  std::string program_;
  timeline::Journal journal_;
  timeline::Recorder recorder_;
  timeline::LinkScriptPlayer script_;
  timeline::Explainer explainer_;
  std::vector<client::Client*> players_;  // reused: the script's targets
  std::vector<client::FrameSampler> samplers_;
  std::vector<const client::Client*> clients_;
  std::vector<std::uint8_t> held_;
  std::vector<sim::PlayerCube>
      heard_;  // reused: a player's newest received world, the server being elsewhere
  std::vector<timeline::Explanation> explained_;  // this frame's, reused
  std::vector<timeline::Explanation> kept_;       // for the journal file: the newest, bounded
  std::ofstream file_;
  std::ostream* out_ = nullptr;
  std::int32_t last_frame_ = -1;
  std::uint64_t count_ = 0;
};

}  // namespace netcube::apps
