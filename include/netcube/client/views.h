#pragma once
// The vocabulary a client tells: what its views show of the own cube, the remote cubes, the shots and the
// tags, and the limits they keep to. The client's rooms include this, never the façade's client.h.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "netcube/client/interpolation_buffer.h"
#include "netcube/client/units.h"
#include "netcube/protocol/messages.h"
#include "netcube/sim/move.h"
#include "netcube/sim/ray.h"
#include "netcube/sim/time.h"

namespace netcube::client {

struct LocalView {
  bool present = false;  // the server has sent a state for the own cube
  Vec2 drawn;      // where to draw it: predicted + smoothing offset, or the server state without prediction
  Vec2 predicted;  // the raw prediction
  Vec2 server;     // the latest server state
  sim::CubeState predicted_state;
  sim::CubeState server_state;  // last_input = the snapshot's ack (0 before the first)
  Vec2 last_correction;         // predicted position after minus before the latest correction
  Vec2 smoothing_offset;        // drawn - predicted while a correction is being smoothed
  // Where the cube faces: along its latest predicted motion, or the latest tag's aim if that came later;
  // nullopt before either.
  std::optional<sim::Aim> facing;
};

struct RemoteView {
  sim::PlayerId id = 0;
  std::string name;  // from PlayerJoined; empty until it arrives
  Vec2 drawn;        // interpolated / extrapolated, or the latest state with interpolation off
  Vec2 latest;       // the latest state received
  sim::CubeState latest_state;
  SampleKind sample = SampleKind::kEmpty;  // how `drawn` was obtained
};

// The newest input whose server result the client could compare with its own prediction (only while
// prediction is on: without it no prediction is drawn, so there is nothing to compare).
struct PredictionCheck {
  sim::Seq seq = 0;
  sim::CubeState predicted;  // what the client predicted after this input, before the server answered
  sim::CubeState server;     // what the server computed after it
  bool match = false;        // same position and velocity, exactly
};

// A connected client says the snapshots have stopped (Client::snapshot_silence) once none has come for this
// many of the intervals they are sent at, and at least kMinSnapshotSilence: long before the timeout calls
// the server lost, and beyond what a lost snapshot or two and a link's jitter explain.
inline constexpr int kSilentSnapshotIntervals = 4;
inline constexpr Micros kMinSnapshotSilence{200'000};

// How long a tagged cube flashes, and a shot's ray stays drawn after its result.
inline constexpr Micros kTagDisplayTime{600'000};
// Shots kept for drawing, at most (a result that never comes cannot grow the list).
inline constexpr std::size_t kMaxShotViews = 8;

// One of this client's tags, as it drew it: the ray from where it saw its own cube.
struct ShotView {
  std::uint8_t shot = 0;
  Vec2 origin;  // units
  sim::Aim aim = 0;
  Micros fired_at{0};
  bool judged = false;  // the server's result has arrived
  protocol::TagOutcome outcome = protocol::TagOutcome::kMiss;
  sim::PlayerId target = 0;  // on a hit
  double rewind_ms = 0.0;    // how far back the server judged it
};

// A cube some player tagged within kTagDisplayTime: it flashes.
struct TagFlash {
  sim::PlayerId target = 0;
  sim::PlayerId shooter = 0;
  Micros at{0};
};

}  // namespace netcube::client
