// libFuzzer target for one message decoder: the packet's type field (3 bits, 6 from type 7 on, 12 from type
// 14 on) is forced
// to NETCUBE_FUZZ_MESSAGE_TYPE
// (one binary per type, so each corpus stays focused on one layout). Decode must never crash, and a
// packet it accepts must be the canonical encoding of what it returns: re-encoding the message gives the
// same bytes, MeasureBytes gives their count, and decoding them again gives the same message (a
// ConnectRequest of another version is read only up to its name: it must decode again the same).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <variant>

#include "netcube/protocol/messages.h"

#ifndef NETCUBE_FUZZ_MESSAGE_TYPE
#error "define NETCUBE_FUZZ_MESSAGE_TYPE to the protocol::MessageType under test"
#endif

namespace {

using namespace netcube::protocol;

constexpr auto kType = static_cast<MessageType>(NETCUBE_FUZZ_MESSAGE_TYPE);
constexpr int kTypeValue = static_cast<int>(kType);
// The type field, the packet's first bits: the escape and the extension from kTypeEscape on, and the long
// escape and its extension from kLongTypeEscape on.
constexpr bool kExtended = kTypeValue >= kTypeEscape;
constexpr bool kLong = kTypeValue >= kLongTypeEscape;
constexpr std::size_t kTypeBits =
    kShortTypeBits + (kExtended ? kExtendedTypeBits : 0) + (kLong ? kLongTypeBits : 0);
constexpr unsigned kTypeField =
    kLong ? (((unsigned{kTypeEscape} << kExtendedTypeBits) | unsigned(kLongTypeEscape - kTypeEscape))
             << kLongTypeBits) |
                unsigned(kTypeValue - kLongTypeEscape)
    : kExtended ? (unsigned{kTypeEscape} << kExtendedTypeBits) | unsigned(kTypeValue - kTypeEscape)
                : unsigned(kTypeValue);

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "decode_fuzzer(%s): %s\n", ToString(kType), what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // One byte more than the decoder accepts, so the size limit is exercised too.
  static std::array<std::uint8_t, kMaxPacketBytes + 1> packet;
  if (size > packet.size()) return -1;  // libFuzzer: do not add to the corpus
  std::copy(data, data + size, packet.begin());
  for (std::size_t bit = 0; bit < kTypeBits && bit / 8 < size; ++bit) {
    const auto mask = static_cast<std::uint8_t>(0x80u >> (bit % 8));
    const bool one = ((kTypeField >> (kTypeBits - 1 - bit)) & 1u) != 0;
    packet[bit / 8] = static_cast<std::uint8_t>(one ? packet[bit / 8] | mask : packet[bit / 8] & ~mask);
  }
  const std::span<const std::uint8_t> input(packet.data(), size);

  Message message;
  if (Decode(input, message) != DecodeError::kNone) return 0;

  if (TypeOf(message) != kType) Fail("decoded a different message type");
  // A ConnectRequest of another version is read up to its name whatever follows, so that it can be
  // refused: only what was read has to come back.
  const auto* request = std::get_if<ConnectRequest>(&message);
  const bool canonical = request == nullptr || request->version == kProtocolVersion;
  if (canonical && MeasureBytes(message) != size)
    Fail("MeasureBytes differs from the accepted packet's size");
  static std::array<std::uint8_t, kMaxPacketBytes> reencoded;
  const std::size_t reencoded_size = Encode(message, reencoded);
  if (reencoded_size == 0) Fail("an accepted message does not re-encode (a value out of range)");
  if (canonical && (reencoded_size != size || !std::equal(input.begin(), input.end(), reencoded.begin()))) {
    Fail("re-encoding gives different bytes");
  }
  Message again;
  if (Decode(std::span<const std::uint8_t>(reencoded.data(), reencoded_size), again) != DecodeError::kNone) {
    Fail("the re-encoded message does not decode");
  }
  if (!(again == message)) Fail("decoding the re-encoded message gives a different message");
  return 0;
}
