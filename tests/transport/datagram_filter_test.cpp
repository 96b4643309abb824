#include "datagram_filter.h"

#include <enet/enet.h>
#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace netcube::transport {
namespace {

constexpr std::size_t kLimit = 4096;

// How ENet splits a `total`-byte packet into `size`-byte fragments: fragment `number` of it.
FragmentClaim Split(std::uint32_t total, std::uint16_t size, std::uint32_t number) {
  const std::uint32_t count = (total + size - 1) / size;
  const std::uint32_t offset = number * size;
  return {count, number, total, offset,
          static_cast<std::uint16_t>(std::min<std::uint32_t>(size, total - offset))};
}

TEST(DatagramFilter, EveryFragmentOfARealSplitIsConsistent) {
  for (const std::uint32_t total : {1U, 2U, 1000U, 1360U, 1361U, 1928U, 2720U, 4096U}) {
    for (const std::uint16_t size :
         {std::uint16_t{1}, std::uint16_t{7}, std::uint16_t{548}, std::uint16_t{1360}}) {
      const std::uint32_t count = (total + size - 1) / size;
      for (std::uint32_t number = 0; number < count; ++number) {
        EXPECT_TRUE(FragmentConsistent(Split(total, size, number), kLimit))
            << total << " " << size << " " << number;
      }
    }
  }
}

TEST(DatagramFilter, ImpossibleClaimsAreRefused) {
  // ENet 1.3.17's memory bomb: a million fragments of a 1-byte packet (a 128 KiB bitmap each).
  EXPECT_FALSE(FragmentConsistent({1U << 20, 0, 1, 0, 1}, kLimit));
  EXPECT_FALSE(FragmentConsistent({1U << 20, (1U << 20) - 1, 1, 0, 1}, kLimit));
  EXPECT_FALSE(FragmentConsistent({2, 0, 4097, 0, 2049}, kLimit));  // above the largest message
  EXPECT_FALSE(FragmentConsistent({0, 0, 10, 0, 10}, kLimit));
  EXPECT_FALSE(FragmentConsistent({2, 2, 10, 0, 5}, kLimit));  // number beyond count
  EXPECT_FALSE(FragmentConsistent({2, 0, 10, 1, 5}, kLimit));  // offset not number x size
  EXPECT_FALSE(FragmentConsistent({3, 0, 10, 0, 5}, kLimit));  // 10 bytes in 5-byte fragments are 2
  EXPECT_FALSE(FragmentConsistent({2, 1, 10, 5, 4}, kLimit));  // the last one stops short of the total
  EXPECT_FALSE(FragmentConsistent({3, 2, 12, 6, 6}, kLimit));  // last longer than the others (3 each)
  EXPECT_FALSE(FragmentConsistent({1, 0, 10, 0, 0}, kLimit));  // no data
  EXPECT_FALSE(FragmentConsistent({1, 0, 10, 0, 9}, kLimit));  // a single fragment is the whole message
}

// One connected ENet peer with two channels, as the filter sees it (only the fields it reads), and
// datagrams for it.
class ParkingRig {
 public:
  static constexpr std::size_t kMaxParked = 256;

  ParkingRig() {
    for (ENetChannel& channel : channels_) {
      Clear(channel.incomingReliableCommands);
      Clear(channel.incomingUnreliableCommands);
    }
    peer_.state = ENET_PEER_STATE_CONNECTED;
    peer_.channels = channels_.data();
    peer_.channelCount = channels_.size();
    host_.peers = &peer_;
    host_.peerCount = 1;
  }

  // Commands ENet has already parked on `channel`: unreliable ones naming a reliable number ahead.
  void Park(std::uint8_t channel, std::size_t count) {
    parked_.resize(count);  // sized once per rig: the list points into it
    for (ENetIncomingCommand& command : parked_)
      Append(channels_[channel].incomingUnreliableCommands, command);
  }

  void Reliable(std::uint8_t channel, std::uint16_t seq) {
    Header(ENET_PROTOCOL_COMMAND_SEND_RELIABLE, channel, seq);  // its flags do not matter here
    PutU16(1);                                                  // one byte of data
    datagram_.push_back(0x42);
  }
  void Unreliable(std::uint8_t channel, std::uint16_t reliable_seq, std::uint16_t unreliable_seq) {
    Header(ENET_PROTOCOL_COMMAND_SEND_UNRELIABLE, channel, reliable_seq);
    PutU16(unreliable_seq);
    PutU16(0);
  }
  void Unsequenced(std::uint8_t channel, std::uint16_t group) {
    Header(ENET_PROTOCOL_COMMAND_SEND_UNSEQUENCED, channel, 0);
    PutU16(group);
    PutU16(0);
  }

  // Whether the filter lets the datagram built so far through; starts the next one.
  bool Accepted() {
    const bool accepted = AcceptDatagram(host_, datagram_, {kLimit, 8, kMaxParked});
    datagram_.assign(2, 0);
    return accepted;
  }

 private:
  static void Clear(ENetList& list) { list.sentinel.next = list.sentinel.previous = &list.sentinel; }
  static void Append(ENetList& list, ENetIncomingCommand& command) {
    command.incomingCommandList.previous = list.sentinel.previous;
    command.incomingCommandList.next = &list.sentinel;
    list.sentinel.previous->next = &command.incomingCommandList;
    list.sentinel.previous = &command.incomingCommandList;
  }
  void Header(int command, std::uint8_t channel, std::uint16_t reliable_seq) {
    datagram_.push_back(static_cast<std::uint8_t>(command));
    datagram_.push_back(channel);
    PutU16(reliable_seq);
  }
  void PutU16(std::uint16_t value) {
    datagram_.push_back(static_cast<std::uint8_t>(value >> 8));
    datagram_.push_back(static_cast<std::uint8_t>(value));
  }

  ENetHost host_{};
  ENetPeer peer_{};
  std::array<ENetChannel, 2> channels_{};
  std::vector<ENetIncomingCommand> parked_;
  std::vector<std::uint8_t> datagram_ = std::vector<std::uint8_t>(2, 0);  // peer 0, no flags
};

TEST(DatagramFilter, HonestTrafficParksNothingWhateverItsVolume) {
  ParkingRig rig;
  // A burst of reliable messages in order, and unreliable ones at the reliable number delivered.
  for (std::uint16_t seq = 1; seq <= 300; ++seq) rig.Reliable(0, seq);
  EXPECT_TRUE(rig.Accepted());
  for (std::uint16_t seq = 1; seq <= 500; ++seq) rig.Unreliable(1, 0, seq);
  EXPECT_TRUE(rig.Accepted());
  // ENet's reliable command when channel 1's unreliable sequence wraps, and what follows it.
  rig.Reliable(1, 1);
  for (std::uint16_t seq = 1; seq <= 500; ++seq) rig.Unreliable(1, 1, seq);
  EXPECT_TRUE(rig.Accepted());
}

TEST(DatagramFilter, CommandsEnetWouldParkAreBoundedPerPeer) {
  ParkingRig rig;
  // Reliable commands beyond a gap, unreliable ones naming a reliable number to come, unsequenced ones.
  for (std::uint16_t seq = 2; seq < 2 + ParkingRig::kMaxParked; ++seq) rig.Reliable(0, seq);
  EXPECT_TRUE(rig.Accepted());
  for (std::uint16_t seq = 2; seq < 3 + ParkingRig::kMaxParked; ++seq) rig.Reliable(0, seq);
  EXPECT_FALSE(rig.Accepted());
  for (std::uint16_t seq = 1; seq <= ParkingRig::kMaxParked + 1; ++seq) rig.Unreliable(1, 1, seq);
  EXPECT_FALSE(rig.Accepted());
  for (std::uint16_t group = 1; group <= ParkingRig::kMaxParked + 1; ++group) rig.Unsequenced(1, group);
  EXPECT_FALSE(rig.Accepted());
  // In descending order, the way that makes ENet walk its whole list each time: the same count.
  for (std::uint16_t seq = ParkingRig::kMaxParked + 1; seq >= 1; --seq) rig.Unreliable(1, 1, seq);
  EXPECT_FALSE(rig.Accepted());
}

TEST(DatagramFilter, WhatIsAlreadyParkedCounts) {
  ParkingRig rig;
  rig.Park(1, ParkingRig::kMaxParked - 10);
  for (std::uint16_t seq = 1; seq <= 10; ++seq) rig.Unreliable(1, 1, seq);
  EXPECT_TRUE(rig.Accepted());
  for (std::uint16_t seq = 1; seq <= 11; ++seq) rig.Unreliable(1, 1, seq);
  EXPECT_FALSE(rig.Accepted());
  // The resend that fills the gap parks nothing, nor do the commands it lets through.
  rig.Reliable(1, 1);
  for (std::uint16_t seq = 1; seq <= 100; ++seq) rig.Unreliable(1, 1, seq);
  EXPECT_TRUE(rig.Accepted());
}

}  // namespace
}  // namespace netcube::transport
