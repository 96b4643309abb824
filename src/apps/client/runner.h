#pragma once
// The frame loops of netcube-client: interactive (steady clock, vsync), or a fixed number of frames ending
// in a screenshot. Lab screenshots use a virtual clock (frame i is at i/60 s), so a scripted run renders
// the same picture on any machine; a watched lab keeps game time to the real clock (LabLoop), and a
// connected client's frames are paced in real time. The clock, the
// pacing, the environment and the files live here, in the executable: the gui library does none of them.
#include <array>
#include <optional>
#include <string>

#include "lab_branch.h"
#include "netcube/client/input_script.h"
#include "netcube/gui/app.h"
#include "netcube/gui/client_screen.h"
#include "netcube/gui/lab.h"
#include "netcube/timeline/link_script.h"
#include "session.h"

namespace netcube::apps {

struct RunOptions {
  gui::AppConfig app;
  int frames = 0;          // stop after this many frames (0: when the window closes)
  std::string screenshot;  // write the last frame here as a PNG (needs frames > 0)
};

struct ClientRunOptions {
  RunOptions run;
  gui::ClientScreenConfig screen;
  std::optional<client::InputScript> script;  // replaces the keyboard once connected
};

struct LabRunOptions {
  RunOptions run;
  gui::LabConfig lab = gui::DefaultLabConfig();
  // Replace the keys: player i's script (the first one for a comparison).
  std::array<std::optional<client::InputScript>, 2> scripts;
  // A comparison (--compare): every player gets the same buttons; `session` holds its entries, network,
  // seed and rates (and, when replaying, its input timeline).
  bool compare = false;
  Session session;
  bool replay = false;      // drive every player from its timeline of session.inputs
  std::string replay_path;  // the session file replayed, for the notice
  std::string record;       // write the session here at the end
  std::string csv;          // one row per frame and player
  std::string digests;      // one line per frame: its digest (lab_digest.h)
  std::string plot;         // the comparison's plot, as a PNG, at the end
  std::string plot_title;   // heads the plot
  std::string stats_json;   // the lab server's statistics file at the end, as netcube-server --stats-json
  int switch_encoding_frame = 0;  // switch the server's snapshot encoding at this frame (0: never)
  std::string explain;  // explained glitches as JSON lines to this file ("-": stdout); journals the run
  std::vector<timeline::LinkChange> link_script;  // scripted link changes (journals the run)
  bool journal = false;  // journal the run and show its explained glitches (also with explain or link_script)
  // After the last of run.frames, pause and scrub to each of these frames in turn (journals the run).
  std::vector<std::int64_t> seek;
  // A comparison whose entries each run beside a fork that changes at fork->frame (--fork-at).
  std::optional<LabFork> fork;

  std::string
      journal_out;    // save the journal here at the end (netcube-client --open-journal); journals the run
  std::string title;  // what ran, saved in the journal file

  bool journaled() const noexcept {
    return journal || !explain.empty() || !link_script.empty() || !seek.empty() || !journal_out.empty();
  }
};

// Makes `options` a comparison of options.session's entries: their lab (CompareLabConfig on the session's
// network, seed and rates; a session of independent players gets their seeds and collisions), the shared
// keys, the plot's title.
void SetUpComparison(LabRunOptions& options);

// True when the run should render headless (offscreen driver, software renderer, no GL driver): when
// SDL_VIDEODRIVER=offscreen asks for it, and for a screenshot run with no display and no driver chosen.
bool NeedsHeadless(const RunOptions& run) noexcept;
// Why a run would draw a window nobody can see, forever: no --frames and no display (SDL then falls back
// to its offscreen driver), or SDL_VIDEODRIVER=offscreen; empty when the run can go ahead.
std::string NoWindowReason(const RunOptions& run);

// Both return the process exit code (errors go to stderr).
int RunClient(ClientRunOptions options);
int RunLab(LabRunOptions options);

}  // namespace netcube::apps
