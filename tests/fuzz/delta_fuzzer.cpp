// libFuzzer target for the client's delta path: a baseline Snapshot packet and a DeltaSnapshot packet are
// decoded, and the delta replayed on the baseline, as the client does (the first two bytes are the baseline
// packet's length; the type fields are forced so that every input reaches both decoders). Nothing may
// crash; a delta that decodes encodes back to itself and its paths fit; one that applies rebuilds a valid
// world, and (no cube came or went) the same world again from the world it rebuilds at its first tick.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "netcube/protocol/messages.h"
#include "netcube/protocol/replay.h"

namespace {

using namespace netcube::protocol;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "delta_fuzzer: %s\n", what);
  std::abort();
}

// Sets the top `bits` bits of the packet's first byte to `type`.
void ForceType(std::vector<std::uint8_t>& packet, unsigned type, int bits) {
  if (packet.empty()) return;
  const int shift = 8 - bits;
  packet[0] = static_cast<std::uint8_t>((type << shift) | (packet[0] & ((1u << shift) - 1u)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return -1;
  const std::size_t baseline_size = std::min<std::size_t>((std::size_t{data[0]} << 8 | data[1]), size - 2);
  std::vector<std::uint8_t> baseline_packet(data + 2, data + 2 + baseline_size);
  std::vector<std::uint8_t> delta_packet(data + 2 + baseline_size, data + size);
  ForceType(baseline_packet, static_cast<unsigned>(MessageType::kSnapshot), kShortTypeBits);
  ForceType(delta_packet,
            (unsigned{kTypeEscape} << kExtendedTypeBits) |
                (static_cast<unsigned>(MessageType::kDeltaSnapshot) - unsigned{kTypeEscape}),
            kShortTypeBits + kExtendedTypeBits);

  static Message baseline_message;
  static Message delta_message;
  if (Decode(baseline_packet, baseline_message) != DecodeError::kNone) return 0;
  if (Decode(delta_packet, delta_message) != DecodeError::kNone) return 0;
  const Snapshot& baseline = std::get<Snapshot>(baseline_message);
  const DeltaSnapshot& delta = std::get<DeltaSnapshot>(delta_message);
  // What ApplyReplay takes on trust: the grammar admits no other path.
  if (!PathsFit(delta)) Fail("a decoded delta has a path that does not fit its cube's ticks");

  static std::array<std::uint8_t, kMaxPacketBytes> buffer;
  static Message again;
  const std::size_t bytes = Encode(delta, buffer);
  if (bytes == 0 || Decode(std::span(buffer.data(), bytes), again) != DecodeError::kNone ||
      !(std::get<DeltaSnapshot>(again) == delta)) {
    Fail("a decoded delta does not encode back to itself");
  }
  // One resolver from input to input, as a client keeps one from replay to replay.
  static netcube::sim::OverlapResolver resolver;
  static Snapshot rebuilt;
  if (!ApplyReplay(baseline.players.span(), baseline.arena, delta, rebuilt, resolver)) return 0;
  if (Encode(rebuilt, buffer) == 0) Fail("an applied delta rebuilt a world that does not encode");
  // The same world from the world the replay rebuilds at its first tick (as a client that holds it does).
  if (delta.age > 1) {
    static DeltaSnapshot first;
    first = delta;
    first.age = 1;
    first.arrivals.clear();
    first.exits.clear();
    static Snapshot at_first;
    // Only a replay whose cubes neither came nor went reaches its first tick's world this simply.
    if (delta.arrivals.empty() && delta.exits.empty()) {
      for (CubePath& path : first.paths) {
        path.turns.clear();
        if (path.runs.empty()) continue;
        const std::uint8_t moves = path.runs[0].moves;
        path.runs.clear();
        path.runs.push_back({1, moves});
        // The first tick's turns, at the Moves it makes.
      }
      for (std::size_t i = 0; i < first.paths.size(); ++i) {
        for (const Turn& turn : delta.paths[i].turns) {
          if (!first.paths[i].runs.empty() && turn.at < first.paths[i].runs[0].moves) {
            first.paths[i].turns.push_back(turn);
          }
        }
        if (!first.paths[i].runs.empty() && first.paths[i].runs[0].moves == 0) first.paths[i].runs.clear();
      }
      if (!PathsFit(first)) Fail("the replay's first tick does not fit");
      static Snapshot from_first;
      if (ApplyReplay(baseline.players.span(), baseline.arena, first, at_first, resolver) &&
          (!ApplyReplay(baseline.players.span(), baseline.arena, delta, from_first, resolver,
                        at_first.players.span(), 1) ||
           !(from_first == rebuilt))) {
        Fail("a replay from the world at its first tick rebuilds another world");
      }
    }
  }
  return 0;
}
