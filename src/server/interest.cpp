#include "interest.h"

#include <algorithm>
#include <bit>
#include <functional>

#include "players.h"

namespace netcube::server {
namespace {

// Above any importance a member earns by waiting (at most 16 times its age in ticks): the new and near
// (kMust), then the overdue (kOverdue).
constexpr std::uint64_t kMust = std::uint64_t{1} << 62;
constexpr std::uint64_t kOverdue = std::uint64_t{1} << 61;
constexpr std::uint64_t kOwn = std::uint64_t{1} << 63;

// A priority and a candidate's index in one key that orders as (priority, then the lower index): the
// class bits (kOwn, kMust, kOverdue) kept, the value below them saturated where it cannot matter (a
// staleness of 2^45 ticks), the index inverted in the low bits.
constexpr std::uint64_t kRankMembers = std::uint64_t{1} << 16;
static_assert(protocol::kMaxPlayers <= kRankMembers);
std::uint64_t RankOf(std::uint64_t priority, std::size_t member) noexcept {
  constexpr std::uint64_t kClasses = kOwn | kMust | kOverdue;
  constexpr std::uint64_t kMaxValue = (std::uint64_t{1} << 45) - 1;
  const std::uint64_t value = std::min(priority & ~kClasses, kMaxValue);
  return (priority & kClasses) | value << 16 | (kRankMembers - 1 - member);
}

std::int64_t SquaredUnits(int units) noexcept {
  const std::int64_t sub = static_cast<std::int64_t>(units) * sim::kSubUnitsPerUnit;
  return sub * sub;
}

std::int64_t SquaredDistance(const sim::CubeState& a, const sim::CubeState& b) noexcept {
  const std::int64_t dx = a.x - b.x;
  const std::int64_t dy = a.y - b.y;
  return dx * dx + dy * dy;
}

// How much a member's staleness weighs, from 16 at the client's cube down to 1 at the edge of its set.
std::uint64_t Nearness(std::int64_t squared_distance, std::int64_t squared_leave) noexcept {
  const std::int64_t inside = std::max<std::int64_t>(squared_leave - squared_distance, 0);
  return 1 + static_cast<std::uint64_t>(15 * inside / squared_leave);
}

}  // namespace

void Interest::FileCubes(std::span<const sim::PlayerCube> world, const ServerConfig& config) {
  // Cells as wide as a set reaches: every cube a client may keep lies in its own cell or the eight around.
  cell_ =
      static_cast<std::int64_t>(config.interest_radius_units + kInterestMarginUnits) * sim::kSubUnitsPerUnit;
  columns_ = static_cast<std::size_t>(config.arena.width / cell_ + 1);
  rows_ = static_cast<std::size_t>(config.arena.height / cell_ + 1);
  cell_start_.assign(columns_ * rows_ + 1, 0);
  cell_of_.resize(world.size());
  for (std::size_t i = 0; i < world.size(); ++i) {
    cell_of_[i] = CellAt(world[i].state);
    ++cell_start_[cell_of_[i] + 1];
  }
  for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  filed_.resize(world.size());
  cursor_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t i = 0; i < world.size(); ++i) filed_[cursor_[cell_of_[i]]++] = i;  // increasing index
}

std::size_t Interest::CellAt(const sim::CubeState& s) const noexcept {
  const auto column = std::min(static_cast<std::size_t>(s.x / cell_), columns_ - 1);
  const auto row = std::min(static_cast<std::size_t>(s.y / cell_), rows_ - 1);
  return row * columns_ + column;
}

bool Interest::EveryCubeRelevant(const ServerConfig& config) noexcept {
  // An arena the radius spans from corner to corner (the standard one at the default radius) has every
  // cube relevant to every client: nothing to choose.
  const std::int64_t across_x = config.arena.max_x() - config.arena.min_x();
  const std::int64_t across_y = config.arena.max_y() - config.arena.min_y();
  return !config.interest ||
         across_x * across_x + across_y * across_y <= SquaredUnits(config.interest_radius_units);
}

void Interest::Record(std::uint64_t tick, const Players& players, const ServerConfig& config) {
  const std::span<const sim::PlayerCube> world = players.world();
  if (!MayEncodeEach(config, world.size())) return;
  motions_.resize(protocol::kMaxPlayers);
  for (std::size_t i = 0; i < world.size(); ++i) {
    Motion& m = motions_[world[i].id];
    const std::uint32_t generation = players.players()[i].generation;
    const sim::CubeState& now = world[i].state;
    // A tick missed (the cube new, or not recorded then) starts a run, as does anything but a Move.
    const bool moved =
        m.generation == generation && m.tick + 1 == tick &&
        sim::SameCarried(sim::Move(m.state, sim::Input{0, m.state.buttons}, config.arena), now);
    if (!moved) m.steady_since = tick;
    m.generation = generation;
    m.tick = tick;
    m.state = now;
  }
}

int Interest::PredictableAge(std::uint64_t tick, const InterestView::Entry& entry, sim::PlayerId id,
                             const protocol::RecentTicks& told) const noexcept {
  if (entry.carried == 0 || id >= motions_.size() || motions_[id].tick != tick ||
      motions_[id].generation != entry.generation)
    return 0;
  const std::uint64_t since = motions_[id].steady_since;
  std::uint32_t carried = entry.carried;
  for (std::size_t k = 0; k < protocol::kInterestHeldStates && carried != 0; ++k) {
    const std::uint64_t baseline = entry.sent - static_cast<std::uint64_t>(std::countr_zero(carried));
    carried &= carried - 1;
    if (baseline < since || tick - baseline > protocol::kMaxPredictedAge) return 0;  // older ones too
    if (told.Contains(baseline)) return static_cast<int>(tick - baseline);
  }
  return 0;
}

bool Interest::MayEncodeEach(const ServerConfig& config, std::size_t cubes) noexcept {
  // A world larger than a whole-world snapshot holds reaches every client in InterestSnapshots, each set
  // every cube when all are relevant.
  return !EveryCubeRelevant(config) || cubes > protocol::kMaxWholeWorldCubes;
}

void Interest::Select(std::uint64_t tick, std::span<Client> clients, const Players& players,
                      const ServerConfig& config) {
  const std::span<const sim::PlayerCube> world = players.world();
  const bool everything = EveryCubeRelevant(config);
  const bool encodes_each = MayEncodeEach(config, world.size());
  bool filed = false;
  for (Client& client : clients) {
    if (!client.feed.due) continue;
    client.interest.partial = false;
    if (!encodes_each) continue;
    if (!filed) {
      if (!everything) FileCubes(world, config);
      // Compact, for SelectFor: a player's record is large, and a cache line a cube would be read.
      generations_.resize(world.size());
      for (std::size_t i = 0; i < world.size(); ++i) generations_[i] = players.players()[i].generation;
      filed = true;
    }
    // A spectator due with the player it follows sees what that player sees: the set chosen for it this
    // tick (players come first), its own entries kept.
    const Client* followed = players.Followed(client);
    if (followed != nullptr && followed->feed.due) {
      ShareSet(tick, client.interest, followed->interest, world.size());
      continue;
    }
    SelectFor(tick, client.interest, EyeOf(client, players, config), players, config, everything);
  }
}

Interest::Eye Interest::EyeOf(const Client& client, const Players& players, const ServerConfig& config) {
  const std::optional<protocol::Viewpoint>& viewpoint = client.viewpoint;
  std::optional<std::size_t> cube;
  if (client.player) {
    cube = players.IndexOf(*client.player);
  } else if (viewpoint && viewpoint->follow) {
    cube = players.IndexOf(viewpoint->player_id);
  }
  if (cube) return {players.world()[*cube].state, cube};
  Eye eye;
  eye.at.x = config.arena.width / 2;
  eye.at.y = config.arena.height / 2;
  if (viewpoint && !viewpoint->follow) {
    // The middle of the unit the spectator names.
    eye.at.x = viewpoint->x_units * sim::kSubUnitsPerUnit + sim::kSubUnitsPerUnit / 2;
    eye.at.y = viewpoint->y_units * sim::kSubUnitsPerUnit + sim::kSubUnitsPerUnit / 2;
  }
  return eye;
}

void Interest::SelectFor(std::uint64_t tick, InterestView& view, const Eye& eye, const Players& players,
                         const ServerConfig& config, bool everything) {
  const std::span<const sim::PlayerCube> world = players.world();
  const std::int64_t enter = SquaredUnits(config.interest_radius_units);
  const std::int64_t leave = SquaredUnits(config.interest_radius_units + kInterestMarginUnits);
  const sim::CubeState& viewpoint = eye.at;
  found_.clear();
  if (everything) {
    for (std::size_t i = 0; i < world.size(); ++i) found_.push_back({world[i].id, generations_[i], true});
  } else {
    const std::size_t words = (world.size() + 63) / 64;
    near_bits_.assign(words, 0);
    enter_bits_.assign(words, 0);
    const std::size_t home = CellAt(viewpoint);
    const std::size_t column = home % columns_;
    const std::size_t row = home / columns_;
    for (std::size_t r = row > 0 ? row - 1 : 0; r <= std::min(row + 1, rows_ - 1); ++r) {
      for (std::size_t c = column > 0 ? column - 1 : 0; c <= std::min(column + 1, columns_ - 1); ++c) {
        const std::size_t cell = r * columns_ + c;
        for (std::size_t k = cell_start_[cell]; k < cell_start_[cell + 1]; ++k) {
          const std::size_t i = filed_[k];
          const std::int64_t d = SquaredDistance(world[i].state, viewpoint);
          if (d > leave && i != eye.cube) continue;
          const std::uint64_t bit = std::uint64_t{1} << (i % 64);
          near_bits_[i / 64] |= bit;
          if (i == eye.cube || d <= enter) enter_bits_[i / 64] |= bit;
        }
      }
    }
    for (std::size_t w = 0; w < words; ++w) {
      for (std::uint64_t bits = near_bits_[w]; bits != 0; bits &= bits - 1) {
        const auto b = static_cast<unsigned>(std::countr_zero(bits));
        const std::size_t i = w * 64 + b;
        found_.push_back({world[i].id, generations_[i], ((enter_bits_[w] >> b) & 1u) != 0});
      }
    }
  }
  // A cube of the same player that was a member stays within the radius and the margin; another comes in
  // within the radius.
  Refill(tick, view, world.size());
}

void Interest::ShareSet(std::uint64_t tick, InterestView& view, const InterestView& source,
                        std::size_t cubes) {
  found_.clear();
  for (std::size_t k = 0; k < source.members.size(); ++k)
    found_.push_back({source.members[k], source.entries[k].generation, true});
  Refill(tick, view, cubes);
}

void Interest::Refill(std::uint64_t tick, InterestView& view, std::size_t cubes) {
  // Merged with the set before, both in id order.
  previous_.swap(view.members);
  previous_entries_.swap(view.entries);
  view.members.clear();
  view.entries.clear();
  std::size_t p = 0;
  for (const Found& f : found_) {
    while (p < previous_.size() && previous_[p] < f.id) ++p;
    const bool was =
        p < previous_.size() && previous_[p] == f.id && previous_entries_[p].generation == f.generation;
    if (!f.enters && !was) continue;
    view.members.push_back(f.id);
    view.entries.push_back(was ? previous_entries_[p] : InterestView::Entry{f.generation, 0, 0});
  }
  view.partial = view.members.size() < cubes || cubes > protocol::kMaxWholeWorldCubes;
  // A whole world's snapshot carries every member's state (a baseline of whole worlds only).
  if (!view.partial) {
    for (InterestView::Entry& entry : view.entries) entry = {entry.generation, 0, tick};
  }
}

template <class Visit>
void Interest::Weigh(std::uint64_t tick, const Client& client, const Players& players,
                     const ServerConfig& config, Visit visit) {
  const int tick_rate = config.tick_rate;
  const std::span<const sim::PlayerCube> world = players.world();
  const Eye eye = EyeOf(client, players, config);
  const sim::CubeState& viewpoint = eye.at;
  const std::int64_t near = SquaredUnits(kNearUnits);
  const std::int64_t leave = SquaredUnits(config.interest_radius_units + kInterestMarginUnits);
  for (std::size_t k = 0; k < client.interest.members.size(); ++k) {
    const std::optional<std::size_t> index = players.IndexOf(client.interest.members[k]);
    if (!index) continue;  // gone since the set was chosen (a tool asking later)
    const std::size_t i = *index;
    const InterestView::Entry& entry = client.interest.entries[k];
    const std::int64_t d = SquaredDistance(world[i].state, viewpoint);
    Candidate c;
    c.member = k;
    c.cube = i;
    c.staleness = tick - entry.sent;
    c.near = d <= near;
    // The own cube (or the one a spectator follows) first: reconciliation needs it; then those that must go
    // (new or near), then those a second without a state, each the stalest first (the new ones stalest of
    // all); then by importance.
    const bool overdue = c.staleness >= static_cast<std::uint64_t>(tick_rate);
    c.priority = i == eye.cube               ? kOwn
                 : entry.sent == 0 || c.near ? kMust + c.staleness
                 : overdue                   ? kOverdue + c.staleness
                                             : Nearness(d, leave) * c.staleness;
    visit(c);
  }
}

std::span<const std::uint8_t> Interest::Encode(std::uint64_t tick, Client& client, const Players& players,
                                               const ServerConfig& config,
                                               std::optional<protocol::SnapshotWriter::ReceiverAck> ack) {
  candidates_.clear();
  Weigh(tick, client, players, config, [this](const Candidate& c) { candidates_.push_back(c); });
  const std::span<const sim::PlayerCube> world = players.world();
  ids_.clear();
  std::size_t predictable = 0;
  for (Candidate& c : candidates_) {
    ids_.push_back(world[c.cube].id);
    c.predicted_age =
        PredictableAge(tick, client.interest.entries[c.member], world[c.cube].id, client.feed.interest_told);
    if (c.predicted_age > 0) ++predictable;
  }
  // Every member named, then states by priority while they fit the budget (the server's, or less when
  // the client asked for less): one whole that does not fit leaves room for predicted ones after it.
  const std::size_t budget =
      client.feed.budget > 0 ? std::min(client.feed.budget, config.snapshot_budget) : config.snapshot_budget;
  const protocol::InterestBits bits = protocol::CountInterestBits(config.arena, ids_, ack.has_value());
  const std::size_t limit = budget * 8;
  const std::size_t wholes = candidates_.size() - predictable;
  if (bits.named + wholes * bits.whole + predictable * bits.predicted <= limit) {
    for (Candidate& c : candidates_) c.chosen = true;  // all fit: nothing to choose
  } else {
    Choose(limit - std::min(limit, bits.named), bits, predictable);
  }
  return Write(tick, client, players, config.arena, ack);
}

void Interest::Choose(std::size_t room, const protocol::InterestBits& bits, std::size_t predictable) {
  ranked_.clear();
  for (std::size_t k = 0; k < candidates_.size(); ++k) ranked_.push_back(RankOf(candidates_[k].priority, k));
  const auto member = [](std::uint64_t rank) {
    return static_cast<std::size_t>(kRankMembers - 1 - (rank & (kRankMembers - 1)));
  };
  // By priority while a whole state still fits: as many as the room holds wholes are taken whatever their
  // order, so each round selects that many of the highest (a selection, not a sort) until no whole fits.
  auto end = ranked_.begin();
  while (end != ranked_.end() && room >= bits.whole) {
    const auto round =
        std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(room / bits.whole), ranked_.end() - end);
    std::nth_element(end, end + round - 1, ranked_.end(), std::greater<>());
    for (const auto last = end + round; end != last; ++end) {
      Candidate& c = candidates_[member(*end)];
      c.chosen = true;
      if (c.predicted_age > 0) --predictable;
      room -= c.predicted_age > 0 ? bits.predicted : bits.whole;
    }
  }
  // Then only predicted states fit: the most important of those left (the recently sent, so the least
  // important of all).
  if (predictable == 0 || room < bits.predicted) return;
  const auto predicted_end = std::partition(
      end, ranked_.end(), [&](std::uint64_t rank) { return candidates_[member(rank)].predicted_age > 0; });
  const auto fit =
      std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(room / bits.predicted), predicted_end - end);
  if (fit == 0) return;
  std::nth_element(end, end + fit - 1, predicted_end, std::greater<>());
  for (auto r = end; r != end + fit; ++r) candidates_[member(*r)].chosen = true;
}

std::span<const std::uint8_t> Interest::Write(std::uint64_t tick, Client& client, const Players& players,
                                              const sim::Arena& arena,
                                              std::optional<protocol::SnapshotWriter::ReceiverAck> ack) {
  const std::span<const sim::PlayerCube> world = players.world();
  message_.server_tick = static_cast<std::uint32_t>(tick);
  message_.arena = arena;
  message_.members.clear();
  for (const Candidate& c : candidates_) {
    InterestView::Entry& entry = client.interest.entries[c.member];
    if (c.chosen) {
      const std::uint64_t shift = entry.sent == 0 ? 32 : tick - entry.sent;
      entry.carried = (shift >= 32 ? 0 : entry.carried << shift) | 1u;
      entry.sent = tick;
      ++counters_.interest_states;
      if (c.predicted_age > 0) ++counters_.interest_predicted;
    } else if (entry.sent != 0) {
      counters_.stalest_member_ticks = std::max(counters_.stalest_member_ticks, c.staleness);
      if (c.near)
        counters_.stalest_near_member_ticks = std::max(counters_.stalest_near_member_ticks, c.staleness);
    }
    protocol::InterestMember member;
    member.cube.id = world[c.cube].id;
    member.has_state = c.chosen;
    if (c.chosen) {
      member.predicted_age = c.predicted_age;
      if (c.predicted_age == 0) member.cube.state = world[c.cube].state;
    }
    message_.members.push_back(member);
  }
  message_.has_ack = ack.has_value();
  message_.ack = ack ? ack->ack : 0;
  message_.input_lead = static_cast<std::int8_t>(
      ack ? std::clamp(ack->input_lead, protocol::kMinInputLead, protocol::kMaxInputLead) : 0);
  const std::size_t bytes = protocol::Encode(message_, buffer_);
  ++counters_.interest_snapshots_sent;
  counters_.interest_members += candidates_.size();
  return std::span<const std::uint8_t>(buffer_.data(), bytes);
}

void Interest::Describe(std::uint64_t tick, const Client& client, const Players& players,
                        const ServerConfig& config, InterestInfo& out) {
  out.partial = client.interest.partial;
  out.members.clear();
  Weigh(tick, client, players, config, [&](const Candidate& c) {
    InterestInfo::Member member;
    member.id = players.world()[c.cube].id;
    member.ticks_since_sent = c.staleness;
    member.must = c.priority >= kOverdue;
    member.importance = member.must ? 0 : c.priority;
    out.members.push_back(member);
  });
}

}  // namespace netcube::server
