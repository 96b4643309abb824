#include "tags.h"

#include <algorithm>
#include <cmath>

namespace netcube::server {

void Tags::OnTag(Micros now, Player& player, Client& client, const protocol::Tag& tag, Outbox& outbox) {
  const Micros cooldown{sim::kTagCooldownMs * 1000};
  if (player.pending_tag || now < player.tag_due - kTagBurstTolerance) {
    ++player.tags_refused;
    ++counters_.tags_refused;
    outbox.Send(now, client.peer, &client.bytes_sent,
                protocol::TagResult{player.id, tag.shot, protocol::TagOutcome::kRefused});
    return;
  }
  player.tag_due = std::max(player.tag_due, now) + cooldown;
  player.pending_tag = PendingTag{tag, now};
}

void Tags::JudgeDue(Micros now, Players& players, const WorldHistory& history, const ServerConfig& config) {
  for (std::size_t i = 0; i < players.players().size(); ++i) {
    Player& player = players.players()[i];
    if (!player.pending_tag) continue;
    // The ray starts where the shooter saw its own cube: after the input it fired after. An input that
    // never comes (lost for good, or a lie) delays the tag by kMaxTagWait at most.
    const bool applied = players.HasAck(i)
                             ? !sim::SeqLess(players.world()[i].state.last_input, player.pending_tag->tag.seq)
                             : player.inputs.size() == 0;
    if (!applied && now - player.pending_tag->received < kMaxTagWait) continue;
    const protocol::Tag tag = player.pending_tag->tag;
    player.pending_tag.reset();
    Judge(i, tag, players, history, config);
  }
}

void Tags::Judge(std::size_t shooter, const protocol::Tag& tag, Players& players, const WorldHistory& history,
                 const ServerConfig& config) {
  PastCube victim;
  const Client* client = players.FindClient(players.world()[shooter].id);
  const InterestView* sight =
      config.interest && client != nullptr && client->interest.partial ? &client->interest : nullptr;
  const TagRecord record = server::Judge(history, players.world()[shooter], tag, config.lag_compensation,
                                         config.max_rewind_ms, sight, judge_scratch_, victim);
  recent_[counters_.tags_judged % kRecentTags] = record;
  ++counters_.tags_judged;
  Player& player = players.players()[shooter];
  ++player.tags_fired;
  counters_.rewind_ms_sum += record.rewind_ms;
  counters_.rewind_ms_max = std::max(counters_.rewind_ms_max, record.rewind_ms);
  if (record.capped) ++counters_.tags_capped;
  if (record.lag_compensation && record.rewound.hit != record.present.hit) ++counters_.tags_decided_by_rewind;

  protocol::TagResult result{
      player.id, tag.shot, record.outcome,
      static_cast<std::uint16_t>(record.lag_compensation ? std::lround(record.rewind_ms) : 0)};
  if (record.outcome == protocol::TagOutcome::kHit) {
    ++counters_.tags_hit;
    ++player.tags_given;
    if (const std::optional<std::size_t> target = players.IndexOf(victim.id))
      ++players.players()[*target].tags_taken;
    result.target = victim.id;
    result.target_has_input = victim.has_input;
    result.target_seq = victim.has_input ? victim.last_input : sim::Seq{0};
  }
  results_.push_back(result);
}

void Tags::SendResults(Micros now, Players& players, Outbox& outbox) {
  const std::size_t count = results_.size();
  for (Client& client : players.clients()) {
    for (std::size_t k = 0; k < count; ++k) {
      const protocol::TagResult& result = results_[(first_result_ + k) % count];
      const bool hit = result.outcome == protocol::TagOutcome::kHit;
      const bool concerned = client.player == result.shooter || (hit && client.player == result.target);
      if (!concerned && !hit) continue;
      if (!concerned && !client.bystander_hits.Take(now)) {
        ++counters_.bystander_hits_withheld;
        continue;
      }
      outbox.Send(now, client.peer, &client.bytes_sent, result);
    }
  }
  ++first_result_;
  results_.clear();
}

std::vector<TagRecord> Tags::Recent() const {
  const std::uint64_t judged = counters_.tags_judged;
  const auto count = static_cast<std::size_t>(std::min<std::uint64_t>(judged, kRecentTags));
  std::vector<TagRecord> out;
  out.reserve(count);
  for (std::uint64_t i = judged - count; i < judged; ++i)
    out.push_back(recent_[static_cast<std::size_t>(i % kRecentTags)]);
  return out;
}

}  // namespace netcube::server
