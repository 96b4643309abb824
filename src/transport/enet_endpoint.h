#pragma once
// The Endpoint over one ENet host and real UDP: what netcube-server and netcube-client --connect use.
// enet_endpoint.cpp carries the traffic; enet_admission.cpp holds the defences of a listening host against
// strangers (the datagram filter, handshake timeouts, making room, unproven goodbyes said once).
// Payloads travel in recycled buffers that ENet sends from directly, and a received payload is read where
// ENet put it.
#include <enet/enet.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "connect_meter.h"
#include "datagram_filter.h"
#include "enet_buffers.h"
#include "netcube/transport/endpoint.h"
#include "room_plan.h"

namespace netcube::transport {

// A disconnect's value on the wire is data + 1, so 0 is left to mean "no goodbye" (ENet's timeouts
// report 0).
inline enet_uint32 WireDisconnectValue(std::uint32_t data) {
  return data == std::numeric_limits<std::uint32_t>::max() ? data : data + 1;
}

// The PeerId rides in ENet's user pointer; 0 (null) marks a peer slot this endpoint no longer tracks.
inline void* ToUserData(PeerId id) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(id)); }
inline PeerId FromUserData(const ENetPeer* peer) {
  return static_cast<PeerId>(reinterpret_cast<std::uintptr_t>(peer->data));
}

class EnetEndpoint final : public Endpoint {
 public:
  // A server's host bound to bind_address:port, or a client's with room for one outgoing connection.
  static std::unique_ptr<EnetEndpoint> Listen(const HostConfig& config, std::string* error);
  static std::unique_ptr<EnetEndpoint> Outgoing(const HostConfig& config, std::string* error);
  explicit EnetEndpoint(const HostConfig& config) : config_(config) {}
  ~EnetEndpoint() override;

  std::optional<PeerId> Connect(const std::string& host, std::uint16_t port, std::string* error) override;
  void Send(PeerId peer, protocol::Channel channel, std::span<const std::uint8_t> payload) override;
  void Disconnect(Micros now, PeerId peer, std::uint32_t data) override;
  void DisconnectUnproven(Micros now, PeerId peer, std::uint32_t data) override;
  void MarkProven(PeerId peer) override;
  void Drop(PeerId peer) override;
  void Service(Micros now, std::vector<Event>& events) override;
  void Flush() override;
  std::uint16_t port() const override;
  TransportCounters counters() const override;
  std::optional<std::uint32_t> RttMs(PeerId peer) const override;

 private:
  struct PeerRecord {
    ENetPeer* enet = nullptr;  // null once ENet has finished with the connection
    bool closing = false;      // our own Disconnect reached ENet: its end is not a timeout
    bool proven = false;       // MarkProven: never reset to make room
    // DisconnectUnproven reached ENet: the goodbye's wire value, sent once what was queued is acknowledged.
    std::optional<enet_uint32> goodbye_once;
  };
  // When this endpoint first saw a connection in an ENet peer slot (its connect id tells a new one).
  struct SlotOccupant {
    enet_uint32 connect_id = 0;
    Micros since{0};
  };

  static std::unique_ptr<EnetEndpoint> Create(const HostConfig& config, const ENetAddress& address,
                                              std::size_t peer_count, std::size_t max_parked_commands,
                                              std::string* error);
  PeerRecord* FindConnection(PeerId id);
  // ENet is done with the peer's slot (it may reuse it for a new connection); the application hears of it
  // at the end of this Service or the next.
  void Release(PeerId id, std::uint32_t disconnect_data, bool timed_out);
  void ReleaseReceived();
  void BeginDisconnect(PeerId id, PeerRecord& record, std::uint32_t data);
  void PumpEnet(Micros now, std::vector<Event>& events);
  void OnEnetEvent(const ENetEvent& event, std::vector<Event>& events);
  void CollectWireTotals();

  // enet_admission.cpp
  void BeginUnprovenDisconnect(PeerId id, PeerRecord& record, std::uint32_t data);
  void SayGoodbyesOnce();
  bool Unproven(const ENetPeer& peer) const;
  bool MakeRoomFor(const ENetAddress& from, enet_uint32 connect_id);
  void MakeRoomPlan();
  void Evict(ENetPeer& peer);
  void WatchSlots(Micros now);
  static int Intercept(ENetHost* enet, ENetEvent* event);  // 1 consumes (drops) the datagram

  EnetLibraryUse library_;  // first member: initialised before, released after, everything ENet
  HostConfig config_;
  SendBuffers send_buffers_;  // outlives the ENet host, which hands them back as it is destroyed
  ENetHost* host_ = nullptr;
  std::unordered_map<PeerId, PeerRecord> peers_;
  PeerId next_peer_id_ = 1;
  TransportCounters totals_;  // payload and accumulated wire counters
  // Packets ENet received whose bytes the application reads in place until the next Service.
  std::vector<ENetPacket*> received_;
  // Disconnections this endpoint decided (not reported by ENet): told at the end of a Service.
  std::vector<Event> released_;
  // Per ENet peer slot: the connection this endpoint last saw there, and since when.
  std::vector<std::optional<SlotOccupant>> slots_;
  // Peers disconnected by DisconnectUnproven whose goodbye waits for the acknowledgement of what was queued.
  std::vector<PeerId> goodbyes_once_;
  RoomPlan room_plan_;
  ConnectMeter connect_meter_;
  Micros servicing_now_{0};          // the time of the Service under way, for the intercept
  std::uint64_t service_count_ = 0;  // Services begun: the room plan's age
  int datagrams_read_ = 0;           // by the enet_host_service call under way, as the intercept saw them
  FilterLimits filter_;

  // The endpoint whose ENet host this thread is servicing: ENet's intercept callback has no user pointer.
  // Defined here, inline: both enet_endpoint.cpp (the pump) and enet_admission.cpp (the intercept) use it,
  // and GCC's UBSan takes a thread_local defined in another file for a null pointer.
  static inline thread_local EnetEndpoint* servicing_ = nullptr;
};

}  // namespace netcube::transport
