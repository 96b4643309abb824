// What the network feeds the decoder: truncated packets, random bytes and corrupted messages must be
// rejected cleanly, and anything accepted must be within range (and re-encode to the same bytes).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "netcube/protocol/messages.h"
#include "sample_messages.h"

namespace netcube::protocol {
namespace {

using testing::EncodeToVector;
using testing::FullSnapshot;
using testing::SampleMessages;

bool ValidName(const std::string& name) {
  if (name.size() > kMaxNameLength) return false;
  for (const char c : name) {
    if (c < 32 || c > 126) return false;
  }
  return true;
}

// Every id on the wire is int[0, kMaxPlayers - 1].
bool ValidId(sim::PlayerId id) { return id < kMaxPlayers; }

bool ValidCube(const sim::CubeState& s, const sim::Arena& arena) {
  return arena.Contains(s.x, s.y) && s.vx >= -sim::kMaxSpeed && s.vx <= sim::kMaxSpeed &&
         s.vy >= -sim::kMaxSpeed && s.vy <= sim::kMaxSpeed && s.buttons <= sim::kButtonMask;
}

// Every invariant a receiver relies on, checked field by field.
bool InRange(const Message& message) {
  return std::visit(
      [](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, ConnectRequest>) {
          return m.magic == kProtocolMagic && ValidName(m.name);
        } else if constexpr (std::is_same_v<T, ConnectRefused>) {
          return static_cast<int>(m.reason) < kRefuseReasonCount;
        } else if constexpr (std::is_same_v<T, Welcome>) {
          return ValidId(m.player_id) && m.tick_rate >= 1 && m.tick_rate <= kMaxRate &&
                 m.snapshot_rate >= 1 && m.snapshot_rate <= kMaxRate && m.max_players >= 1 &&
                 m.max_players <= kMaxPlayers && m.arena.Valid();
        } else if constexpr (std::is_same_v<T, InputMessage>) {
          if (m.inputs.empty() || m.inputs.size() > kMaxInputsPerPacket) return false;
          for (std::size_t i = 0; i < m.inputs.size(); ++i) {
            if (m.inputs[i].buttons > sim::kButtonMask) return false;
            if (i > 0 && m.inputs[i].seq != static_cast<sim::Seq>(m.inputs[i - 1].seq + 1)) return false;
          }
          return true;
        } else if constexpr (std::is_same_v<T, Snapshot>) {
          if (m.players.size() > kMaxWholeWorldCubes || (!m.has_ack && m.ack != 0)) return false;
          for (std::size_t i = 0; i < m.players.size(); ++i) {
            if (!m.arena.Valid() || !ValidId(m.players[i].id) || !ValidCube(m.players[i].state, m.arena))
              return false;
            if (i > 0 && m.players[i].id <= m.players[i - 1].id) return false;
          }
          return true;
        } else if constexpr (std::is_same_v<T, DeltaSnapshot>) {
          if (m.age < 1 || m.age > kMaxDeltaAge || (!m.has_ack && m.ack != 0)) return false;
          if (m.paths.size() < m.arrivals.size() || m.paths.size() - m.arrivals.size() > kMaxWholeWorldCubes)
            return false;
          for (const Arrival& arrival : m.arrivals) {
            if (!ValidId(arrival.cube.id) || !ValidCube(arrival.cube.state, sim::kLargestArena) ||
                arrival.at < 1 || arrival.at > m.age)
              return false;
          }
          return true;
        } else if constexpr (std::is_same_v<T, InterestSnapshot>) {
          if (!m.arena.Valid() || m.members.size() > kMaxPlayers || (!m.has_ack && m.ack != 0)) return false;
          for (std::size_t i = 0; i < m.members.size(); ++i) {
            const InterestMember& member = m.members[i];
            if (!ValidId(member.cube.id)) return false;
            const bool whole = member.has_state && member.predicted_age == 0;
            if (whole ? !ValidCube(member.cube.state, m.arena) : !(member.cube.state == sim::CubeState{}))
              return false;
            if (member.has_state ? member.predicted_age < 0 || member.predicted_age > kMaxPredictedAge
                                 : member.predicted_age != 0)
              return false;
            if (i > 0 && member.cube.id <= m.members[i - 1].cube.id) return false;
          }
          return true;
        } else if constexpr (std::is_same_v<T, PlayerJoined>) {
          if (m.players.empty()) return false;
          for (std::size_t i = 0; i < m.players.size(); ++i) {
            if (!ValidId(m.players[i].player_id) || !ValidName(m.players[i].name)) return false;
            if (i > 0 && m.players[i].player_id <= m.players[i - 1].player_id) return false;
          }
          return true;
        } else if constexpr (std::is_same_v<T, PlayerLeft>) {
          return ValidId(m.player_id) && static_cast<int>(m.reason) < kLeaveReasonCount;
        } else if constexpr (std::is_same_v<T, Tag>) {
          return m.render_fraction < kRenderFractionSteps && m.delay_ms <= kMaxTagDelayMs;
        } else if constexpr (std::is_same_v<T, TagResult>) {
          if (!ValidId(m.shooter) || !ValidId(m.target) || static_cast<int>(m.outcome) >= kTagOutcomeCount ||
              m.rewind_ms > kMaxTagDelayMs)
            return false;
          // Fields not sent read as zero.
          if (m.outcome != TagOutcome::kHit) return m.target == 0 && !m.target_has_input && m.target_seq == 0;
          return m.target_has_input || m.target_seq == 0;
        } else if constexpr (std::is_same_v<T, SnapshotRate>) {
          return m.rate >= 1 && m.rate <= kMaxRate;
        } else if constexpr (std::is_same_v<T, SnapshotBudget>) {
          return m.bytes >= kMinSnapshotBudget && m.bytes <= kMaxPacketBytes;
        } else if constexpr (std::is_same_v<T, Viewpoint>) {
          // Fields not sent read as zero.
          if (m.follow) return ValidId(m.player_id) && m.x_units == 0 && m.y_units == 0;
          return m.player_id == 0 && m.x_units >= 0 && m.x_units < sim::kMaxArenaUnits && m.y_units >= 0 &&
                 m.y_units < sim::kMaxArenaUnits;
        } else {
          static_assert(std::is_same_v<T, TimeEcho> || std::is_same_v<T, SnapshotAck> ||
                        std::is_same_v<T, Challenge> || std::is_same_v<T, ChallengeResponse>);
          return true;  // every bit pattern is valid
        }
      },
      message);
}

struct Tally {
  int accepted = 0;
  int rejected = 0;
};

// Decodes `bytes` and checks the outcome; returns false (with a gtest failure) on a broken invariant.
bool CheckDecode(const std::vector<std::uint8_t>& bytes, Tally& tally) {
  // Decoding reuses the message already held: start from a full one, so that nothing of it may leak through.
  Message out = FullSnapshot();
  const DecodeError error = Decode(bytes, out);
  if (error != DecodeError::kNone) {
    ++tally.rejected;
    return true;
  }
  ++tally.accepted;
  EXPECT_TRUE(InRange(out)) << ToString(TypeOf(out));
  // A request of another version is read up to its name whatever follows, so it can be refused.
  const auto* request = std::get_if<ConnectRequest>(&out);
  if (request != nullptr && request->version != kProtocolVersion) return InRange(out);
  // The encoding is canonical: exactly one byte string per message.
  EXPECT_EQ(EncodeToVector(out), bytes) << ToString(TypeOf(out));
  return InRange(out) && EncodeToVector(out) == bytes;
}

TEST(DecodeRobustness, EveryTruncationOfEveryMessageIsRejected) {
  int checked = 0;
  for (const auto& [name, message] : SampleMessages()) {
    SCOPED_TRACE(name);
    const std::vector<std::uint8_t> bytes = EncodeToVector(message);
    ASSERT_FALSE(bytes.empty());
    for (std::size_t length = 0; length < bytes.size(); ++length) {
      const std::vector<std::uint8_t> prefix(bytes.begin(),
                                             bytes.begin() + static_cast<std::ptrdiff_t>(length));
      Message out = PlayerLeft{77, LeaveReason::kTimedOut};
      const DecodeError error = Decode(prefix, out);
      ASSERT_EQ(error, length == 0 ? DecodeError::kEmpty : DecodeError::kMalformed) << "length " << length;
      ++checked;
    }
  }
  EXPECT_GT(checked, 2000);  // the full snapshot alone has 2124 prefixes
}

TEST(DecodeRobustness, RandomGarbageNeverCrashesOrDecodesOutOfRange) {
  std::mt19937_64 rng(0xBADF00D);
  Tally tally;
  for (int trial = 0; trial < 200000; ++trial) {
    // Mostly short packets (where a random type header can meet a plausible body), some long ones.
    const std::size_t length = trial % 50 == 0 ? 1 + rng() % 4200 : 1 + rng() % 24;
    std::vector<std::uint8_t> bytes(length);
    for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(rng());
    ASSERT_TRUE(CheckDecode(bytes, tally)) << "trial " << trial;
  }
  EXPECT_GT(tally.rejected, 0);
  // Types with few constraints (time echo, player left, input) do decode from random bytes.
  EXPECT_GT(tally.accepted, 0);
}

TEST(DecodeRobustness, CorruptedMessagesNeverCrashOrDecodeOutOfRange) {
  std::mt19937_64 rng(42);
  Tally tally;
  for (const auto& [name, message] : SampleMessages()) {
    SCOPED_TRACE(name);
    const std::vector<std::uint8_t> original = EncodeToVector(message);
    const int trials = original.size() > 100 ? 300 : 3000;
    for (int trial = 0; trial < trials; ++trial) {
      std::vector<std::uint8_t> bytes = original;
      switch (rng() % 4) {
        case 0:
        case 1: {  // flip one to four bits
          const int flips = 1 + static_cast<int>(rng() % 4);
          for (int f = 0; f < flips; ++f) {
            const std::size_t bit = rng() % (bytes.size() * 8);
            bytes[bit / 8] = static_cast<std::uint8_t>(bytes[bit / 8] ^ (0x80u >> (bit % 8)));
          }
          break;
        }
        case 2:  // overwrite a byte
          bytes[rng() % bytes.size()] = static_cast<std::uint8_t>(rng());
          break;
        default:  // drop a byte from the middle
          bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(rng() % bytes.size()));
          break;
      }
      ASSERT_TRUE(CheckDecode(bytes, tally)) << "trial " << trial;
    }
  }
  EXPECT_GT(tally.accepted, 1000);
  EXPECT_GT(tally.rejected, 1000);
}

TEST(DecodeRobustness, EveryTypeHeaderWithEveryShortBody) {
  // All 2-byte packets: every type header meets every short body.
  Tally tally;
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      ASSERT_TRUE(CheckDecode({static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)}, tally));
    }
  }
  // Only one message fits in two bytes: PlayerLeft (14 bits: any of the 1024 ids, either reason, two zero
  // padding bits). PlayerJoined (18 bits for one unnamed player since protocol 18's list) and
  // SnapshotRate (20 bits since protocol 9) no longer do.
  EXPECT_EQ(tally.accepted, 1024 * 2);
}

}  // namespace
}  // namespace netcube::protocol
