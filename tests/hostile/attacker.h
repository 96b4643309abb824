#pragma once
// The attacker's side of the hostile-network tests: what someone on the same network can send a netcube
// server with a few lines of C. Raw UDP datagrams, and a real ENet connection (the system's ENet) that
// also slips hand-made ENet commands in. Each attacker binds its own loopback source address (127.0.0.2,
// 127.0.0.3, ...), so it is never mistaken for the honest clients on 127.0.0.1.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "netcube/sim/time.h"

struct _ENetHost;
struct _ENetPeer;

namespace netcube::hostile {

// A UDP socket bound to `source` (any port).
class UdpSocket {
 public:
  static std::unique_ptr<UdpSocket> Bind(const std::string& source, std::string* error);
  ~UdpSocket();
  UdpSocket(const UdpSocket&) = delete;
  UdpSocket& operator=(const UdpSocket&) = delete;

  // Sends one datagram to 127.0.0.1:port; false if the kernel refused it (a full buffer, say).
  bool SendTo(std::uint16_t port, std::span<const std::uint8_t> datagram);
  // Reads every datagram waiting, without blocking; returns their total size in bytes.
  std::size_t Drain();

 private:
  explicit UdpSocket(int fd) : fd_(fd) {}
  int fd_;
};

// One ENet fragment command (SEND_FRAGMENT when reliable, else SEND_UNRELIABLE_FRAGMENT) with `length`
// bytes of data, claiming whatever the caller likes.
struct Fragment {
  bool reliable = true;
  std::uint8_t channel = 0;
  std::uint16_t reliable_seq = 0;
  std::uint16_t start_seq = 0;
  std::uint32_t count = 1;
  std::uint32_t number = 0;
  std::uint32_t total_length = 1;
  std::uint32_t offset = 0;
  std::uint16_t length = 1;
};

// An ENet connection from `source` to 127.0.0.1:port, made and kept by the system's ENet.
class EnetIntruder {
 public:
  static std::unique_ptr<EnetIntruder> Connect(const std::string& source, std::uint16_t port,
                                               std::string* error);
  ~EnetIntruder();
  EnetIntruder(const EnetIntruder&) = delete;
  EnetIntruder& operator=(const EnetIntruder&) = delete;

  // Services the ENet host without blocking; whatever the server sends is read and thrown away.
  void Service();
  bool connected() const { return connected_; }
  bool disconnected() const { return disconnected_; }
  // The payload of the last packet received (a Challenge to answer, say).
  const std::vector<std::uint8_t>& last_received() const { return last_received_; }

  // Sends a payload the ordinary way (a netcube message, say) on `channel`, reliably or not.
  void SendPacket(std::uint8_t channel, std::span<const std::uint8_t> payload, bool reliable);
  // Sends one datagram on the connection's socket with this peer's ENet header, then `commands`.
  void SendCommands(std::span<const std::uint8_t> commands);
  static std::vector<std::uint8_t> Encode(const Fragment& fragment);
  // Appends one ENet SEND_UNRELIABLE command with no data: a sequenced packet on `channel` to be delivered
  // once the channel has delivered reliable number `reliable_seq`.
  static void AppendEmptyUnreliable(std::vector<std::uint8_t>& out, std::uint8_t channel,
                                    std::uint16_t reliable_seq, std::uint16_t unreliable_seq);

 private:
  EnetIntruder(_ENetHost* host, _ENetPeer* peer) : host_(host), peer_(peer) {}
  _ENetHost* host_;
  _ENetPeer* peer_;
  bool connected_ = false;
  bool disconnected_ = false;
  std::vector<std::uint8_t> last_received_;
};

// An ENet connection request, as the first datagram of a handshake the sender never means to finish
// (the source could be forged: nothing of the answer is needed).
std::vector<std::uint8_t> EnetConnectDatagram(std::uint32_t connect_id, bool blind = false);

// A slot flood: every 10 ms, each attacker starts an ENet handshake it never finishes (a fresh CONNECT to
// `port`) and drains what came back, so it holds as many as its address may, renewed as soon as the server
// gives up on them.
class HandshakeFlood {
 public:
  HandshakeFlood(std::span<const std::unique_ptr<UdpSocket>> attackers, std::uint16_t port)
      : attackers_(attackers), port_(port) {}
  void Step(Micros now);
  std::uint64_t requests() const { return requests_; }

 private:
  std::span<const std::unique_ptr<UdpSocket>> attackers_;
  std::uint16_t port_;
  std::uint32_t connect_id_ = 1;
  std::uint64_t requests_ = 0;
};

// A blind join's second datagram, for a handshake begun by EnetConnectDatagram(id, true) (which names no
// peer of its own, so ENet skips its session check): a guessed acknowledgement of the server's answer
// (its peer slot, sequence number 1, and a sent time that ENet's clock makes easy to guess), and then
// `payload` as the connection's first reliable packet on channel 0. Nothing of the answer is read.
std::vector<std::uint8_t> EnetBlindJoinDatagram(std::uint16_t server_slot,
                                                std::span<const std::uint8_t> payload);

// The process's resident set size, bytes (Linux).
std::size_t ResidentBytes();
// The most the server's process may grow while one of ENet's flaws is attacked.
inline constexpr std::size_t kMaxGrowthBytes = 16 * 1024 * 1024;

}  // namespace netcube::hostile
