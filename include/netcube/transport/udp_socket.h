#pragma once
// A non-blocking IPv4 UDP socket for datagrams outside ENet (LAN discovery), on ENet's portable socket
// calls. Like Host, it moves bytes and knows no message.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace netcube::transport {

struct UdpEndpoint {
  std::uint32_t address = 0;  // IPv4, host byte order
  std::uint16_t port = 0;
  friend bool operator==(const UdpEndpoint&, const UdpEndpoint&) = default;
};

// A dotted quad to a host-order address; nullopt if `text` is not one.
std::optional<std::uint32_t> ParseIpv4(const std::string& text);
std::string FormatIpv4(std::uint32_t address);

struct UdpSocketConfig {
  std::string bind_address = "0.0.0.0";
  std::uint16_t port = 0;  // 0 = an ephemeral port (read it back with port())
  bool shared = false;     // SO_REUSEADDR: several sockets on one port, each gets broadcasts and multicasts
  bool broadcast = false;  // may send to broadcast addresses
};

class UdpSocket {
 public:
  static std::optional<UdpSocket> Open(const UdpSocketConfig& config, std::string* error);
  UdpSocket(UdpSocket&& other) noexcept;
  UdpSocket& operator=(UdpSocket&& other) noexcept;
  UdpSocket(const UdpSocket&) = delete;
  UdpSocket& operator=(const UdpSocket&) = delete;
  ~UdpSocket();

  // Joins an IPv4 multicast group on the interface of the group's route.
  bool JoinMulticastGroup(std::uint32_t group, std::string* error);
  bool SendTo(const UdpEndpoint& to, std::span<const std::uint8_t> datagram);
  // The next pending datagram's length, or nullopt when none is waiting. A datagram longer than `buffer`
  // is consumed and reported as buffer.size() + 1 (its bytes are lost), so the caller can count it. An
  // empty datagram is indistinguishable from none.
  std::optional<std::size_t> Receive(std::span<std::uint8_t> buffer, UdpEndpoint& from);
  std::uint16_t port() const noexcept { return port_; }

 private:
  UdpSocket(int socket, std::uint16_t port) noexcept : socket_(socket), port_(port) {}
  int socket_ = -1;
  std::uint16_t port_ = 0;
};

}  // namespace netcube::transport
