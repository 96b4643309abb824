#pragma once
// Fills a Journal from what a run already measures: each client's link conditioners (their per-packet
// logs), its metrics, views and tags, and the server's per-client input counters, statistics and world.
// The caller gives the link logs to the clients it creates and calls Record once per frame after updating
// them; nothing is threaded through the server's or the client's rooms. Recording allocates nothing once
// every client has joined (the server's client list is copied into a reused vector).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "netcube/client/client.h"
#include "netcube/server/server.h"
#include "netcube/sim/ray.h"
#include "netcube/timeline/journal.h"
#include "netcube/transport/link_conditioner.h"

namespace netcube::timeline {

class Recorder {
 public:
  explicit Recorder(Journal& journal);

  // The link logs for client `index`'s conditioners (ClientConfig::incoming_link_log, outgoing_link_log).
  // They stamp each packet with the frame last given to Record or BeginFrame.
  transport::LinkLog DownLog(std::size_t index);
  transport::LinkLog UpLog(std::size_t index);

  // The frame whose updates come next (so the packets they push carry it).
  void BeginFrame(std::int32_t frame) noexcept { frame_ = frame; }
  // After the frame's updates: what changed in the server and in every client since the last call.
  // `clients` in the order of the journal's clients (nullptr: not there).
  void Record(std::int32_t frame, Micros now, const server::Server& server,
              std::span<const client::Client* const> clients) {
    Record(frame, now, &server, clients);
  }
  // `server` null: it runs in another process (netcube-bot --connect), its ring stays empty.
  void Record(std::int32_t frame, Micros now, const server::Server* server,
              std::span<const client::Client* const> clients);
  // A scripted link change applied now (player: the client's index + 1, 0 for the server).
  void RecordLinkChange(std::int32_t frame, Micros now, std::size_t script_index, std::uint16_t player);
  // A scripted step of client `index`'s clock, applied now: journaled, and from now on its packets are
  // stamped back on the run's clock (the conditioners run on the client's).
  void RecordClockStep(std::int32_t frame, Micros now, std::size_t script_index, std::size_t index,
                       Micros step);

  Journal& journal() noexcept { return journal_; }
  const Journal& journal() const noexcept { return journal_; }

 private:
  struct ClientState {
    std::uint64_t corrections = 0;
    std::uint64_t underruns = 0;
    double extrapolation_ms = 0.0;
    int snapshot_rate = 0;
    double interp_delay_ms = 0.0;
    std::uint64_t snapshots_received = 0;
    std::uint64_t snapshots_late = 0;
    std::uint64_t snapshots_full = 0;
    std::uint64_t snapshots_delta = 0;
    std::uint64_t inputs_sent = 0;
    Micros clock_step{0};
    std::optional<client::Tick> newest_tick;
    Micros last_arrival{0};
    Micros last_shot_fired{-1};
    std::uint8_t judged_shots[client::kMaxShotViews] = {};  // shot numbers already recorded as judged
    std::size_t judged_next = 0;
  };
  struct ServerClientState {
    sim::PlayerId id = 0;
    std::uint64_t dry_ticks = 0;
    std::uint64_t lost = 0;
    std::uint64_t refused = 0;
    int input_target = 0;
  };
  struct ContactPair {
    sim::PlayerId a = 0;
    sim::PlayerId b = 0;
    friend bool operator==(const ContactPair&, const ContactPair&) = default;
  };

  void Add(std::size_t source, const Event& event) noexcept;
  void RecordPacket(std::size_t index, EventKind kind, const transport::LinkDecision& decision);
  void RecordClient(std::size_t index, std::int32_t frame, Micros now, const client::Client& client);
  // The snapshots that arrived since the last record, and those the server should have sent before them.
  void RecordArrivals(std::size_t index, std::int32_t frame, Micros now, const client::Client& client,
                      const client::Metrics& m);
  void RecordShots(std::size_t index, std::int32_t frame, Micros now, const client::Client& client);
  void RecordServer(std::int32_t frame, Micros now, const server::Server& server);
  // Each client's inputs at the server: dry ticks, lost, refused, and the input buffer's target.
  void RecordInputs(std::int32_t frame, Micros now, const server::Server& server);
  // The cubes touching this frame (with collisions on), a contact's first frame marked.
  void RecordContacts(std::int32_t frame, Micros now, const server::Server& server);

  Journal& journal_;
  std::int32_t frame_ = 0;
  std::vector<ClientState> clients_;
  std::vector<server::ClientInfo> server_clients_;  // reused
  std::vector<ServerClientState> server_state_;     // by the server's client order, found by id
  std::vector<ContactPair> contacts_;
  std::vector<ContactPair> next_contacts_;
  std::vector<sim::RayTarget> ray_targets_;  // reused: the remote cubes as a shooter drew them
  server::ServerStats last_stats_;
};

}  // namespace netcube::timeline
