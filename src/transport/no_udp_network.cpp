// A build without ENet (NETCUBE_WITH_ENET=OFF, the browser lab's) has no UDP: every host asked of it fails
// with the reason, so a server or client not given a network of its own says why instead of crashing.
#include "netcube/transport/network.h"

namespace netcube::transport {
namespace {

class NoUdpNetwork final : public Network {
 private:
  std::unique_ptr<Endpoint> ListenEndpoint(const HostConfig&, std::string* error) override {
    return Refuse(error);
  }
  std::unique_ptr<Endpoint> OutgoingEndpoint(const HostConfig&, std::string* error) override {
    return Refuse(error);
  }
  static std::unique_ptr<Endpoint> Refuse(std::string* error) {
    if (error != nullptr) *error = "no UDP in this build (configured with NETCUBE_WITH_ENET=OFF)";
    return nullptr;
  }
};

}  // namespace

std::shared_ptr<Network> UdpNetwork() {
  static const std::shared_ptr<Network> udp = std::make_shared<NoUdpNetwork>();
  return udp;
}

}  // namespace netcube::transport
