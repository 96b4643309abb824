#pragma once
// The netcube client: one connection to a server through a transport::Host, the local cube predicted from
// its inputs and reconciled with the server (pending-input queue, replay), remote cubes interpolated
// between snapshots, and every technique switchable live (settings.h). No window, no clock: the caller
// passes the time and the held buttons to Update and draws the views.
//
// Positions in every view are in units as double (sim sub-units / sim::kSubUnitsPerUnit); raw simulation
// states (sim::CubeState) are in sub-units.
//
// Inputs. Update samples the held buttons every 1/60 s (input_rate times per step) once the first snapshot
// has shown the client its cube. Each sample becomes a sequenced sim::Input, is applied at once to the
// predicted cube with sim::Move, queued as pending, and sent with the newest `redundancy` pending inputs in
// one unreliable InputMessage; while inputs are pending every sample resends them. A sample with no key
// held on a cube at rest changes nothing on either side and is skipped, so an idle client's queue drains.
//
// Reconciliation. Every accepted snapshot drops the pending inputs up to its ack and takes the server's
// state for the own cube; with reconciliation on the remaining pending inputs are replayed on top of it
// (Gambetta part II), with it off the server's state simply overwrites the prediction (naive prediction)
// and the inputs in flight stay pending, resent, until acknowledged. A correction is a snapshot after
// which the predicted state differs from the one before it, counted only while the prediction is drawn.
// The prediction is always computed; `prediction` only decides whether the own cube is drawn at it or at
// the latest server state.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "netcube/client/client_config.h"
#include "netcube/client/interpolation_buffer.h"
#include "netcube/client/metrics.h"
#include "netcube/client/pending_inputs.h"
#include "netcube/client/settings.h"
#include "netcube/client/units.h"
#include "netcube/client/views.h"
#include "netcube/protocol/messages.h"
#include "netcube/transport/network.h"

namespace netcube::client {

class Client {
 public:
  explicit Client(ClientConfig config);
  // Destroys the socket without a goodbye (the server sees a timeout); call Disconnect first to be polite.
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Opens a socket and starts connecting (from kDisconnected, kRefused, kLost or kUnreachable). False with
  // `error` set for an unknown host name, port 0, or a client already connecting or connected.
  bool Connect(const std::string& host, std::uint16_t port, Micros now, std::string* error);
  // Polite goodbye; the state becomes kDisconnected at once (later Updates finish the handshake).
  void Disconnect(Micros now);

  // Advances the client to `now`: samples `held_buttons` (sim::Button bits) at the fixed step, predicts,
  // sends inputs and time echoes, services the network, handles what arrived, and refreshes the views.
  void Update(Micros now, std::uint8_t held_buttons);

  // Tags toward `aim` from the own cube, as drawn now (the server judges it against the remote cubes
  // where this client draws them). False when not connected, the own cube is not known yet, or the
  // cooldown (sim::kTagCooldownMs) has not passed since the last tag.
  bool Tag(Micros now, sim::Aim aim);
  // This client's recent tags (the rays to draw), and the recently tagged cubes of everyone (to flash).
  const std::vector<ShotView>& shots() const noexcept;
  const std::vector<TagFlash>& tag_flashes() const noexcept;

  // Steps this client's clock forward by `step` (negative steps are ignored): from now on it sees every
  // time it is given that much later, as a process whose clock jumped would (the lab's `clock` link-script
  // change, which the timeline names as a glitch's cause).
  void StepClock(Micros step);
  Micros clock_step() const noexcept;

  // Both take effect at once, without reconnecting.
  void SetSettings(const Settings& settings);
  const Settings& settings() const noexcept;
  void SetLink(const transport::LinkSettings& link);
  const transport::LinkSettings& link() const noexcept;

  ConnectionState state() const noexcept;
  // Why the client is refused or lost (e.g. protocol::ToString(RefuseReason)); empty otherwise.
  const std::string& status() const noexcept;
  // The own cube's id; empty when not connected, or connected as a spectator.
  std::optional<sim::PlayerId> player_id() const noexcept;
  // Connected without a cube of its own (ClientConfig::spectate): it draws every cube as a remote one.
  bool spectator() const noexcept;
  // A spectator's camera, for the server to choose its relevant set around (interest management): sent
  // whenever it changes, a few times a second at most. Call it as often as the camera moves.
  void Watch(const protocol::Viewpoint& viewpoint);
  // The server's Welcome (tick and snapshot rates, collisions, arena); meaningful once connected.
  const protocol::Welcome& welcome() const noexcept;

  const LocalView& local() const noexcept;
  // Remote cubes in increasing id order, as of the latest accepted snapshot.
  const std::vector<RemoteView>& remotes() const noexcept;
  // The unacknowledged inputs, oldest first (the pending-input strip).
  const PendingInputs& pending() const noexcept;
  std::optional<PredictionCheck> last_prediction_check() const noexcept;
  // Estimated server time and the render time of remote cubes, in server ticks (fractional).
  // The server tick of the newest snapshot accepted (full or delta): the world local().server_state and
  // remotes()' latest states show. Empty before the first.
  std::optional<Tick> newest_snapshot_tick() const noexcept;
  double server_time_ticks() const noexcept;
  // The render time: the present itself while predict_others draws the remote cubes there.
  double render_tick() const noexcept;
  // While connected and no snapshot has arrived for longer than a few expected intervals
  // (kSilentSnapshotIntervals, kMinSnapshotSilence) as of the last Update: how long none has (since the
  // newest one, or the Welcome). Empty while they come, or when not connected.
  std::optional<Micros> snapshot_silence() const noexcept;

  Metrics metrics() const;
  transport::TransportCounters transport_counters() const;

  // Connected, the own cube known and at rest both predicted and on the server, and every input
  // acknowledged: nothing more will change until a key is pressed or someone pushes the cube. A spectator
  // has no cube: connected is settled.
  bool Settled() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace netcube::client
