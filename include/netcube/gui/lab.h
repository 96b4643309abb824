#pragma once
// netcube-client --lab: Gambetta's live demo over real sockets. An in-process Server on 127.0.0.1 (an
// ephemeral port) and two Clients talking ENet over loopback, drawn side by side: Player 1 (arrow keys),
// the Server (the truth), Player 2 (W A S D), each with its own controls.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "netcube/client/client.h"
#include "netcube/gui/arena.h"
#include "netcube/gui/player_view.h"
#include "netcube/gui/server_view.h"
#include "netcube/server/server.h"
#include "netcube/transport/link_profile.h"
#include "netcube/sim/time.h"

namespace netcube::gui {

inline constexpr std::size_t kLabPlayers = 2;

struct LabConfig {
  server::ServerConfig server;  // bind address and port are replaced by 127.0.0.1 and an ephemeral port
  std::array<client::ClientConfig, kLabPlayers> players;
  // Scripted tags (screenshots, demos): each player tags the nearest remote cube as it draws it this
  // often, ms; 0 = by hand only.
  int tag_interval_ms = 0;
};

// The defaults show the techniques at once: both players behind a 250 ms round trip (125 ms each way),
// player 1 with every technique on (preset full), player 2 with none (preset naive).
inline constexpr double kLabDefaultLatencyMs = 125.0;
LabConfig DefaultLabConfig();

// Where the three views go: per column (0 = Player 1, 1 = Server, 2 = Player 2) a title, the arena, and
// the panel below it.
struct LabLayout {
  static constexpr std::size_t kColumns = 3;
  static constexpr std::size_t kServerColumn = 1;
  std::array<Rect, kColumns> title;
  std::array<ArenaMapping, kColumns> arena;
  std::array<Rect, kColumns> panel;

  static LabLayout For(ImVec2 display_size) noexcept;
  // The column showing player `index` (0 or 1).
  static constexpr std::size_t ColumnOf(std::size_t player) noexcept { return player == 0 ? 0 : 2; }
};

class Lab {
 public:
  // Starts the server and connects both players. nullptr with `error` set if the server cannot start.
  static std::unique_ptr<Lab> Create(const LabConfig& config, Micros now, std::string* error);
  ~Lab();
  Lab(const Lab&) = delete;
  Lab& operator=(const Lab&) = delete;

  // Advances the server and both players to `now`; `held` are each player's buttons.
  void Update(Micros now, std::array<std::uint8_t, kLabPlayers> held);
  // The three views into the current ImGui frame, after the tags asked for by hand in it: Space (player
  // 1) and E (player 2), or a click in a player's arena.
  void Draw(const LabLayout& layout, Micros now, std::span<const transport::LinkProfile> profiles);

  server::Server& server() noexcept { return *server_; }
  client::Client& player(std::size_t index) noexcept { return *players_[index]; }
  const PlayerView& player_view(std::size_t index) const noexcept { return player_views_[index]; }

 private:
  Lab(std::unique_ptr<server::Server> server, const LabConfig& config);
  void DrawPlayerColumn(std::size_t index, const LabLayout& layout, Micros now,
                        std::span<const transport::LinkProfile> profiles);

  std::unique_ptr<server::Server> server_;
  std::array<std::unique_ptr<client::Client>, kLabPlayers> players_;
  std::array<PlayerView, kLabPlayers> player_views_;
  ServerView server_view_;
  std::array<std::string, kLabPlayers> connect_errors_;
  int tag_interval_ms_ = 0;
  std::array<Micros, kLabPlayers> next_scripted_tag_{};
  std::array<bool, kLabPlayers> tag_key_was_down_{};
};

}  // namespace netcube::gui
