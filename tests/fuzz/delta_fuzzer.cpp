// libFuzzer target for the client's delta path: a baseline Snapshot packet and a DeltaSnapshot packet are
// decoded, and the delta applied to the baseline, as the client does (the first two bytes are the baseline
// packet's length; the type fields are forced so that every input reaches both decoders). Nothing may
// crash, and a delta that applies must rebuild a valid world from which the server's encoder, given the
// same baseline, makes a delta that rebuilds it again exactly.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "netcube/protocol/delta.h"
#include "netcube/protocol/messages.h"

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

  static Snapshot rebuilt;
  if (!ApplyDelta(baseline.players.span(), delta, rebuilt)) return 0;
  static std::array<std::uint8_t, kMaxPacketBytes> buffer;
  if (Encode(rebuilt, buffer) == 0) Fail("an applied delta rebuilt a world that does not encode");

  // The same world, made into a delta by the server's encoder (every player of the baseline still the
  // same one where its id is kept), must rebuild exactly.
  std::vector<std::uint32_t> baseline_generations(baseline.players.size());
  std::vector<std::uint32_t> world_generations(rebuilt.players.size());
  for (std::size_t i = 0; i < baseline.players.size(); ++i) baseline_generations[i] = baseline.players[i].id;
  for (std::size_t i = 0; i < rebuilt.players.size(); ++i) world_generations[i] = rebuilt.players[i].id;
  static DeltaSnapshot remade;
  if (!MakeDelta(rebuilt.server_tick, rebuilt.players.span(), world_generations, delta.age,
                 baseline.players.span(), baseline_generations, remade)) {
    Fail("the encoder refused a world and age the decoder accepted");
  }
  remade.has_ack = rebuilt.has_ack;
  remade.ack = rebuilt.ack;
  remade.input_lead = rebuilt.input_lead;
  if (Encode(remade, buffer) == 0) Fail("the encoder's delta does not encode");
  static Snapshot again;
  if (!ApplyDelta(baseline.players.span(), remade, again)) Fail("the encoder's delta does not apply");
  if (!(again == rebuilt)) Fail("the encoder's delta rebuilds another world");
  return 0;
}
