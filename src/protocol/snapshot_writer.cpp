#include "netcube/protocol/snapshot_writer.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include "snapshot_wire.h"

namespace netcube::protocol {

using snapshot_wire::SerializeAck;
using snapshot_wire::SerializeDeltaBody;
using snapshot_wire::SerializeType;
using snapshot_wire::SerializeWorld;

namespace {

// The bits of a delta's shared part with no cube: measured by the serializer itself, so a change of the
// layout cannot leave it behind.
std::size_t MeasureDeltaHeader() noexcept {
  DeltaSnapshot delta;
  BitMeasurer header;
  SerializeType(header, MessageType::kDeltaSnapshot);
  SerializeDeltaBody(header, delta);
  return header.BitsWritten();
}

std::size_t DeltaHeaderBits() noexcept {
  static const std::size_t kBits = MeasureDeltaHeader();
  return kBits;
}

// The bits of a full snapshot's shared part with `cubes` cubes in `arena` (measured, as above).
std::size_t MeasureFull(std::span<const sim::PlayerCube> cubes, sim::Arena arena) noexcept {
  std::uint32_t tick = 0;
  BitMeasurer measurer;
  SerializeType(measurer, MessageType::kSnapshot);
  SerializeWorld(measurer, tick, arena, cubes);
  return measurer.BitsWritten();
}

}  // namespace

std::size_t SnapshotWriter::FullSharedBits(std::size_t players, const sim::Arena& arena) noexcept {
  const sim::PlayerCube cube{0, {arena.min_x(), arena.min_y(), 0, 0, 0, 0}};
  const std::size_t header = MeasureFull({}, arena);
  return header + (MeasureFull({&cube, 1}, arena) - header) * players;
}

bool SnapshotWriter::Prepare(std::uint32_t server_tick, const sim::Arena& arena,
                             std::span<const sim::PlayerCube> players) noexcept {
  BitWriter writer(buffer_);
  sim::Arena told = arena;
  if (!SerializeType(writer, MessageType::kSnapshot) || !SerializeWorld(writer, server_tick, told, players)) {
    shared_bits_ = cube_bits_ = 0;
    return false;
  }
  shared_bits_ = writer.BitsWritten();
  cube_bits_ = shared_bits_ - FullSharedBits(0, arena);
  return true;
}

bool SnapshotWriter::Prepare(const DeltaSnapshot& delta) noexcept {
  BitWriter writer(buffer_);
  if (!SerializeType(writer, MessageType::kDeltaSnapshot) ||
      !SerializeDeltaBody(writer, const_cast<DeltaSnapshot&>(delta))) {
    shared_bits_ = cube_bits_ = 0;
    return false;
  }
  shared_bits_ = writer.BitsWritten();
  cube_bits_ = shared_bits_ - DeltaHeaderBits();
  return true;
}

std::span<const std::uint8_t> SnapshotWriter::PacketFor(std::optional<ReceiverAck> ack) noexcept {
  if (shared_bits_ == 0) return {};
  BitWriter writer(buffer_, shared_bits_);
  bool has_ack = ack.has_value();
  sim::Seq value = ack ? ack->ack : sim::Seq{0};
  auto lead = static_cast<std::int8_t>(ack ? std::clamp(ack->input_lead, kMinInputLead, kMaxInputLead) : 0);
  [[maybe_unused]] const bool written = SerializeAck(writer, has_ack, value, lead);
  assert(written && "the largest snapshot with an ack fits kMaxPacketBytes");
  return {buffer_.data(), writer.BytesWritten()};
}

// The fields but the members' ids have fixed widths (the type's 12 bits, tick, arena, count, ack; a
// member's flag; a state's kind, then its age, or its position within the arena, velocity and buttons);
// an id is its gap's Elias gamma code.
InterestBits CountInterestBits(const sim::Arena& arena, std::span<const sim::PlayerId> ids,
                               bool has_ack) noexcept {
  constexpr int kHeadBits =
      12 + 32 + 2 * BitsRequired(sim::kMinArenaUnits, sim::kMaxArenaUnits) + BitsRequired(0, kMaxPlayers) + 1;
  constexpr int kAckBits = 16 + BitsRequired(kMinInputLead, kMaxInputLead);
  constexpr int kMotionBits =
      2 * BitsRequired(-sim::kMaxSpeed, sim::kMaxSpeed) + BitsRequired(0, sim::kButtonMask);
  InterestBits bits;
  bits.named = kHeadBits + (has_ack ? kAckBits : 0) + ids.size();  // a flag a member
  std::uint32_t lowest = 0;
  for (const sim::PlayerId id : ids) {
    bits.named += static_cast<std::size_t>(2 * std::bit_width(id - lowest + 1u) - 1);
    lowest = id + 1u;
  }
  bits.whole = static_cast<std::size_t>(1 + BitsRequired(arena.min_x(), arena.max_x()) +
                                        BitsRequired(arena.min_y(), arena.max_y()) + kMotionBits);
  bits.predicted = static_cast<std::size_t>(1 + BitsRequired(1, kMaxPredictedAge));
  return bits;
}

}  // namespace netcube::protocol
