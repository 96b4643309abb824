#pragma once
// Headless players for netcube-bot and the tests: N clients in one process, each with its own socket,
// seed and scripted input; when the script (or the duration) ends they idle until their cubes have
// settled and every input is acknowledged, then the run produces a report.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "netcube/client/client.h"
#include "netcube/client/input_script.h"
#include "netcube/transport/link_conditioner.h"

namespace netcube::client {

// A tag made by hand, replayed: `at` after the play's start, aimed by HandAim toward `target`.
struct BotHandTag {
  Micros at{0};
  std::optional<Vec2> target;
};

// One player of a replay: its techniques, its keys and its tags by hand (in order).
struct BotPlayer {
  Settings settings;
  InputScript script;
  std::vector<BotHandTag> hand_tags;
};

struct BotConfig {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  std::string source_address = "0.0.0.0";  // every player's local address (ClientConfig::source_address)
  // Every player's network (ClientConfig::network); empty = real UDP.
  std::shared_ptr<transport::Network> network;
  int count = 1;            // players
  double duration_s = 0.0;  // 0: the timeline's length, or kDefaultBotDurationS for endless scripts
  Settings settings;
  transport::LinkSettings link;
  std::uint64_t seed = 1;  // player i uses seed + i (conditioner and random script), see same_network
  int input_rate = 1;
  Micros view_interval{0};          // every player's ClientConfig::view_interval
  std::size_t snapshot_budget = 0;  // every player's ClientConfig::snapshot_budget
  // Every client a spectator (ClientConfig::spectate); with `follow`, client i follows player follow + i
  // (modulo protocol::kMaxPlayers), so that spectators of a run follow its players in turn.
  bool spectate = false;
  std::optional<sim::PlayerId> follow;
  InputScript script;
  std::string name_prefix = "bot";  // players are named <prefix><i>
  double connect_timeout_s = 10.0;
  double settle_timeout_s = 15.0;  // bounded wait for settling after the script
  // The tag script: while playing, each player aims at the nearest remote cube as it draws it (within
  // reach) and tags every this many ms (the cooldown at least). 0: no tags.
  int tag_interval_ms = 0;
  // A replay (netcube-bot --replay): when not empty, one player per element with its own settings and
  // script (count, settings and script are ignored).
  std::vector<BotPlayer> players;
  // Every player behind a conditioner seeded with `seed` itself, so they meet the same network (a
  // comparison); else player i uses seed + i.
  bool same_network = false;
  // Player i's link logs (ClientConfig::incoming_link_log, outgoing_link_log) when there are that many:
  // its packets journaled (netcube-bot --explain).
  std::vector<transport::LinkLog> incoming_link_logs;
  std::vector<transport::LinkLog> outgoing_link_logs;
};
inline constexpr double kDefaultBotDurationS = 10.0;

struct BotPlayerReport {
  std::string name;
  int player_id = -1;
  bool connected = false;
  std::string status;  // refuse / loss reason
  bool settled = false;
  Metrics metrics;
  // The settled prediction and the settled server state, in units; final_match = settled and equal
  // exactly (position and velocity).
  Vec2 final_predicted;
  Vec2 final_server;
  bool final_match = false;
};

struct BotReport {
  std::vector<BotPlayerReport> players;
};

// The aim at the remote cube nearest the own cube (as drawn, centre to centre) that a tag can reach;
// nullopt when there is none.
std::optional<sim::Aim> AimAtNearest(const Client& client);
// The aim of a tag by hand: toward `target` (a point of the arena, units) when there is one, else along
// the own cube's predicted motion, else where it faces (its last motion or tag), else toward the nearest
// remote cube, else along +x.
sim::Aim HandAim(const Client& client, std::optional<Vec2> target);

class BotRun {
 public:
  // Starts connecting every player. nullptr with `error` set if a client cannot even start (bad host).
  static std::unique_ptr<BotRun> Start(const BotConfig& config, Micros now, std::string* error);
  ~BotRun();
  BotRun(const BotRun&) = delete;
  BotRun& operator=(const BotRun&) = delete;

  // Advances every player to `now`. Returns false once the run is over: all settled (or the settle wait
  // ran out), or a connection failed.
  bool Update(Micros now);

  // Why the run failed (a refusal with the server's reason, a lost or unanswered connection); nullopt
  // when every player connected.
  const std::optional<std::string>& failure() const noexcept;
  bool all_settled() const noexcept;
  BotReport Report() const;
  const std::vector<std::unique_ptr<Client>>& clients() const noexcept;
  // When the script started (every player connected); nullopt before.
  std::optional<Micros> play_start() const noexcept;
  // The buttons player `index` was given at the last Update.
  std::uint8_t held(std::size_t index) const noexcept;

  // Disconnects everyone politely (Update a few more times to let the goodbyes out).
  void Disconnect(Micros now);

 private:
  struct Impl;
  explicit BotRun(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace netcube::client
