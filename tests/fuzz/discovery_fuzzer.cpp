// libFuzzer target for the LAN discovery decoders: every datagram goes to both. Neither may crash, and a
// datagram either accepts must be the canonical encoding of what it returns (re-encoding gives the same
// bytes); an accepted query is exactly kDiscoveryQueryBytes long, and no accepted reply is longer.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "netcube/protocol/discovery.h"

namespace {

using namespace netcube::protocol;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "discovery_fuzzer: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 2 * kDiscoveryQueryBytes) return -1;  // libFuzzer: do not add to the corpus
  const std::span<const std::uint8_t> input(data, size);
  std::array<std::uint8_t, kDiscoveryQueryBytes> reencoded{};

  DiscoveryQuery query;
  if (DecodeDiscoveryQuery(input, query) == DecodeError::kNone) {
    if (size != kDiscoveryQueryBytes) Fail("accepted a query that is not exactly kDiscoveryQueryBytes");
    if (EncodeDiscoveryQuery(query, reencoded) != size ||
        !std::equal(input.begin(), input.end(), reencoded.begin())) {
      Fail("re-encoding a query gives different bytes");
    }
  }
  DiscoveryReply reply;
  if (DecodeDiscoveryReply(input, reply) == DecodeError::kNone) {
    if (MeasureDiscoveryReply(reply) != size) Fail("MeasureDiscoveryReply differs from the accepted size");
    if (EncodeDiscoveryReply(reply, reencoded) != size ||
        !std::equal(input.begin(), input.end(), reencoded.begin())) {
      Fail("re-encoding a reply gives different bytes");
    }
    DiscoveryReply again;
    if (DecodeDiscoveryReply(std::span<const std::uint8_t>(reencoded.data(), size), again) !=
            DecodeError::kNone ||
        !(again == reply)) {
      Fail("the re-encoded reply does not decode to the same reply");
    }
  }
  return 0;
}
