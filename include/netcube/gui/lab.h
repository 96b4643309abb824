#pragma once
// netcube-client --lab: Gambetta's live demo. An in-process Server on 127.0.0.1 (an ephemeral port) and
// its Clients, talking over an in-memory hub of their own (or ENet over UDP loopback), drawn side by side
// with the server's view
// (the truth), each with its own controls. By default two players: Player 1 (arrow keys) and Player 2
// (W A S D). With --compare, one player per compared technique set, all driven by the same keys and
// behind the same network (CompareLabConfig).
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "netcube/client/client.h"
#include "netcube/client/settings.h"
#include "netcube/gui/arena.h"
#include "netcube/gui/keys.h"
#include "netcube/gui/player_view.h"
#include "netcube/gui/server_view.h"
#include "netcube/gui/timeline_view.h"
#include "netcube/server/server.h"
#include "netcube/sim/time.h"
#include "netcube/transport/link_profile.h"
#include "netcube/transport/network.h"

namespace netcube::gui {

inline constexpr std::size_t kMaxLabPlayers = client::kMaxCompareEntries;

struct LabPlayer {
  client::ClientConfig client;
  std::string title;      // heads the column and the panel ("Player 1", a compared set's label)
  std::string keys_hint;  // which keys move it and tag ("arrow keys, Space tags")
  KeyBinding keys = KeyBinding::kArrows;
};

struct LabConfig {
  // bind address, port and network are replaced by 127.0.0.1, an ephemeral port and the lab's network
  server::ServerConfig server;
  // The network between the server and the players (each player's network is replaced by it): a fresh
  // in-memory hub, so a run is the same on every machine and opens no socket; or UDP over loopback.
  transport::NetworkKind network = transport::NetworkKind::kMemory;
  std::vector<LabPlayer> players;  // 1 to kMaxLabPlayers
  // Scripted tags (screenshots, demos): each player tags the nearest remote cube as it draws it this
  // often, ms; 0 = by hand only.
  int tag_interval_ms = 0;
  // Tags by hand (each player's tag key, a click in its arena). A replay turns them off and plays the
  // recorded ones through Lab::TagByHand instead.
  bool hand_tags = true;
  PanelTab panel_tab = PanelTab::kTechniques;  // the tab every player panel opens on
  // The crowd lab: this many more players on the server (0 to kMaxCrowd), each a client with no column
  // wandering by the random script (seeded crowd_seed + i), drawn only as cubes in the views. The server
  // takes them all whatever its max_clients.
  int crowd = 0;
  std::uint64_t crowd_seed = 1;
};

// A tag by hand that the lab fired: whose, and toward what.
struct LabHandTag {
  std::size_t player = 0;
  TagRequest request;
  friend bool operator==(const LabHandTag&, const LabHandTag&) = default;
};

// The defaults show the techniques at once: both players behind a 250 ms round trip (125 ms each way),
// player 1 with every technique on (preset full), player 2 with none (preset naive).
inline constexpr double kLabDefaultLatencyMs = 125.0;
// The two players spawn this many units apart (a second at full speed), so that a first press toward the
// other is no collision: the correction plots show the netcode's corrections, not a push.
inline constexpr int kLabSpawnSpacingUnits = 16;
LabConfig DefaultLabConfig();
// The crowd lab's most wanderers, its arena (four times the standard's sides) and its interest radius: the
// relevance circle well inside the arena, so that most of the crowd is left out of a player's set.
inline constexpr int kMaxCrowd = 200;
inline constexpr sim::Arena kCrowdArena = sim::Arena::OfUnits(256, 144);
inline constexpr int kCrowdInterestRadiusUnits = 24;
// `config` with `crowd` wanderers seeded from `seed`, in kCrowdArena with kCrowdInterestRadiusUnits.
LabConfig WithCrowd(LabConfig config, int crowd, std::uint64_t seed);
// A fair comparison: one player per technique set, each behind `link` with the same conditioner `seed`
// (the same delays and losses at the same moments), on a server where their cubes spawn at the same place
// and never collide, so that only the techniques differ.
LabConfig CompareLabConfig(std::span<const client::TechniqueSet> entries, const transport::LinkSettings& link,
                           std::uint64_t seed);

// Where the views go: per column a title, the arena, and the panel below it. The server's column is in
// the middle: Player 1, Server, Player 2 for the default lab.
struct LabLayout {
  std::size_t columns = 0;  // players + 1
  std::size_t server_column = 0;
  std::array<Rect, kMaxLabPlayers + 1> title;
  std::array<Rect, kMaxLabPlayers + 1>
      arena;  // where each arena goes (the server's whole, players' followed)
  std::array<Rect, kMaxLabPlayers + 1> panel;

  static LabLayout For(ImVec2 display_size, std::size_t players) noexcept;
  // The column showing player `index`.
  std::size_t ColumnOf(std::size_t player) const noexcept {
    return player < server_column ? player : player + 1;
  }
};

class Lab {
 public:
  // Starts the server and connects every player. nullptr with `error` set if the server cannot start, a
  // player cannot connect (a bad name, no socket), or the config has no players or too many.
  static std::unique_ptr<Lab> Create(const LabConfig& config, Micros now, std::string* error);
  ~Lab();
  Lab(const Lab&) = delete;
  Lab& operator=(const Lab&) = delete;

  // Advances the server and every player to `now`; `held` are each player's buttons (one per player).
  void Update(Micros now, std::span<const std::uint8_t> held);
  // The views into the current ImGui frame, after the tags asked for by hand in it (when hand_tags): each
  // player's tag key (Space for the arrow keys, E for W A S D), or a click in a player's arena.
  void Draw(const LabLayout& layout, Micros now, std::span<const transport::LinkProfile> profiles);
  // The tags by hand fired since the last call, in order (to record them).
  std::vector<LabHandTag> TakeHandTags();
  // Fires a tag by hand for player `tag.player` as if it were asked for now (a replay's).
  void TagByHand(Micros now, const LabHandTag& tag);
  // The players whose Reconnect button was pressed since the last call, in order (to record them).
  std::vector<std::size_t> TakeReconnects();
  // Connects player `index` to the server again, as its Reconnect button does (a replay's press).
  void Reconnect(std::size_t index, Micros now);

  // Read only (a paused run, or one replaying its tape): no tags by hand, no Reconnect. The panels still draw
  // as they are (a scrubbed frame must look as it did when the run passed it): the caller puts back what they
  // change.
  void SetReadOnly(bool read_only) { read_only_ = read_only; }

  // A line shown beside the server's title, highlighted (a replay's progress); empty for none.
  void SetNotice(std::string notice) { notice_ = std::move(notice); }

  std::size_t players() const noexcept { return players_.size(); }
  std::size_t crowd() const noexcept { return crowd_.size(); }
  server::Server& server() noexcept { return *server_; }
  client::Client& player(std::size_t index) noexcept { return *players_[index]; }
  const PlayerView& player_view(std::size_t index) const noexcept { return player_views_[index]; }
  // The explained glitches, under the server's panel once enabled (a journaled run).
  TimelineView& timeline() noexcept { return timeline_; }

 private:
  Lab(std::unique_ptr<server::Server> server, const LabConfig& config);
  // The wanderers: connected once the players are, then driven by their scripts.
  void UpdateCrowd(Micros now);
  // The server view's observation, with the crowd's focus in the crowd lab.
  void ObserveServer(Micros now);
  void DrawPlayerColumn(std::size_t index, const LabLayout& layout, Micros now,
                        std::span<const transport::LinkProfile> profiles);
  // Where player `index`'s arena is drawn in its column.
  ArenaMapping PlayerMapping(std::size_t index, const LabLayout& layout) const noexcept;

  std::unique_ptr<server::Server> server_;
  std::vector<std::unique_ptr<client::Client>> players_;
  std::vector<std::unique_ptr<client::Client>> crowd_;  // the wanderers, no column
  std::vector<PlayerKeys> crowd_keys_;
  bool crowd_started_ = false;
  CrowdFocus crowd_focus_;  // refreshed every Update, its room reused
  std::vector<PlayerView> player_views_;
  std::vector<std::string> column_titles_;
  ServerView server_view_;
  TimelineView timeline_;
  std::vector<std::string> connect_errors_;
  int tag_interval_ms_ = 0;
  std::vector<Micros> next_scripted_tag_;
  std::vector<KeyBinding> tag_keys_;
  bool hand_tags_ = true;
  std::vector<LabHandTag> hand_tags_fired_;
  std::vector<std::size_t> reconnects_pressed_;
  std::string notice_;
  bool read_only_ = false;
};

}  // namespace netcube::gui
