#pragma once
// A scripted link: a timed list of changes to the clients' (or the server's) link conditioners, so a
// glitch can be made on purpose, shared as one line and explained. Applied at the run's time through each
// side's SetLink, outside the conditioner.
//
// Syntax (docs/LAB.md): changes separated by ';' or new lines, each
//   AT WHAT [VALUE] [for DURATION] [client N | server]
// AT and DURATION are times such as 2s, 1.5s or 400ms; WHAT is one of
//   blackout DURATION     every packet lost both ways for DURATION (no `for`)
//   loss P                packets lost, P as 30% or 0.3
//   latency MS            one-way added latency, e.g. 150ms
//   jitter MS             +- this much on each packet's delay
//   duplicate P, reorder P
//   clock +STEP           the client's clock jumps forward by STEP, e.g. clock +300ms (clients only, no
//                         `for`): not the link, but a glitch made on purpose all the same
// A change with `for` puts the value it replaced back after DURATION; without, it stays. `client N` is the
// lab's player N (from 1); without a target every client changes.
// Example: "2s blackout 400ms client 1; 5s loss 30% for 1s; 8s latency 300ms for 2s client 2"
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "netcube/client/client.h"
#include "netcube/server/server.h"
#include "netcube/sim/time.h"
#include "netcube/transport/link_conditioner.h"

namespace netcube::timeline {

class Recorder;

enum class LinkField : std::uint8_t { kBlackout, kLoss, kLatency, kJitter, kDuplicate, kReorder, kClock };

struct LinkChange {
  Micros at{0};
  LinkField field = LinkField::kLoss;
  double value = 0.0;                 // a probability in [0, 1], or ms
  Micros duration{0};                 // 0: from then on; a blackout's length; a clock's step
  std::optional<std::size_t> client;  // the lab's player index (from 0); empty: every client
  bool server = false;                // the server's link instead
  std::string text;                   // as written, trimmed: what an explanation quotes
};

std::optional<std::vector<LinkChange>> ParseLinkScript(std::string_view text, std::string* error);

// Applies a script's changes as the run's time reaches them, and puts replaced values back when a change
// with a duration ends.
class LinkScriptPlayer {
 public:
  explicit LinkScriptPlayer(std::vector<LinkChange> changes);
  // Applies every start and end due at `now`; each start is journaled (when `recorder` is given).
  void Apply(std::int32_t frame, Micros now, server::Server& server, std::span<client::Client* const> clients,
             Recorder* recorder) {
    Apply(frame, now, &server, clients, recorder);
  }
  // `server` null: in another process (netcube-bot --connect); its changes (`server`) are skipped.
  void Apply(std::int32_t frame, Micros now, server::Server* server, std::span<client::Client* const> clients,
             Recorder* recorder);
  const std::vector<LinkChange>& changes() const noexcept { return changes_; }

 private:
  std::vector<LinkChange> changes_;
  std::vector<std::size_t> order_;  // starts by time
  std::size_t next_ = 0;
  struct Restore {
    Micros at{0};
    std::size_t change = 0;
    std::size_t target = 0;  // 0 the server, i + 1 client i
    double value = 0.0;
  };
  std::vector<Restore> restores_;
};

}  // namespace netcube::timeline
