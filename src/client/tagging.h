#pragma once
// The client's room for tags: firing them (the client-side cooldown, the claim of when the shooter saw
// the world), the results the server sends, the counts of tags given and taken, the flashes of tagged
// cubes, and, for tags taken, how long ago on this client's own clock its cube was where it was hit.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "netcube/client/metrics.h"
#include "netcube/client/settings.h"
#include "netcube/client/views.h"

namespace netcube::client {

class Tagging {
 public:
  // Forgets every tag and measurement: a new connection.
  void Reset() noexcept;

  // This client applied input `seq` to its prediction at `now` (its own clock).
  void OnInputSampled(sim::Seq seq, Micros now) noexcept;

  // When the shooter saw the world: the render time of the remote cubes it drew, the newest snapshot, the
  // interpolation delay; and where it saw its own cube (after input `seq`), units.
  struct Sight {
    double render_tick = 0.0;
    Tick seen_tick = 0;
    double delay_ms = 0.0;
    sim::Seq seq = 0;
    Vec2 origin;
  };
  // A tag toward `aim` if the cooldown allows one at `now`; the caller sends it.
  std::optional<protocol::Tag> Fire(Micros now, sim::Aim aim, const Sight& sight);

  // A TagResult from the server; `me` is this client's player id (none for a spectator).
  void OnResult(const protocol::TagResult& result, std::optional<sim::PlayerId> me, Micros now);

  // Drops flashes and shots older than their display time.
  void Expire(Micros now);

  const std::vector<ShotView>& shots() const noexcept { return shots_; }
  const std::vector<TagFlash>& flashes() const noexcept { return flashes_; }
  TagMetrics metrics() const noexcept;

 private:
  // Sample times of the newest inputs, by sequence (slot = seq % size, the seq kept to reject stale ones).
  struct Sampled {
    sim::Seq seq = 0;
    bool used = false;
    Micros at{0};
  };
  std::optional<Micros> SampledAt(sim::Seq seq) const noexcept;

  std::array<Sampled, 1024> sampled_{};
  std::optional<sim::Seq> newest_sampled_;
  std::uint8_t next_shot_ = 0;
  std::optional<Micros> last_fired_;
  std::vector<ShotView> shots_;
  std::vector<TagFlash> flashes_;
  TagMetrics metrics_;
  double rewind_sum_ms_ = 0.0;
  std::uint64_t rewinds_ = 0;
  // Victim's view, whole milliseconds: a histogram for the 99th percentile (the last bucket holds the rest).
  std::array<std::uint32_t, 2048> victim_view_histogram_{};
  double victim_view_sum_ms_ = 0.0;
};

}  // namespace netcube::client
