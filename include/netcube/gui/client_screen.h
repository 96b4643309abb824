#pragma once
// netcube-client connected to a server somewhere: a connect panel (the servers heard on the LAN, each
// joined with a click; host, port, name, status, the server's refusal reason) beside the player's view of
// the arena and its controls; Space or a click in the arena tags. A spectator (ClientConfig::spectate) has
// no cube: its camera follows a player's (Tab: the next one) or moves freely (arrow keys; F frees it).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "netcube/client/client.h"
#include "netcube/discovery/browser.h"
#include "netcube/gui/arena.h"
#include "netcube/gui/player_view.h"
#include "netcube/sim/time.h"
#include "netcube/transport/link_profile.h"

namespace netcube::gui {

struct ClientScreenConfig {
  client::ClientConfig client;  // name, settings, link, seed
  std::string host = "127.0.0.1";
  std::uint16_t port = 7777;
  bool connect_at_start = false;
  bool browse = true;  // list the servers LAN discovery hears
  discovery::BrowserConfig browser;
};

// The arena on the left, the panel on the right.
struct ClientLayout {
  Rect title;
  Rect arena;  // where the arena goes (PlayerView::MappingFor fits or follows it there)
  Rect panel;
  static ClientLayout For(ImVec2 display_size) noexcept;
};

// A spectator's camera: following a player's cube, or free, moved by the arrow keys within the arena.
class SpectatorCamera {
 public:
  static constexpr double kPanUnitsPerSecond = 40.0;

  explicit SpectatorCamera(std::optional<sim::PlayerId> follow = std::nullopt) noexcept : follow_(follow) {}

  // Keeps the free centre on the followed cube while it is drawn; buttons held (sim::kLeft...) for
  // `elapsed` pan the camera from where it is, freeing it.
  void Update(const client::Client& client, std::uint8_t held_buttons, Micros elapsed) noexcept;
  // Follows the player after the one followed in id order (cycling), or the first; none drawn: no change.
  void FollowNext(const client::Client& client);
  void Free() noexcept { follow_.reset(); }

  std::optional<sim::PlayerId> following() const noexcept { return follow_; }
  // Where the camera looks, in units: the followed cube as drawn when it is, else the free centre (the
  // arena's centre until it moved).
  client::Vec2 Centre(const client::Client& client) const noexcept;
  // The camera as the server's interest management takes it (Client::Watch): the player followed, or the
  // centre in whole units within the arena.
  protocol::Viewpoint Viewpoint(const client::Client& client) const noexcept;

 private:
  std::optional<sim::PlayerId> follow_;
  std::optional<client::Vec2> free_;  // empty until the camera moved or followed a drawn cube
};

class ClientScreen {
 public:
  ClientScreen(const ClientScreenConfig& config, Micros now);
  ~ClientScreen();
  ClientScreen(const ClientScreen&) = delete;
  ClientScreen& operator=(const ClientScreen&) = delete;

  // Connects to the panel's host, port and name, with a fresh client that keeps the current settings and
  // link. False (and connect_error() says why) for a bad name, host or port.
  bool Connect(Micros now);
  void Disconnect(Micros now);

  void Update(Micros now, std::uint8_t held_buttons);
  void Draw(const ClientLayout& layout, Micros now, std::span<const transport::LinkProfile> profiles);

  // The line above the arena: the name, where it is connected (or that it is not), and the keys; a
  // spectator's, whom it follows.
  std::string Title() const;
  // The arena's part drawn in `area`: around the own cube, or a spectator's camera.
  ArenaMapping MappingFor(const Rect& area) const noexcept;

  client::Client& client() noexcept { return *client_; }
  SpectatorCamera& camera() noexcept { return camera_; }
  const std::string& connect_error() const noexcept { return connect_error_; }

 private:
  void DrawConnectPanel(Micros now);
  void DrawServerList(Micros now, bool idle);
  void DrawCameraControls();

  client::ClientConfig config_;
  std::unique_ptr<client::Client> client_;
  PlayerView view_;
  SpectatorCamera camera_;
  std::optional<Micros> last_update_;
  std::string host_;
  int port_ = 0;
  std::string name_;
  std::string connect_error_;
  std::string connected_to_;  // host:port of the latest Connect
  std::unique_ptr<discovery::Browser> browser_;
  std::string browser_error_;
};

}  // namespace netcube::gui
