#pragma once
// A network inside the process: a hub where hosts find each other by name and port, with no socket and no
// clock of its own, so a server and its clients run the same on every run and machine (the lab, a
// comparison, a replay, the bench's virtual-clock scenarios, deterministic tests).
//
// Like ENet, what a host sends leaves at its next Service (or Flush), reaches the other host's next
// Service, and the reliable channel is in order and never lost; unreliable packets are never reordered
// here either (only a conditioner impairs the link). A connection takes ENet's three steps (request,
// accept, acknowledgement): the client hears kConnected when the accept arrives, the server when the
// acknowledgement does. A goodbye follows what was sent before it and is acknowledged. A peer that goes
// silent (Drop, a destroyed host, an unreachable address or a full server) is timed out timeout_ms after
// it is noticed. Addresses are names within the hub ("0.0.0.0" as a listener's address takes every name);
// port 0 takes the next free port from 49152. There are no strangers in a hub, so ENet's defences have
// nothing to do: MarkProven changes nothing and DisconnectUnproven is Disconnect.
// Every host of one hub is serviced from one thread.
#include <memory>
#include <string>

#include "netcube/transport/network.h"

namespace netcube::transport {

class MemoryNetwork final : public Network {
 public:
  MemoryNetwork();
  ~MemoryNetwork() override;
  struct Hub;  // memory_network.cpp; every host holds it too, so it outlives the network object

 private:
  std::unique_ptr<Endpoint> ListenEndpoint(const HostConfig& config, std::string* error) override;
  std::unique_ptr<Endpoint> OutgoingEndpoint(const HostConfig& config, std::string* error) override;

  std::shared_ptr<Hub> hub_;
};

}  // namespace netcube::transport
