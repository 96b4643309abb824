#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "netcube/protocol/discovery.h"

namespace netcube::protocol {
namespace {

std::vector<std::uint8_t> EncodeReply(const DiscoveryReply& reply) {
  std::vector<std::uint8_t> bytes(kDiscoveryQueryBytes);
  bytes.resize(EncodeDiscoveryReply(reply, bytes));
  return bytes;
}

DiscoveryReply ExampleReply() {
  DiscoveryReply reply;
  reply.version = 2;  // the documented example's, whatever kProtocolVersion becomes
  reply.client_time_us = 0x00012345;
  reply.port = 7777;
  reply.players = 2;
  reply.max_players = 32;
  reply.tick_rate = 60;
  reply.snapshot_rate = 20;
  reply.max_snapshot_rate = 60;
  reply.name = "lanbox";
  return reply;
}

// The worked examples of docs/PROTOCOL.md, "LAN discovery".
TEST(DiscoveryMessages, QueryIsTheDocumentedPaddedBytes) {
  std::array<std::uint8_t, kDiscoveryQueryBytes> bytes{};
  ASSERT_EQ(EncodeDiscoveryQuery({2, 0x00012345}, bytes), kDiscoveryQueryBytes);
  std::array<std::uint8_t, kDiscoveryQueryBytes> expected{0x4E, 0x43, 0x44, 0x51, 0x00,
                                                          0x02, 0x00, 0x01, 0x23, 0x45};
  EXPECT_EQ(bytes, expected);
  DiscoveryQuery decoded;
  ASSERT_EQ(DecodeDiscoveryQuery(bytes, decoded), DecodeError::kNone);
  EXPECT_EQ(decoded, (DiscoveryQuery{2, 0x00012345}));
}

TEST(DiscoveryMessages, ReplyIsTheDocumentedBytes) {
  // players int[0, 1024] in 11 bits and max_players int[1, 1024] in 10 since protocol 16.
  const std::vector<std::uint8_t> expected{0x4E, 0x43, 0x44, 0x52, 0x00, 0x02, 0x00, 0x01, 0x23, 0x45, 0x00,
                                           0x00, 0x00, 0x00, 0x1E, 0x61, 0x00, 0x40, 0xF9, 0xD8, 0x99, 0xD8,
                                           0x10, 0x00, 0x21, 0xA6, 0x41, 0x9D, 0x0A, 0x7D, 0x80};
  EXPECT_EQ(EncodeReply(ExampleReply()), expected);
  DiscoveryReply decoded;
  ASSERT_EQ(DecodeDiscoveryReply(expected, decoded), DecodeError::kNone);
  EXPECT_EQ(decoded, ExampleReply());
}

// The anti-amplification rule: the longest possible reply fits in a query's length.
TEST(DiscoveryMessages, NoReplyIsLargerThanAQuery) {
  DiscoveryReply largest = ExampleReply();
  largest.address = 0xFFFFFFFF;
  largest.players = static_cast<std::uint16_t>(kMaxPlayers);
  largest.max_players = static_cast<std::uint16_t>(kMaxPlayers);
  largest.name = std::string(kMaxServerNameLength, '~');
  EXPECT_EQ(MeasureDiscoveryReply(largest), kDiscoveryQueryBytes);
  EXPECT_EQ(EncodeReply(largest).size(), kDiscoveryQueryBytes);
  largest.name.push_back('~');
  EXPECT_EQ(MeasureDiscoveryReply(largest), 0U);
}

TEST(DiscoveryMessages, EncoderRefusesInvalidReplies) {
  std::array<std::uint8_t, kDiscoveryQueryBytes> bytes{};
  DiscoveryReply reply = ExampleReply();
  reply.name.clear();
  EXPECT_EQ(EncodeDiscoveryReply(reply, bytes), 0U);
  reply = ExampleReply();
  reply.port = 0;
  EXPECT_EQ(EncodeDiscoveryReply(reply, bytes), 0U);
  reply = ExampleReply();
  reply.players = 33;
  EXPECT_EQ(EncodeDiscoveryReply(reply, bytes), 0U);
  reply = ExampleReply();
  reply.max_players = static_cast<std::uint16_t>(kMaxPlayers + 1);
  EXPECT_EQ(EncodeDiscoveryReply(reply, bytes), 0U);
  reply = ExampleReply();
  reply.max_players = 0;
  reply.players = 0;
  EXPECT_EQ(EncodeDiscoveryReply(reply, bytes), 0U);
  reply = ExampleReply();
  reply.name = "tab\there";
  EXPECT_EQ(EncodeDiscoveryReply(reply, bytes), 0U);
}

TEST(DiscoveryMessages, MalformedQueriesAreRejected) {
  std::array<std::uint8_t, kDiscoveryQueryBytes> good{};
  ASSERT_EQ(EncodeDiscoveryQuery({}, good), kDiscoveryQueryBytes);
  DiscoveryQuery out{7, 7};
  const DiscoveryQuery untouched = out;

  EXPECT_EQ(DecodeDiscoveryQuery({}, out), DecodeError::kEmpty);
  // Short by one byte: an unpadded query draws nothing.
  EXPECT_EQ(DecodeDiscoveryQuery(std::span(good.data(), good.size() - 1), out), DecodeError::kMalformed);
  std::vector<std::uint8_t> longer(good.begin(), good.end());
  longer.push_back(0);
  EXPECT_EQ(DecodeDiscoveryQuery(longer, out), DecodeError::kTooLarge);
  auto bad_magic = good;
  bad_magic[3] = 0x52;  // a reply's magic
  EXPECT_EQ(DecodeDiscoveryQuery(bad_magic, out), DecodeError::kMalformed);
  auto dirty_padding = good;
  dirty_padding[kDiscoveryQueryBytes - 1] = 1;
  EXPECT_EQ(DecodeDiscoveryQuery(dirty_padding, out), DecodeError::kMalformed);
  EXPECT_EQ(out, untouched);
}

TEST(DiscoveryMessages, MalformedRepliesAreRejected) {
  const std::vector<std::uint8_t> good = EncodeReply(ExampleReply());
  DiscoveryReply out;
  for (std::size_t length = 0; length < good.size(); ++length) {
    EXPECT_NE(DecodeDiscoveryReply(std::span(good.data(), length), out), DecodeError::kNone) << length;
  }
  std::vector<std::uint8_t> trailing = good;
  trailing.push_back(0);
  EXPECT_EQ(DecodeDiscoveryReply(trailing, out), DecodeError::kTrailingData);
  std::vector<std::uint8_t> too_many_players = good;
  // players 2 = 000 0000 0010 is bits 128..138: byte 16 holds its high 8 bits, 0x04 makes it 34.
  too_many_players[16] = 0x04;  // players 34 > max_players 32
  EXPECT_EQ(DecodeDiscoveryReply(too_many_players, out), DecodeError::kMalformed);
  std::vector<std::uint8_t> port_zero = good;
  port_zero[14] = port_zero[15] = 0;
  EXPECT_EQ(DecodeDiscoveryReply(port_zero, out), DecodeError::kMalformed);
}

}  // namespace
}  // namespace netcube::protocol
