#include "snapshots.h"

#include <algorithm>
#include <cassert>

#include "config.h"
#include "netcube/protocol/rules.h"

namespace netcube::server {

Snapshots::Snapshots() {
  receivers_.reserve(protocol::kMaxPlayers);
  writers_.reserve(protocol::kMaxPlayers);  // address space only until encodings need it
}

int Snapshots::RateOf(const SnapshotFeed& feed, const ServerConfig& config, int tick_rate) noexcept {
  return feed.rate > 0 ? protocol::EffectiveSnapshotRate(feed.rate, MostSnapshots(config, tick_rate))
                       : protocol::EffectiveSnapshotRate(config.snapshot_rate, tick_rate);
}

void Snapshots::OnSeen(SnapshotFeed& feed, std::uint64_t tick, std::uint16_t seen_tick) noexcept {
  // A claim of a tick the client never received only spoils its own next delta, which it drops.
  const std::uint64_t seen = protocol::WidenSeenTick(seen_tick, tick);
  if (feed.sent_ticks[seen % feed.sent_ticks.size()] != seen) return;  // never sent: a lie or a stale one
  if (!feed.seen_tick || seen > *feed.seen_tick) feed.seen_tick = seen;
}

void Snapshots::OnTickRate(int tick_rate, std::vector<Client>& clients) noexcept {
  credit_ = std::min(credit_, tick_rate - 1);
  for (Client& client : clients) client.feed.credit = std::min(client.feed.credit, tick_rate - 1);
}

bool Snapshots::MarkDue(std::vector<Client>& clients, const ServerConfig& config, int tick_rate) noexcept {
  const auto take_credit = [tick_rate](int& credit, int rate) {
    credit += rate;
    if (credit < tick_rate) return false;
    credit %= tick_rate;
    return true;
  };
  const bool server_due = take_credit(credit_, config.snapshot_rate);
  bool any_due = false;
  for (Client& client : clients) {
    SnapshotFeed& feed = client.feed;
    feed.due = feed.rate > 0 ? take_credit(feed.credit, RateOf(feed, config, tick_rate)) : server_due;
    any_due = any_due || feed.due;
  }
  return any_due;
}

std::uint64_t Snapshots::BaselineFor(const SnapshotFeed& feed, std::uint64_t tick,
                                     const WorldHistory& history, SnapshotEncoding encoding) {
  if (encoding != SnapshotEncoding::kDelta || !feed.seen_tick) return kNoBaseline;
  const std::uint64_t age = tick - *feed.seen_tick;
  std::span<const sim::PlayerCube> cubes;
  std::span<const std::uint32_t> gens;
  if (age < 1 || age > protocol::kMaxDeltaAge || !history.WorldOf(*feed.seen_tick, cubes, gens))
    return kNoBaseline;
  return *feed.seen_tick;
}

void Snapshots::Prepare(std::uint64_t tick, const Players& players, const WorldHistory& history,
                        const protocol::TurnLog& turns, SnapshotEncoding encoding) {
  const std::vector<Player>& cube_owners = players.players();
  for (std::size_t i = 0; i < cube_owners.size(); ++i) generations_[i] = cube_owners[i].generation;
  const std::vector<Client>& clients = players.clients();
  receivers_.clear();
  for (std::size_t i = 0; i < clients.size(); ++i) {
    if (clients[i].feed.due)
      receivers_.push_back({BaselineFor(clients[i].feed, tick, history, encoding), i, 0});
  }
  std::sort(receivers_.begin(), receivers_.end());
  ShareBaselines(tick, clients);
  std::size_t groups = 0;
  for (std::size_t k = 0; k < receivers_.size(); ++k) {
    if (k == 0 || receivers_[k].baseline != receivers_[k - 1].baseline) {
      if (writers_.size() == groups) writers_.emplace_back();
      group_is_delta_[groups] =
          PrepareOne(tick, players.world(), history, turns, receivers_[k].baseline, writers_[groups]);
      ++groups;
    }
    receivers_[k].group = groups - 1;
  }
  counters_.snapshot_encodes += groups;
}

void Snapshots::ShareBaselines(std::uint64_t tick, const std::vector<Client>& clients) {
  std::size_t delta_receivers = 0;
  std::size_t distinct = 0;
  for (; delta_receivers < receivers_.size() && receivers_[delta_receivers].baseline != kNoBaseline;
       ++delta_receivers) {
    if (delta_receivers == 0 ||
        receivers_[delta_receivers].baseline != receivers_[delta_receivers - 1].baseline) {
      ++distinct;
    }
  }
  if (distinct <= kMaxDeltaEncodes) return;
  const std::size_t run_size = (delta_receivers + kMaxDeltaEncodes - 1) / kMaxDeltaEncodes;
  std::size_t runs = 0;
  std::size_t in_run = 0;
  std::uint64_t anchor = kNoBaseline;
  std::array<std::uint64_t, kMaxDeltaEncodes> anchors{};  // each run's, oldest first
  for (std::size_t k = 0; k < delta_receivers;) {
    const std::uint64_t baseline = receivers_[k].baseline;
    std::size_t end = k;
    while (end < delta_receivers && receivers_[end].baseline == baseline) ++end;
    // Baselines older than a client must hold (an honest client names one only after a long loss, a
    // hostile one at will) all share the first run: one encode for all of them.
    const bool held = tick - baseline <= protocol::kHeldBaselines;
    if (runs < kMaxDeltaEncodes && (runs == 0 || (held && (in_run >= run_size || end - k >= run_size)))) {
      anchor = baseline;
      anchors[runs] = anchor;
      in_run = 0;
      ++runs;
    }
    in_run += end - k;
    for (; k < end; ++k) {
      const SnapshotFeed& feed = clients[receivers_[k].client].feed;
      // Sent before the newest it told of, so held unless it was lost: a jittery link bunches snapshots
      // and a client tells only the newest of each bunch. A lost one costs the client that delta, which it
      // drops, no more.
      const auto holds = [&](std::uint64_t shared) {
        return shared == baseline || (feed.sent_ticks[shared % feed.sent_ticks.size()] == shared &&
                                      tick - shared <= protocol::kHeldBaselines);
      };
      std::uint64_t shared = kNoBaseline;
      for (std::size_t run = runs; run-- > 0;) {
        if (holds(anchors[run])) {
          shared = anchors[run];
          break;
        }
      }
      if (shared == kNoBaseline) ++counters_.deltas_declined;
      receivers_[k].baseline = shared;
    }
  }
  std::sort(receivers_.begin(), receivers_.end());
}

bool Snapshots::PrepareOne(std::uint64_t tick, std::span<const sim::PlayerCube> world,
                           const WorldHistory& history, const protocol::TurnLog& turns,
                           std::uint64_t baseline, protocol::SnapshotWriter& writer) {
  const auto server_tick = static_cast<std::uint32_t>(tick);
  std::span<const sim::PlayerCube> cubes;
  std::span<const std::uint32_t> gens;
  // A delta longer than the full snapshot (a world turned over since an old baseline) is not worth sending.
  const std::size_t full_bits = protocol::SnapshotWriter::FullSharedBits(world.size());
  if (baseline != kNoBaseline && history.WorldOf(baseline, cubes, gens) &&
      protocol::MakeDelta(server_tick, world, std::span(generations_.data(), world.size()),
                          static_cast<int>(tick - baseline), cubes, gens, delta_,
                          &counters_.delta_prediction_moves, &turns) &&
      writer.Prepare(delta_) && writer.shared_bits() <= full_bits) {
    return true;
  }
  [[maybe_unused]] const bool encoded = writer.Prepare(server_tick, world);
  assert(encoded && "the server's world is always encodable: ids increasing, states in range");
  return false;
}

void Snapshots::Send(Micros now, std::uint64_t tick, Players& players, Outbox& outbox) {
  constexpr protocol::Channel kChannel = protocol::ChannelOf(protocol::MessageType::kSnapshot);
  for (const Receiver& receiver : receivers_) {
    Client& client = players.clients()[receiver.client];
    // A player's snapshot acknowledges its last applied input and says how early its inputs arrive.
    std::optional<protocol::SnapshotWriter::ReceiverAck> ack;
    if (const std::optional<std::size_t> cube =
            client.player ? players.IndexOf(*client.player) : std::nullopt;
        cube && players.HasAck(*cube)) {
      ack = protocol::SnapshotWriter::ReceiverAck{players.world()[*cube].state.last_input,
                                                  players.players()[*cube].inputs.lead()};
    }
    const auto packet = writers_[receiver.group].PacketFor(ack);
    if (packet.empty()) continue;
    outbox.SendPacket(now, client.peer, &client.bytes_sent, kChannel, packet);
    client.feed.sent_ticks[tick % client.feed.sent_ticks.size()] = tick;
    counters_.snapshot_bytes_sent += packet.size();
    counters_.snapshot_cube_bits += writers_[receiver.group].cube_bits();
    if (group_is_delta_[receiver.group]) {
      ++counters_.delta_snapshots_sent;
      counters_.delta_age_ticks += tick - receiver.baseline;
    }
  }
  counters_.snapshots_sent += receivers_.size();
}

}  // namespace netcube::server
