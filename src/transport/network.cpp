#include "netcube/transport/network.h"

#include "netcube/transport/memory_network.h"

namespace netcube::transport {

std::unique_ptr<Host> Network::Listen(const HostConfig& config, std::string* error) {
  std::unique_ptr<Endpoint> endpoint = ListenEndpoint(config, error);
  if (endpoint == nullptr) return nullptr;
  return std::make_unique<Host>(std::move(endpoint), config);
}

std::unique_ptr<Host> Network::Outgoing(const HostConfig& config, std::string* error) {
  std::unique_ptr<Endpoint> endpoint = OutgoingEndpoint(config, error);
  if (endpoint == nullptr) return nullptr;
  return std::make_unique<Host>(std::move(endpoint), config);
}

std::unique_ptr<Host> Host::Listen(const HostConfig& config, std::string* error) {
  return UdpNetwork()->Listen(config, error);
}

std::unique_ptr<Host> Host::Outgoing(const HostConfig& config, std::string* error) {
  return UdpNetwork()->Outgoing(config, error);
}

const char* ToString(NetworkKind kind) noexcept { return kind == NetworkKind::kMemory ? "memory" : "udp"; }

std::optional<NetworkKind> ParseNetworkKind(std::string_view name) noexcept {
  if (name == "memory") return NetworkKind::kMemory;
  if (name == "udp") return NetworkKind::kUdp;
  return std::nullopt;
}

std::shared_ptr<Network> MakeNetwork(NetworkKind kind) {
  if (kind == NetworkKind::kUdp) return UdpNetwork();
  return std::make_shared<MemoryNetwork>();
}

NetworkKind KindOf(const Network* network) noexcept {
  const bool memory = network != nullptr && dynamic_cast<const MemoryNetwork*>(network) != nullptr;
  return memory ? NetworkKind::kMemory : NetworkKind::kUdp;
}

}  // namespace netcube::transport
