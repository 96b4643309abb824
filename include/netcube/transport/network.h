#pragma once
// The network as a parameter, as time is (after netcode.io's send and receive overrides, yojimbo's and
// Quake III's loopback): Server and Client are handed a Network and ask it for their Host, so the same
// code runs over real UDP sockets or in memory. Either way the link conditioner sits in the Host, in front
// of the Network's endpoint.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "netcube/transport/endpoint.h"
#include "netcube/transport/host.h"

namespace netcube::transport {

class Network {
 public:
  virtual ~Network() = default;
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  // A server host bound to bind_address:port. nullptr and `error` set on failure.
  std::unique_ptr<Host> Listen(const HostConfig& config, std::string* error);
  // A client host with room for one outgoing connection, from bind_address.
  std::unique_ptr<Host> Outgoing(const HostConfig& config, std::string* error);

 protected:
  Network() = default;

 private:
  virtual std::unique_ptr<Endpoint> ListenEndpoint(const HostConfig& config, std::string* error) = 0;
  virtual std::unique_ptr<Endpoint> OutgoingEndpoint(const HostConfig& config, std::string* error) = 0;
};

// Real UDP sockets through ENet, with its defences against strangers (the datagram filter, handshake
// timeouts, making room, unproven goodbyes said once: HostConfig). Holds nothing: every host is its own.
class EnetNetwork final : public Network {
 private:
  std::unique_ptr<Endpoint> ListenEndpoint(const HostConfig& config, std::string* error) override;
  std::unique_ptr<Endpoint> OutgoingEndpoint(const HostConfig& config, std::string* error) override;
};

// The process's EnetNetwork: what a config without a network of its own uses. In a build without ENet
// (NETCUBE_WITH_ENET=OFF) a network whose every host fails, saying why.
std::shared_ptr<Network> UdpNetwork();

enum class NetworkKind : std::uint8_t { kMemory, kUdp };
const char* ToString(NetworkKind kind) noexcept;  // "memory", "udp"
std::optional<NetworkKind> ParseNetworkKind(std::string_view name) noexcept;
// A fresh in-memory hub (MemoryNetwork), or UdpNetwork().
std::shared_ptr<Network> MakeNetwork(NetworkKind kind);
// Which kind `network` is; nullptr (a config without a network of its own) is UdpNetwork().
NetworkKind KindOf(const Network* network) noexcept;

}  // namespace netcube::transport
