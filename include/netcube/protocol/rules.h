#pragma once
// Rules both ends apply to what the wire carries, each written once: how a truncated tick is widened
// again, the snapshot rate a receiver really gets, and which characters a name may hold.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace netcube::protocol {

// A tick from the wire (its low 32 bits) as the 64-bit tick nearest `reference` (a previous result or the
// current tick), so tick 0 after 0xFFFFFFFF comes out as one more, not four billion less.
constexpr std::int64_t WidenTick(std::uint32_t tick, std::int64_t reference) noexcept {
  return reference + static_cast<std::int32_t>(tick - static_cast<std::uint32_t>(reference));
}

// The low 16 bits of a tick at most 65535 before `current` (a seen_tick), as the full tick.
constexpr std::uint64_t WidenSeenTick(std::uint16_t seen_tick, std::uint64_t current) noexcept {
  return current - static_cast<std::uint16_t>(static_cast<std::uint16_t>(current) - seen_tick);
}

// The snapshots a second a receiver really gets when `asked` are asked for: at most one a tick.
constexpr int EffectiveSnapshotRate(int asked, int tick_rate) noexcept { return std::min(asked, tick_rate); }

// The characters a name (a player's or a server's) may hold: printable ASCII.
constexpr char kFirstPrintable = 32;
constexpr char kLastPrintable = 126;
constexpr bool IsPrintable(char c) noexcept { return c >= kFirstPrintable && c <= kLastPrintable; }

// 1..max_length printable characters.
constexpr bool IsPrintableName(std::string_view name, std::size_t max_length) noexcept {
  return !name.empty() && name.size() <= max_length && std::all_of(name.begin(), name.end(), IsPrintable);
}

}  // namespace netcube::protocol
