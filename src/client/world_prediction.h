#pragma once
// The client's room for the other family of netcode (Settings::predict_others): the newest snapshot's
// world, simulated forward tick by tick with sim::StepWorld (collisions included), each remote cube holding
// the buttons its last known state held and the own cube taking its pending inputs, one tick's worth per
// tick (GGPO's rollback; Rocket League's and DDNet's whole-world prediction). Every simulated tick is kept,
// so a new own input re-simulates only the ticks from it on, and the next frame's present costs a tick or
// two; a snapshot rolls back to its world and simulates again. Remote cubes are read at the present
// (between two simulated ticks), and a snapshot that moves one there is a misprediction, smoothed like the
// own cube's corrections. Nothing is simulated beyond the prediction window: past it the caller falls back
// to interpolation (remote cubes) and to Move alone (the own cube). No allocation once the world's size
// and the window have been seen.
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "netcube/client/interpolation_buffer.h"
#include "netcube/client/metrics.h"
#include "netcube/client/pending_inputs.h"
#include "netcube/client/server_clock.h"
#include "netcube/client/settings.h"
#include "netcube/client/smoothing.h"
#include "netcube/client/units.h"
#include "netcube/protocol/messages.h"
#include "netcube/sim/world.h"

namespace netcube::client {

class WorldPrediction {
 public:
  // Forgets the world and every measurement: a new connection.
  void Reset();

  // The newest snapshot's world, server tick `tick` (every cube, the own one too): the next Predict rolls
  // back to it.
  void OnSnapshot(Tick tick, std::span<const sim::PlayerCube> world);

  struct Frame {
    double present_tick = 0.0;  // the server's estimated time now, fractional ticks
    sim::PlayerId own = 0;
    const PendingInputs* pending = nullptr;  // the own cube's inputs the snapshot's world has not applied
    int moves_per_tick = 1;                  // sim steps (Moves) per server tick
    bool collisions = true;                  // the server resolves overlaps
    sim::Arena arena;                        // the walls
    int window_ticks = 60;                   // the most ticks simulated past the snapshot
    bool to_input_tick = false;  // remote cubes read at the own cube's newest input's tick when later
    bool smoothing = true;       // remote mispredictions eased over smoothing_ms
    int smoothing_ms = 100;
  };
  // The frame at `now`. The clock follows the fastest snapshots' arrivals, the quickest one-way trip
  // behind the server: the present is half a round trip (`rtt_ms`: TimeEcho's, or the handshake's until
  // its replies measure it) less how late snapshots come on average beyond the fastest (the jitter inside
  // that half).
  static Frame FrameAt(Micros now, const ServerClock& clock, double rtt_ms, const protocol::Welcome& welcome,
                       const PendingInputs& pending, const Settings& settings);
  // Brings the simulation up to the present and the own cube's newest input: after a snapshot, from its
  // world; after new own inputs, from the tick of the first new one; else only the ticks not yet simulated.
  void Predict(const Frame& frame);
  // Lets `elapsed` of the remote smoothing pass.
  void AdvanceSmoothing(Micros elapsed, const Frame& frame);

  // The own cube after its newest pending input (pushed by the others where they meet it), when that lies
  // within the window.
  std::optional<sim::CubeState> own_state() const noexcept { return own_state_; }
  // Whether the remote cubes are predicted to the present (within the window), and where one is drawn:
  // its predicted position now plus the smoothing of its last misprediction; nullopt for a cube not in the
  // snapshot's world.
  bool others_predicted() const noexcept { return others_predicted_; }
  std::optional<Vec2> RemoteAt(sim::PlayerId id) const noexcept;
  // The tick the remote cubes are read at: the present, or the own cube's newest input's tick.
  double present_tick() const noexcept { return present_; }
  const WorldPredictionMetrics& metrics() const noexcept { return metrics_; }

 private:
  std::span<sim::PlayerCube> FrameAt(std::size_t k) noexcept;
  std::span<const sim::PlayerCube> FrameAt(std::size_t k) const noexcept;
  void Step(std::size_t k, const Frame& frame);
  // A snapshot came: the frames start again from its world (what was drawn before kept to compare).
  void RollBack(std::size_t window, bool was_predicting);
  // How far the rollback moved each remote cube drawn at the present, eased by its smoother.
  void SmoothRollbackJumps(const Frame& frame);
  // Each remote cube's position at `present` in the simulated frames (which must reach past it).
  void ReadRemotes(double present, std::array<std::optional<Vec2>, protocol::kMaxPlayers>& out) const;

  bool have_base_ = false;
  Tick base_tick_ = 0;
  std::vector<sim::PlayerCube> base_;
  bool rolled_back_ = true;   // the frames do not start from base_ yet
  bool have_frames_ = false;  // frame 0 holds a snapshot's world
  std::size_t cube_count_ = 0;
  Tick frames_tick_ = 0;                 // frame 0's tick
  std::vector<sim::PlayerCube> frames_;  // frame k (tick base_tick_ + k) at [k * cube_count_, ...)
  std::size_t valid_ = 0;                // frames 0..valid_ are simulated
  std::size_t own_inputs_used_ = 0;      // pending inputs the simulated frames took
  sim::Seq own_oldest_ = 0;              // the oldest of them
  // StepWorld's arguments, reused.
  std::vector<sim::PlayerStep> steps_;
  std::vector<sim::Input> inputs_;
  sim::OverlapResolver resolver_;

  double present_ = 0.0;
  bool others_predicted_ = false;
  std::optional<sim::CubeState> own_state_;
  std::array<std::optional<Vec2>, protocol::kMaxPlayers>
      remote_now_{};  // predicted positions at the present, by id
  std::array<std::optional<Vec2>, protocol::kMaxPlayers> remote_before_{};  // before the rollback (scratch)
  std::array<CorrectionSmoother, protocol::kMaxPlayers> remote_smoothers_{};
  WorldPredictionMetrics metrics_;
};

}  // namespace netcube::client
