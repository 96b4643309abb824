#include "enet_endpoint.h"
#include "netcube/transport/network.h"

namespace netcube::transport {

std::unique_ptr<Endpoint> EnetNetwork::ListenEndpoint(const HostConfig& config, std::string* error) {
  return EnetEndpoint::Listen(config, error);
}

std::unique_ptr<Endpoint> EnetNetwork::OutgoingEndpoint(const HostConfig& config, std::string* error) {
  return EnetEndpoint::Outgoing(config, error);
}

std::shared_ptr<Network> UdpNetwork() {
  static const std::shared_ptr<Network> udp = std::make_shared<EnetNetwork>();
  return udp;
}

}  // namespace netcube::transport
