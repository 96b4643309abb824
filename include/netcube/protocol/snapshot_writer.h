#pragma once
// A snapshot (full or delta) encoded once for all its receivers (docs/decisions/0006), and the size of an
// InterestSnapshot a server fills a client's byte budget by.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "netcube/protocol/channel.h"
#include "netcube/protocol/messages.h"
#include "netcube/sim/world.h"

namespace netcube::protocol {

// A snapshot (full or delta) encoded once for all its receivers: they differ only in the ack, which ends
// the message, so each receiver's packet is the shared part with its own ack written after it. The world
// is read where it lies (a span of the server's cubes), never copied into a Snapshot.
class SnapshotWriter {
 public:
  // Encodes the type, server_tick, arena and players (increasing ids, inside the arena). False if they
  // cannot be encoded.
  bool Prepare(std::uint32_t server_tick, const sim::Arena& arena,
               std::span<const sim::PlayerCube> players) noexcept;
  // The same for a delta (its ack fields are ignored).
  bool Prepare(const DeltaSnapshot& delta) noexcept;
  // The bits of the shared part prepared last (0 after a failed Prepare), and of those the bits that
  // carry cubes (a full snapshot's cubes; a delta's fates and joined cubes): what a cube costs.
  std::size_t shared_bits() const noexcept { return shared_bits_; }
  std::size_t cube_bits() const noexcept { return cube_bits_; }
  // Those of a full snapshot of `players` cubes in `arena`: type, tick, arena, count and the cubes, whose
  // positions take more bits in a larger arena (measured).
  static std::size_t FullSharedBits(std::size_t players, const sim::Arena& arena) noexcept;
  // The receiver's part of a snapshot: its ack and input lead, once the server has applied an input.
  struct ReceiverAck {
    sim::Seq ack = 0;
    int input_lead = 0;  // clamped to [kMinInputLead, kMaxInputLead]
  };
  // The whole packet for a receiver (no ack: none of its inputs applied yet); valid until the next call.
  // Byte for byte what Encode gives for the same Snapshot.
  std::span<const std::uint8_t> PacketFor(std::optional<ReceiverAck> ack) noexcept;

 private:
  std::array<std::uint8_t, kMaxPacketBytes> buffer_{};
  std::size_t shared_bits_ = 0;  // 0 until a successful Prepare
  std::size_t cube_bits_ = 0;
};

// An InterestSnapshot in `arena` of the members `ids` (increasing), with its ack (has_ack) or without,
// counted (a server sizes every client's snapshot with it): the bits naming the members (the header and
// the ack with them), and the bits each state adds, whole or predicted.
struct InterestBits {
  std::size_t named = 0;
  std::size_t whole = 0;
  std::size_t predicted = 0;
  // The bytes with `wholes` states carried whole and `predictions` predicted.
  std::size_t Bytes(std::size_t wholes, std::size_t predictions = 0) const noexcept {
    return (named + wholes * whole + predictions * predicted + 7) / 8;
  }
};
InterestBits CountInterestBits(const sim::Arena& arena, std::span<const sim::PlayerId> ids,
                               bool has_ack) noexcept;

}  // namespace netcube::protocol
