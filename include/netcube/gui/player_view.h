#pragma once
// One player's view of the game, as the standalone client and each half of the lab draw it: the arena as
// this client sees it (with switchable overlays), the pending-input strip, readouts and live plots, and
// every netcode control. It only reads the client's views and sets its settings and link: no netcode here.
#include <imgui.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "netcube/client/client.h"
#include "netcube/gui/arena.h"
#include "netcube/sim/time.h"
#include "netcube/sim/world.h"
#include "netcube/transport/link_profile.h"

namespace netcube::gui {

struct Overlays {
  // Outline at every cube's authoritative position: the server's own world when it runs in this process
  // (the lab), else the newest server state received (a remote server's truth is known no better).
  bool server_ghost = true;
  bool latest_received = true;  // frame at each remote cube's newest snapshot state, before interpolation
  bool raw_prediction = true;   // outline at the own cube's raw prediction while smoothing draws it elsewhere
  bool trails = true;           // short motion trails
  bool corrections = true;      // arrow of the latest reconciliation correction, fading out
  bool tag_reach = true;        // the circle a tag's ray reaches around the own cube
};

// A ring of the latest samples of one quantity, in the layout ImGui::PlotLines reads (values + offset).
class SampleRing {
 public:
  static constexpr std::size_t kCapacity = 150;

  void Push(float value) noexcept;
  const float* data() const noexcept { return values_.data(); }
  // Index of the oldest sample (PlotLines' values_offset).
  int offset() const noexcept { return static_cast<int>(next_); }
  float latest() const noexcept;
  float max() const noexcept;

 private:
  std::array<float, kCapacity> values_{};
  std::size_t next_ = 0;
};

// The plotted quantities, sampled every kInterval of the caller's time (150 samples: the last 5 s).
struct MetricsHistory {
  static constexpr Micros kInterval{33'333};
  SampleRing rtt_ms;
  SampleRing correction;  // largest correction (units) in each interval, 0 when there was none
  SampleRing buffer_depth;
  SampleRing interp_delay_ms;
  SampleRing bytes_up_per_s;
  SampleRing bytes_down_per_s;
};

// A tag by hand (the tag key, a click), as recorded and replayed.
struct TagRequest {
  std::optional<client::Vec2> target;  // the arena point under the mouse (units), when it was over the arena
  friend bool operator==(const TagRequest&, const TagRequest&) = default;
};

// The player panel's tabs (below its presets, link and pending strip), in their order.
enum class PanelTab : std::uint8_t { kTechniques, kReadouts, kPlots, kOverlays };
inline constexpr const char* kPanelTabNames[] = {"techniques", "readouts", "plots", "overlays"};

class PlayerView {
 public:
  // `title` heads the panel ("Player 1"); `keys_hint` says which keys move ("arrow keys").
  PlayerView(std::string title, std::string keys_hint);

  // Samples the client for plots, trails and correction arrows. Call once per frame after Client::Update.
  void Observe(Micros now, const client::Client& client);
  // Forgets everything observed (a new connection).
  void Reset();

  // The arena of `client`'s session in `area`: the whole of it, or in a large one the part around its own
  // cube (ArenaMapping::Follow), else around `camera` (a spectator's, units), else around the centre.
  static ArenaMapping MappingFor(const Rect& area, const client::Client& client,
                                 std::optional<client::Vec2> camera = std::nullopt) noexcept;
  // `authoritative`: the server's world when the caller has it (the lab), else empty.
  void DrawArena(ImDrawList& draw, const ArenaMapping& mapping, const client::Client& client, Micros now,
                 std::span<const sim::PlayerCube> authoritative = {}) const;
  // A tag asked for by hand in this frame: when `key_pressed` or the mouse was clicked over this arena.
  std::optional<TagRequest> TagInput(const ArenaMapping& mapping, bool key_pressed) const;
  // Fires a tag by hand (client::HandAim: toward `target`, else along the motion, else where the cube faces).
  void TagByHand(client::Client& client, Micros now, std::optional<client::Vec2> target);

  // Status, presets, link profiles, pending-input strip, controls, readouts and plots, into the current
  // ImGui window. `profiles` may be empty (the profile file could not be read).
  void DrawPanel(client::Client& client, std::span<const transport::LinkProfile> profiles);

  // The tab shown from the next draw on (a screenshot's), until the user picks another.
  void SelectTab(PanelTab tab) { tab_to_select_ = tab; }

  const MetricsHistory& history() const noexcept { return history_; }
  const std::string& title() const noexcept { return title_; }

 private:
  struct Correction {
    client::Vec2 from;
    client::Vec2 to;
    Micros at{0};
  };

  void DrawStatus(const client::Client& client) const;
  // The arena's outlines the overlays ask for: the server's cubes (or the newest states received), the
  // raw prediction; and the newest correction's fading arrow.
  void DrawOutlines(ImDrawList& draw, const ArenaMapping& mapping, const client::Client& client,
                    std::span<const sim::PlayerCube> authoritative) const;
  void DrawCorrection(ImDrawList& draw, const ArenaMapping& mapping, const client::Client& client,
                      Micros now) const;
  // The cubes' labels, kept off the cubes and the outlines drawn.
  void DrawLabels(ImDrawList& draw, const ArenaMapping& mapping, const client::Client& client,
                  std::span<const sim::PlayerCube> authoritative) const;
  void DrawPresets(client::Client& client) const;
  void DrawLinkProfiles(client::Client& client, std::span<const transport::LinkProfile> profiles) const;
  void DrawTechniques(client::Client& client) const;
  void DrawLinkConditioner(client::Client& client) const;
  void DrawOverlayToggles();
  void DrawReadouts(const client::Client& client) const;
  void DrawPlots() const;

  std::string title_;
  std::string keys_hint_;
  Overlays overlays_;
  MetricsHistory history_;
  Trails trails_;
  std::optional<Micros> last_sample_;
  std::uint64_t corrections_seen_ = 0;
  double largest_correction_since_sample_ = 0.0;
  std::optional<Correction> latest_correction_;
  std::optional<PanelTab> tab_to_select_;
};

// The unacknowledged inputs as rows of cells (sequence number, held directions), oldest first, into the
// current ImGui window: the queue fills under lag and drains as acknowledgements arrive. One row of
// cells; the inputs that do not fit are summed up in a last "+N" cell.
void DrawPendingStrip(const client::PendingInputs& pending);

}  // namespace netcube::gui
