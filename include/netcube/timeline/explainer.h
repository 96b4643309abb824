#pragma once
// Explanations: each glitch a player could see, with the chain of causes the journal shows for it, in
// numbers. Run once per frame and client, after the Recorder has journaled the frame.
//
// Glitches (GlitchKind): a correction of the own cube (every one the client counts; `visible` from
// kVisibleCorrection units), a remote cube frozen while its true cube moves (the first frame of a
// freeze), a remote cube jumping farther than a cube can move, an interpolation underrun, a key press that
// took longer than its frame to show, and a tag judged a miss that the shooter saw hit.
//
// Causes (CauseKind), each only when the journal holds its evidence within the glitch's window (the
// events it names, with their time): loss (snapshots missing and packets to the client dropped on the link),
// input_lost (the server counted inputs that never came; packets from the client dropped), input_late (dry
// ticks at the server), jitter (the link's delays for the packets in the window spread by more than
// kJitterSpreadMs, or a snapshot arrived long after the one before), reordering, link_event (a scripted link
// change), collision (the own cube touched another player's), rate_change (the snapshot rate),
// delay_change (the interpolation delay), extrapolation (the render time ran past the newest snapshot),
// rewind_cap (a tag's rewind was capped), technique (a technique that is off: reconciliation, interpolation,
// prediction, lag compensation), clock (the client's clock stepped, kClockEffect at most before),
// unknown (nothing in the journal accounts for it).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "netcube/client/client.h"
#include "netcube/client/frame_sample.h"
#include "netcube/server/server.h"
#include "netcube/timeline/journal.h"
#include "netcube/timeline/link_script.h"

namespace netcube::timeline {

// Journal files save GlitchKind and CauseKind values (journal_file.h): a kind added anywhere but after the
// last (kTagMissSeenHit, kUnknown) changes kJournalFileVersion.
enum class GlitchKind : std::uint8_t {
  kCorrection,
  kRemoteFrozen,
  kRemoteJump,
  kUnderrun,
  kSlowPress,
  kTagMissSeenHit
};
const char* ToString(GlitchKind kind) noexcept;

enum class CauseKind : std::uint8_t {
  kLoss,
  kInputLost,
  kInputLate,
  kJitter,
  kReordering,
  kLinkEvent,
  kCollision,
  kRateChange,
  kDelayChange,
  kExtrapolation,
  kRewindCap,
  kTechnique,
  kClock,
  kUnknown,
};
const char* ToString(CauseKind kind) noexcept;

inline constexpr double kVisibleCorrection = 0.1;  // units
inline constexpr double kJitterSpreadMs = 4.0;
// A clock step is named as a cause this long after it: the client's estimate of the server's time (and so
// its render time and input pacing) takes a second or so to settle again.
inline constexpr Micros kClockEffect{2'000'000};

struct Cause {
  CauseKind kind = CauseKind::kUnknown;
  std::string text{};  // the cause with its numbers
  // The journal's evidence: the newest event of this kind that the cause rests on, and where it is
  // (source 0 the server, i + 1 client i). No evidence for a technique that is off, or for unknown.
  bool has_evidence = false;
  EventKind evidence = EventKind::kPacketUp;
  std::size_t evidence_source = 0;
  Micros evidence_at{0};
  // Numbers, where the cause has them (else -1 / 0).
  std::int64_t first_tick = -1;  // loss: the snapshots missing
  std::int64_t last_tick = -1;
  std::int64_t count = 0;  // snapshots or packets lost, dry ticks, reordered packets
  int player = 0;          // collision: with whom
  double from = 0.0;       // rate or delay changes: before and after; jitter: the delays' range, ms
  double to = 0.0;
};

struct Explanation {
  std::int64_t frame = 0;
  Micros time{0};
  std::size_t client = 0;  // the lab's player index
  std::string entry;       // its label
  GlitchKind kind = GlitchKind::kCorrection;
  double size = 0.0;    // correction: units; slow press: ms
  bool visible = true;  // a correction under kVisibleCorrection is counted but not seen
  int subject = 0;      // the remote cube seen frozen or jumping; the tag's target as seen
  std::vector<Cause> causes;
  std::string line;  // "12.34 s, Player 1 sees Player 2 stop: ..."
};

class Explainer {
 public:
  // `labels`: each client's name in the lines (other players are named by theirs too, once seen); `script`:
  // the scripted link changes (may be null).
  Explainer(const Journal& journal, std::vector<std::string> labels, const std::vector<LinkChange>* script);

  // The glitches of client `index` at this frame, explained, appended to `out`.
  void Frame(std::size_t index, const client::FrameSample& sample, const client::Client& client,
             const server::Server& server, std::vector<Explanation>& out) {
    Frame(index, sample, client, &server, out);
  }
  // `server` null: in another process; a tag judged a miss is then explained by the journal alone.
  void Frame(std::size_t index, const client::FrameSample& sample, const client::Client& client,
             const server::Server* server, std::vector<Explanation>& out);

 private:
  struct Window {
    Micros from{0};
    Micros to{0};
  };
  struct ClientState {
    bool frozen = false;  // a freeze was explained and has not ended
    // Without interpolation: the causes of the last remote stop or jump told, and when it (or one folded
    // into it) was seen.
    std::vector<CauseKind> told_causes;
    Micros told_at{0};
  };

  static constexpr Micros kFoldGap{1'000'000};
  static bool Fold(ClientState& state, const Explanation& e);
  Explanation Start(std::size_t index, const client::FrameSample& sample, GlitchKind kind) const;
  void Finish(Explanation& explanation) const;
  // The remote side: what starved or jolted the drawn remote cubes.
  void RemoteCauses(std::size_t index, const client::Client& client, Window window, Explanation& out) const;
  // The own cube: what made the server disagree with the prediction.
  void OwnCauses(std::size_t index, const client::Client& client, Window window, Explanation& out) const;
  void LinkCauses(std::size_t index, EventKind direction, Window window, Explanation& out) const;
  void LinkEventCause(std::size_t index, Window window, Explanation& out) const;
  void ClockCause(std::size_t index, Window window, Explanation& out) const;
  void TagCauses(const client::Client& client, const server::Server& server, int shot,
                 Explanation& out) const;

  // Player `player`'s name as the lines give it: the label of the client it is, else "player id N".
  std::string NameOf(int player) const;

  const Journal& journal_;
  std::vector<std::string> labels_;
  std::vector<int> ids_;  // each client's player id, as last seen (-1 before it had one)
  const std::vector<LinkChange>* script_;
  std::vector<ClientState> clients_;
};

}  // namespace netcube::timeline
