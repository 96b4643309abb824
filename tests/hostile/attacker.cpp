#include "hostile/attacker.h"

#include <arpa/inet.h>
#include <enet/enet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace netcube::hostile {
namespace {

void PutU16(std::vector<std::uint8_t>& out, std::uint16_t value) {
  out.push_back(static_cast<std::uint8_t>(value >> 8));
  out.push_back(static_cast<std::uint8_t>(value));
}

void PutU32(std::vector<std::uint8_t>& out, std::uint32_t value) {
  PutU16(out, static_cast<std::uint16_t>(value >> 16));
  PutU16(out, static_cast<std::uint16_t>(value));
}

sockaddr_in Loopback(std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

}  // namespace

std::unique_ptr<UdpSocket> UdpSocket::Bind(const std::string& source, std::string* error) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  if (inet_pton(AF_INET, source.c_str(), &address.sin_addr) != 1) {
    *error = "bad source address " + source;
    return nullptr;
  }
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
  if (fd < 0 || bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    *error = "cannot bind " + source + ": " + std::strerror(errno);
    if (fd >= 0) close(fd);
    return nullptr;
  }
  return std::unique_ptr<UdpSocket>(new UdpSocket(fd));
}

UdpSocket::~UdpSocket() { close(fd_); }

bool UdpSocket::SendTo(std::uint16_t port, std::span<const std::uint8_t> datagram) {
  const sockaddr_in to = Loopback(port);
  return sendto(fd_, datagram.data(), datagram.size(), 0, reinterpret_cast<const sockaddr*>(&to),
                sizeof to) == static_cast<ssize_t>(datagram.size());
}

std::size_t UdpSocket::Drain() {
  std::array<std::uint8_t, 65536> buffer;
  std::size_t total = 0;
  for (;;) {
    const ssize_t got = recv(fd_, buffer.data(), buffer.size(), MSG_TRUNC);
    if (got < 0) return total;
    total += static_cast<std::size_t>(got);
  }
}

std::unique_ptr<EnetIntruder> EnetIntruder::Connect(const std::string& source, std::uint16_t port,
                                                    std::string* error) {
  if (enet_initialize() != 0) {
    *error = "enet_initialize failed";
    return nullptr;
  }
  ENetAddress local{};
  if (enet_address_set_host_ip(&local, source.c_str()) != 0) {
    *error = "bad source address " + source;
    return nullptr;
  }
  ENetHost* host = enet_host_create(&local, 1, 2, 0, 0);
  if (host == nullptr) {
    *error = "cannot bind " + source;
    return nullptr;
  }
  ENetAddress server{};
  enet_address_set_host_ip(&server, "127.0.0.1");
  server.port = port;
  ENetPeer* peer = enet_host_connect(host, &server, 2, 0);
  if (peer == nullptr) {
    enet_host_destroy(host);
    *error = "enet_host_connect failed";
    return nullptr;
  }
  return std::unique_ptr<EnetIntruder>(new EnetIntruder(host, peer));
}

EnetIntruder::~EnetIntruder() { enet_host_destroy(host_); }

void EnetIntruder::Service() {
  ENetEvent event;
  while (enet_host_service(host_, &event, 0) != 0) {
    if (event.type == ENET_EVENT_TYPE_CONNECT) connected_ = true;
    if (event.type == ENET_EVENT_TYPE_DISCONNECT) disconnected_ = true;
    if (event.type == ENET_EVENT_TYPE_RECEIVE) {
      last_received_.assign(event.packet->data, event.packet->data + event.packet->dataLength);
      enet_packet_destroy(event.packet);
    }
  }
}

void EnetIntruder::SendCommands(std::span<const std::uint8_t> commands) {
  const auto peer_id = static_cast<std::uint16_t>(
      peer_->outgoingPeerID | peer_->outgoingSessionID << ENET_PROTOCOL_HEADER_SESSION_SHIFT);
  std::array<std::uint8_t, 2> header = {static_cast<std::uint8_t>(peer_id >> 8),
                                        static_cast<std::uint8_t>(peer_id)};
  std::array<ENetBuffer, 2> buffers{};
  buffers[0].data = header.data();
  buffers[0].dataLength = header.size();
  buffers[1].data =
      const_cast<std::uint8_t*>(commands.data());  // ENet's buffer type is not const; it only reads
  buffers[1].dataLength = commands.size();
  enet_socket_send(host_->socket, &peer_->address, buffers.data(), buffers.size());
}

void EnetIntruder::SendPacket(std::uint8_t channel, std::span<const std::uint8_t> payload, bool reliable) {
  ENetPacket* packet =
      enet_packet_create(payload.data(), payload.size(), reliable ? ENET_PACKET_FLAG_RELIABLE : 0);
  if (enet_peer_send(peer_, channel, packet) != 0) enet_packet_destroy(packet);
}

void HandshakeFlood::Step(Micros now) {
  if (now.count() % 10'000 != 0) return;
  for (const auto& attacker : attackers_) {
    requests_ += attacker->SendTo(port_, EnetConnectDatagram(connect_id_++)) ? 1U : 0U;
    attacker->Drain();
  }
}

std::vector<std::uint8_t> EnetConnectDatagram(std::uint32_t connect_id, bool blind) {
  constexpr std::uint16_t kNoPeer = ENET_PROTOCOL_MAXIMUM_PEER_ID;
  constexpr int kAcknowledge = ENET_PROTOCOL_COMMAND_FLAG_ACKNOWLEDGE;
  std::vector<std::uint8_t> out;
  PutU16(out, kNoPeer);
  out.push_back(static_cast<std::uint8_t>(ENET_PROTOCOL_COMMAND_CONNECT | kAcknowledge));
  out.push_back(0xFF);               // channel: none
  PutU16(out, 1);                    // reliable sequence number
  PutU16(out, blind ? kNoPeer : 0);  // the sender's own peer id
  out.push_back(0xFF);               // session ids: let the server choose
  out.push_back(0xFF);
  for (const std::uint32_t field : {1392U, 32768U, 2U, 0U, 0U, 5000U, 2U, 2U, connect_id, 0U})
    PutU32(out, field);
  return out;
}

std::vector<std::uint8_t> EnetBlindJoinDatagram(std::uint16_t server_slot,
                                                std::span<const std::uint8_t> payload) {
  constexpr int kAcknowledge = ENET_PROTOCOL_COMMAND_FLAG_ACKNOWLEDGE;
  std::vector<std::uint8_t> out;
  PutU16(out, server_slot);
  out.push_back(ENET_PROTOCOL_COMMAND_ACKNOWLEDGE);
  out.push_back(0xFF);
  PutU16(out, 1);
  PutU16(out, 1);  // the server's VERIFY_CONNECT is its reliable command 1
  // ENet's clock is the wall clock in milliseconds; a time just past is accepted (a future one is not).
  PutU16(out, static_cast<std::uint16_t>(enet_time_get() - 1));
  out.push_back(static_cast<std::uint8_t>(ENET_PROTOCOL_COMMAND_SEND_RELIABLE | kAcknowledge));
  out.push_back(0);  // channel 0
  PutU16(out, 1);
  PutU16(out, static_cast<std::uint16_t>(payload.size()));
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

std::vector<std::uint8_t> EnetIntruder::Encode(const Fragment& f) {
  std::vector<std::uint8_t> out;
  constexpr int kAcknowledge = ENET_PROTOCOL_COMMAND_FLAG_ACKNOWLEDGE;
  out.push_back(static_cast<std::uint8_t>(f.reliable ? ENET_PROTOCOL_COMMAND_SEND_FRAGMENT | kAcknowledge
                                                     : ENET_PROTOCOL_COMMAND_SEND_UNRELIABLE_FRAGMENT));
  out.push_back(f.channel);
  PutU16(out, f.reliable_seq);
  PutU16(out, f.start_seq);
  PutU16(out, f.length);
  PutU32(out, f.count);
  PutU32(out, f.number);
  PutU32(out, f.total_length);
  PutU32(out, f.offset);
  out.resize(out.size() + f.length, 0xAB);
  return out;
}

void EnetIntruder::AppendEmptyUnreliable(std::vector<std::uint8_t>& out, std::uint8_t channel,
                                         std::uint16_t reliable_seq, std::uint16_t unreliable_seq) {
  out.push_back(ENET_PROTOCOL_COMMAND_SEND_UNRELIABLE);
  out.push_back(channel);
  PutU16(out, reliable_seq);
  PutU16(out, unreliable_seq);
  PutU16(out, 0);  // data length
}

std::size_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0;
  std::size_t resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace netcube::hostile
