#include "netcube/transport/udp_socket.h"

#include <enet/enet.h>  // on Unix it brings the BSD socket API, for the multicast join ENet lacks

#include <cerrno>
#include <cstring>
#include <utility>

namespace netcube::transport {
namespace {

ENetAddress ToEnet(const UdpEndpoint& endpoint) noexcept {
  ENetAddress address{};
  address.host = htonl(endpoint.address);  // ENet keeps the host in network order, the port in host order
  address.port = endpoint.port;
  return address;
}

}  // namespace

std::optional<std::uint32_t> ParseIpv4(const std::string& text) {
  ENetAddress address{};
  if (enet_address_set_host_ip(&address, text.c_str()) != 0) return std::nullopt;
  return ntohl(address.host);
}

std::string FormatIpv4(std::uint32_t address) {
  const ENetAddress enet = ToEnet({address, 0});
  char text[16] = {};
  enet_address_get_host_ip(&enet, text, sizeof text);
  return text;
}

std::optional<UdpSocket> UdpSocket::Open(const UdpSocketConfig& config, std::string* error) {
  const std::optional<std::uint32_t> bind_address = ParseIpv4(config.bind_address);
  if (!bind_address) {
    *error = "invalid bind address '" + config.bind_address + "' (expected a numeric IPv4 address)";
    return std::nullopt;
  }
  const ENetSocket fd = enet_socket_create(ENET_SOCKET_TYPE_DATAGRAM);
  if (fd == ENET_SOCKET_NULL) {
    *error = std::string("cannot create a UDP socket: ") + std::strerror(errno);
    return std::nullopt;
  }
  UdpSocket socket(fd, 0);
  if (enet_socket_set_option(fd, ENET_SOCKOPT_NONBLOCK, 1) != 0 ||
      (config.shared && enet_socket_set_option(fd, ENET_SOCKOPT_REUSEADDR, 1) != 0) ||
      (config.broadcast && enet_socket_set_option(fd, ENET_SOCKOPT_BROADCAST, 1) != 0)) {
    *error = std::string("cannot set UDP socket options: ") + std::strerror(errno);
    return std::nullopt;
  }
  const ENetAddress address = ToEnet({*bind_address, config.port});
  ENetAddress bound{};
  if (enet_socket_bind(fd, &address) != 0 || enet_socket_get_address(fd, &bound) != 0) {
    *error = "cannot bind UDP " + config.bind_address + ":" + std::to_string(config.port) + ": " +
             std::strerror(errno);
    return std::nullopt;
  }
  socket.port_ = bound.port;
  return socket;
}

UdpSocket::UdpSocket(UdpSocket&& other) noexcept
    : socket_(std::exchange(other.socket_, -1)), port_(other.port_) {}

UdpSocket& UdpSocket::operator=(UdpSocket&& other) noexcept {
  if (this != &other) {
    if (socket_ >= 0) enet_socket_destroy(socket_);
    socket_ = std::exchange(other.socket_, -1);
    port_ = other.port_;
  }
  return *this;
}

UdpSocket::~UdpSocket() {
  if (socket_ >= 0) enet_socket_destroy(socket_);
}

bool UdpSocket::JoinMulticastGroup(std::uint32_t group, std::string* error) {
  ip_mreq request{};
  request.imr_multiaddr.s_addr = htonl(group);
  request.imr_interface.s_addr = htonl(INADDR_ANY);
  if (setsockopt(socket_, IPPROTO_IP, IP_ADD_MEMBERSHIP, &request, sizeof request) != 0) {
    *error = "cannot join multicast group " + FormatIpv4(group) + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool UdpSocket::SendTo(const UdpEndpoint& to, std::span<const std::uint8_t> datagram) {
  const ENetAddress address = ToEnet(to);
  ENetBuffer buffer{};
  buffer.data = const_cast<std::uint8_t*>(datagram.data());  // ENet's buffer type is shared with receiving
  buffer.dataLength = datagram.size();
  return enet_socket_send(socket_, &address, &buffer, 1) == static_cast<int>(datagram.size());
}

std::optional<std::size_t> UdpSocket::Receive(std::span<std::uint8_t> buffer, UdpEndpoint& from) {
  ENetAddress address{};
  ENetBuffer enet_buffer{};
  enet_buffer.data = buffer.data();
  enet_buffer.dataLength = buffer.size();
  const int received = enet_socket_receive(socket_, &address, &enet_buffer, 1);
  if (received == 0) return std::nullopt;
  from = {ntohl(address.host), address.port};
  // ENet returns -1 for a datagram that did not fit (and for a socket error, which UDP reports only for
  // ICMP errors of connected sockets: never here).
  return received < 0 ? buffer.size() + 1 : static_cast<std::size_t>(received);
}

}  // namespace netcube::transport
