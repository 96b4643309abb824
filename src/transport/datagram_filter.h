#pragma once
// Checks every datagram an ENet host receives before ENet acts on it (ENetHost::intercept), against the
// flaws of ENet 1.3.17 (Debian 12's): a SEND_FRAGMENT start makes ENet allocate the claimed total length
// and a bitmap of the claimed fragment count (1.3.17 accepts 1,048,576 fragments of a 1-byte packet: a
// 128 KiB bitmap per start), and nothing bounds how many reassemblies a peer keeps open. ENet >= 1.3.18
// refuses the worst of these itself; the filter stays on with any version. In every version (upstream's
// head too), a command ENet must hold back (a sequenced one naming a reliable number its channel has not
// delivered yet, say) is parked in a sorted list, charged only its data, and placed by walking the list
// from its end: zero-length ones cost memory without limit, and in descending order each walks the whole
// list. The filter bounds what one peer may have parked.
#include <cstddef>
#include <cstdint>
#include <span>

struct _ENetHost;

namespace netcube::transport {

struct FilterLimits {
  std::size_t max_message_bytes = 0;      // the largest payload a fragmented message may claim
  std::size_t max_open_reassemblies = 0;  // incomplete fragmented messages per peer
  std::size_t max_parked_commands = 0;    // commands ENet holds back for one peer at once
};

// One fragment command's claims. Consistent when they describe a real split of `total_length` bytes into
// `count` equal fragments (the last one shorter) of which this is number `number`, and the total is within
// the limit. ENet splits a packet into fragments of one size; a hostile peer is free to claim anything.
struct FragmentClaim {
  std::uint32_t count = 0;
  std::uint32_t number = 0;
  std::uint32_t total_length = 0;
  std::uint32_t offset = 0;
  std::uint16_t length = 0;
};
bool FragmentConsistent(const FragmentClaim& fragment, std::size_t max_message_bytes) noexcept;

// Whether ENet may process this datagram: its commands are framed as ENet frames them, every fragment is
// consistent, no fragment opens a reassembly beyond the peer's limit, and ENet would park no more commands
// for the peer than its limit. `host` gives the peer's state (its channels' sequence numbers and parked
// commands); a datagram for no known peer is only parsed.
bool AcceptDatagram(const _ENetHost& host, std::span<const std::uint8_t> datagram,
                    const FilterLimits& limits);

}  // namespace netcube::transport
