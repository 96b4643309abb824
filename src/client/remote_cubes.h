#pragma once
// The client's room for the other players' cubes: their names, an interpolation buffer each, and the
// views drawn from them at the render time the view delay (view_delay.h) sets. With smoothing, a drawn cube
// never moves faster than a cube can: when a late snapshot corrects an extrapolation, the difference is made
// up over the next frames instead of in one jump.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "netcube/client/metrics.h"
#include "netcube/client/server_clock.h"
#include "netcube/client/settings.h"
#include "netcube/client/views.h"
#include "netcube/protocol/messages.h"
#include "view_delay.h"

namespace netcube::client {

class RemoteCubes {
 public:
  // Forgets every cube, name and measurement: a new connection.
  void Reset();

  // From PlayerJoined (a later one renames) and PlayerLeft.
  void OnJoined(const protocol::PlayerJoined& joined);
  void Forget(sim::PlayerId id);

  // One accepted snapshot: Receive every remote cube in it (of server tick `tick`) between BeginSnapshot
  // and EndSnapshot, and Keep those still relevant whose state it does not carry (an interest snapshot's
  // members without one): drawn from their earlier states, not counted dry. Cubes neither received nor
  // kept are gone (left the world, or this client's relevant set).
  void BeginSnapshot() noexcept;
  void Receive(Tick tick, const sim::PlayerCube& player);
  void Keep(sim::PlayerId id) noexcept;
  void EndSnapshot();
  // A remote cube's state from a snapshot older than the newest: buffered if the cube is still known and
  // the state is not yet behind the render time (it says nothing about who is present).
  void ReceiveLate(Tick tick, const sim::PlayerCube& player, const ViewDelay& delay);

  // Samples every cube at the view delay's render time, just advanced (over `elapsed_ms`). A cube whose first
  // state is still ahead of the render time had not joined at that time: it has no view yet (drawing it at
  // its first state would show, and let a player tag, a cube where it never was at that time). Extrapolation
  // stops at the walls of `arena`.
  void RefreshViews(double elapsed_ms, const ViewDelay& delay, const ServerClock& clock,
                    const Settings& settings, const sim::Arena& arena);
  // Some cube's render time was past its newest state at the last refresh: the delay climbs fast.
  bool dry() const noexcept { return dry_; }

  // predict_others: every cube `predicted(id)` places (a std::optional<Vec2>) is drawn there instead, at
  // the present.
  template <class Predicted>
  void DrawPredicted(const Predicted& predicted) {
    for (RemoteView& view : views_) {
      const std::optional<Vec2> position = predicted(view.id);
      if (!position) continue;
      view.drawn = *position;
      view.sample = SampleKind::kPredicted;
    }
    for (Cube& cube : cubes_) {
      if (const std::optional<Vec2> position = predicted(cube.id)) cube.drawn = *position;
    }
  }

  const std::vector<RemoteView>& views() const noexcept { return views_; }
  const RemoteCubeMetrics& metrics() const noexcept { return metrics_; }

 private:
  // What every snapshot and refresh reads first, then the buffer (its count and oldest states next to
  // them): a client holds a hundred cubes or more, each a cache miss of its own.
  struct Cube {
    sim::PlayerId id = 0;
    bool seen = false;       // present in the snapshot being processed
    bool kept = false;       // present in the newest snapshot without a state
    bool was_drawn = false;  // it had a view at the last refresh
    sim::CubeState latest;
    Vec2 drawn;  // where it was drawn at the last refresh
    InterpolationBuffer buffer;
  };

  // The first cube whose id is at least `id`. A snapshot names its cubes by increasing id: the search goes
  // on from where the last one ended, and starts over when an id comes before it.
  std::vector<Cube>::iterator LowerBound(sim::PlayerId id) noexcept;

  std::vector<Cube> cubes_;                                   // increasing id
  std::size_t cursor_ = 0;                                    // where the last LowerBound ended
  std::vector<std::pair<sim::PlayerId, std::string>> names_;  // from PlayerJoined, increasing id
  bool underrun_ = false;                                     // inside an underrun episode (counted once)
  bool dry_ = false;                                          // see dry()
  RemoteCubeMetrics metrics_;
  std::vector<RemoteView> views_;
};

}  // namespace netcube::client
