#pragma once
// The server's tuning: rate limits, timeouts, slots and budgets its rooms keep to. Internal: an owner
// sets a server through ServerConfig (netcube/server/server_config.h).
#include <cstddef>

#include "netcube/sim/move.h"
#include "netcube/sim/time.h"

namespace netcube::server {

// Rate limit (per client), counted in simulation steps (1/60 s each: one input is one step of motion)
// so it holds at any tick rate: real time grants one input per step; unused credit is kept up to this
// many steps, so a client whose packets arrived late can catch up, but no client runs ahead of time.
inline constexpr int kMaxInputBacklogSteps = 8;
// While catching up, at most this many inputs per step of real time are applied (catching up is gradual).
inline constexpr int kMaxCatchUpRate = 3;
// Inputs waiting to be applied, per client, at 60 ticks per second (a slower tick adds room for the extra
// inputs it consumes); inputs arriving beyond it are dropped for good.
inline constexpr std::size_t kMaxQueuedInputs = 16;
// A server this far behind its tick schedule stops catching up and skips the missed ticks.
inline constexpr Micros kMaxTickLag{250'000};
// An ENet handshake from outside still unacknowledged after this is reset: a connection attempt that is
// never completed (a forged source, say) holds a slot this long at most. ENet resends its answer after
// 0.5 s, and a client whose handshake was reset starts a new one with its own resent request.
inline constexpr Micros kHandshakeTimeout{1'000'000};
// A connected peer that has not sent its ConnectRequest within this time, or not echoed its Challenge
// within this time of it being sent, is reset: a connection that proves nothing holds nothing for long.
// Not 1 s: on the `harsh` link profile (1000 ms round trip +/-100 ms, applied above ENet) an honest
// client's answer comes up to 1.2 s after the server's last word (or the connection).
inline constexpr Micros kPendingTimeout{2'000'000};
// ENet slots beyond max_clients + kSpareConnectionSlots, for connections still in their first seconds: a
// flood of connection attempts from many addresses fills these before it can keep a real client out.
inline constexpr std::size_t kHandshakeSlots = 512;
// An input this far or further beyond the next one expected is malformed, not a gap of lost inputs: a
// client keeps at most 1024 unacknowledged inputs (docs/PROTOCOL.md), so it cannot have skipped more.
inline constexpr int kMaxInputJump = 1024;
// Budgets per peer. Packets of any kind: an honest client sends about 70 a second (480 at the bot's
// fastest --input-rate). TimeEcho replies: a client asks 10 times a second. Offences (a malformed
// packet, a throttled TimeEcho): a few are forgiven, one more a second; past that the peer is kicked.
inline constexpr int kMaxPacketsPerSecond = 600;
inline constexpr int kMaxTimeEchoesPerSecond = 20;
inline constexpr int kTimeEchoBurst = 10;
inline constexpr int kMaxOffenceBurst = 16;

// Lag compensation. The rewind is capped at max_rewind_ms (ServerConfig), and for each tag at what the server
// can believe of the shooter: the time since it sent the newest snapshot the shooter says it had, plus the
// interpolation delay the shooter says it used, plus this slack for the clock estimate's error.
inline constexpr Micros kRewindSlack{50'000};
// A tag waits for the input it was fired after (so the ray starts where the shooter saw its own cube) at
// most this long, then is judged from where the cube is.
inline constexpr Micros kMaxTagWait{250'000};
// Tags beyond one per sim::kTagCooldownMs are refused; this much bunching (a tag delayed by a resend,
// then the next on time) is let through.
inline constexpr Micros kTagBurstTolerance{sim::kTagCooldownMs * 1000};
// Other players' hits a client is told of (a flash to draw), at most, a second: with every player tagging at
// the cooldown the tags of a full server would otherwise cost each client what all of them do. Its own tags
// and the hits on its cube are always told.
inline constexpr std::int64_t kBystanderHitsPerSecond = 20;

// The most baselines whose replays the server keeps from tick to tick (protocol::ReplayBuilder), and so the
// most distinct deltas a tick encodes. Each client gets a delta against the newest kept one it told the
// server it holds (or the full snapshot); one more is kept a tick when some hold none fresh. A tick's
// encoding work is then each kept replay extended by the tick's steps (a few operations a cube), one new
// baseline's start, and this many deltas and one full snapshot, however the acknowledgements spread over
// real links and whatever a client claims to hold.
inline constexpr std::size_t kMaxDeltaEncodes = 8;

}  // namespace netcube::server
