#include "snapshots.h"

#include <algorithm>
#include <optional>

#include "config.h"
#include "netcube/protocol/rules.h"

namespace netcube::server {

int Snapshots::RateOf(const Client& client, const ServerConfig& config, int tick_rate) noexcept {
  const bool spectator = !client.player;
  return client.feed.rate > 0
             ? protocol::EffectiveSnapshotRate(client.feed.rate, MostSnapshots(config, tick_rate, spectator))
             : UsualSnapshots(config, tick_rate, spectator);
}

void Snapshots::OnSeen(SnapshotFeed& feed, std::uint64_t tick, std::uint16_t seen_tick) noexcept {
  // A claim of a tick the client never received only spoils its own next delta, which it drops.
  const std::uint64_t seen = protocol::WidenSeenTick(seen_tick, tick);
  if (feed.sent.Contains(seen)) {
    feed.told.Insert(seen);
  } else if (feed.interest_sent.Contains(seen)) {
    feed.interest_told.Insert(seen);
  }  // else never sent: a lie or a stale one
}

void Snapshots::OnTickRate(int tick_rate, std::vector<Client>& clients) noexcept {
  credit_ = std::min(credit_, tick_rate - 1);
  for (Client& client : clients) client.feed.credit = std::min(client.feed.credit, tick_rate - 1);
}

bool Snapshots::MarkDue(Players& players, const ServerConfig& config, int tick_rate) noexcept {
  std::vector<Client>& clients = players.clients();
  const bool staggered = Interest::MayEncodeEach(config, players.world().size());
  // Adds `rate` to `credit` and takes one snapshot each time it reaches `per` (of ticks, or of the
  // snapshots of the client's source).
  const auto take_credit = [](int& credit, int rate, int per) {
    credit += rate;
    if (credit < per) return false;
    credit %= per;
    return true;
  };
  const bool server_due = take_credit(credit_, config.snapshot_rate, tick_rate);
  const int server_rate = protocol::EffectiveSnapshotRate(config.snapshot_rate, tick_rate);
  bool any_due = false;
  for (Client& client : clients) {  // the players first: a spectator's source is marked before it
    SnapshotFeed& feed = client.feed;
    const int rate = RateOf(client, config, tick_rate);
    // A spectator at no more than its source's rate takes some of the source's snapshots (its credit
    // counted in them): where every client shares the tick's snapshot, those; where each gets its own, the
    // followed player's, whose set it shares (Interest::Select).
    const Client* followed = staggered ? players.Followed(client) : nullptr;
    const int source_rate = followed != nullptr ? RateOf(*followed, config, tick_rate) : server_rate;
    const bool source_due = followed != nullptr ? followed->feed.due : server_due;
    const bool takes_from_source =
        !client.player && rate <= source_rate && (followed != nullptr || !staggered);
    if (staggered && !feed.phased && !takes_from_source) {
      // Consecutive phases one snapshot's credit apart: at 20 of 60 ticks, a third of the clients a tick.
      feed.credit = static_cast<int>((next_phase_++ * static_cast<std::uint64_t>(rate)) %
                                     static_cast<std::uint64_t>(tick_rate));
    }
    feed.phased = staggered && !takes_from_source;
    if (takes_from_source) {
      feed.due = source_due && take_credit(feed.credit, rate, source_rate);
    } else {
      // A client that asked for a rate keeps a credit of its own, as every client does when staggered.
      feed.due = staggered || feed.rate > 0 ? take_credit(feed.credit, rate, tick_rate) : server_due;
    }
    any_due = any_due || feed.due;
  }
  return any_due;
}

namespace {

// A player's snapshot acknowledges its last applied input and says how early its inputs arrive.
std::optional<protocol::SnapshotWriter::ReceiverAck> AckFor(const Client& client, const Players& players) {
  const std::optional<std::size_t> cube = client.player ? players.IndexOf(*client.player) : std::nullopt;
  if (!cube || !players.HasAck(*cube)) return std::nullopt;
  return protocol::SnapshotWriter::ReceiverAck{players.world()[*cube].state.last_input,
                                               players.players()[*cube].inputs.lead()};
}

}  // namespace

void Snapshots::SendPacket(Micros now, Client& client, std::span<const std::uint8_t> packet, Outbox& outbox) {
  constexpr protocol::Channel kChannel = protocol::ChannelOf(protocol::MessageType::kSnapshot);
  outbox.SendPacket(now, client.peer, &client.bytes_sent, kChannel, packet);
  counters_.snapshot_bytes_sent += packet.size();
  counters_.largest_snapshot_bytes = std::max<std::uint64_t>(counters_.largest_snapshot_bytes, packet.size());
  ++counters_.snapshots_sent;
}

void Snapshots::Send(Micros now, std::uint64_t tick, Players& players, const ServerConfig& config,
                     Outbox& outbox) {
  const bool named_by_set = Players::NamedBySet(config);
  if (named_by_set_ && !named_by_set) {
    // Interest management turned off: every cube goes to every client, and each is told of every player.
    for (Client& client : players.clients()) players.TellPresent(now, client, outbox);
  }
  named_by_set_ = named_by_set;
  for (Client& client : players.clients()) {
    if (!client.feed.due) continue;
    // Told of the players its snapshot carries, before it (its set, whole or not, chosen this tick).
    if (named_by_set) players.Name(now, client, client.interest.members, outbox);
    if (!client.interest.partial) continue;
    const auto packet = interest_.Encode(tick, client, players, config, AckFor(client, players));
    if (packet.empty()) continue;
    SendPacket(now, client, packet, outbox);
    client.feed.interest_sent.Insert(tick);
    client.feed.unserved = 0;  // not waiting on the shared snapshot: back on it, it waits anew
  }
  for (const SnapshotEncoder::Receiver& receiver : encoder_.receivers()) {
    Client& client = players.clients()[receiver.client];
    client.feed.unserved = receiver.fresh || receiver.seen == SnapshotEncoder::kNoBaseline
                               ? 0
                               : std::min<std::uint32_t>(client.feed.unserved + 1, protocol::kHeldBaselines);
    protocol::SnapshotWriter& writer = encoder_.writer(receiver);
    const auto packet = writer.PacketFor(AckFor(client, players));
    if (packet.empty()) continue;
    SendPacket(now, client, packet, outbox);
    client.feed.sent.Insert(tick);
    counters_.snapshot_cube_bits += writer.cube_bits();
    if (encoder_.is_delta(receiver)) {
      ++counters_.delta_snapshots_sent;
      counters_.delta_age_ticks += tick - receiver.baseline;
    }
  }
}

}  // namespace netcube::server
