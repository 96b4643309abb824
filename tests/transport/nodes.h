#pragma once
// A Host under test and every event it gave, payloads copied, and payloads to send: for the transport's
// tests.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "netcube/transport/host.h"

namespace netcube::transport {

// An event with its own copy of the payload, which a Host keeps only until its next Service.
struct KeptEvent {
  EventType type = EventType::kReceived;
  PeerId peer = 0;
  protocol::Channel channel = protocol::Channel::kReliable;
  std::vector<std::uint8_t> data;
  std::uint32_t disconnect_data = 0;
  bool timed_out = false;
};

struct Node {
  std::unique_ptr<Host> host;
  std::vector<KeptEvent> events;  // every event so far, until a test clears them
  std::vector<Event> serviced;

  void Service(Micros now) {
    serviced.clear();
    host->Service(now, serviced);
    for (const Event& e : serviced) {
      events.push_back(
          {e.type, e.peer, e.channel, {e.data.begin(), e.data.end()}, e.disconnect_data, e.timed_out});
    }
  }
  const KeptEvent* Find(EventType type, PeerId peer) const {
    const auto it = std::find_if(events.begin(), events.end(),
                                 [&](const KeptEvent& e) { return e.type == type && e.peer == peer; });
    return it == events.end() ? nullptr : &*it;
  }
  const KeptEvent* FindFirst(EventType type) const {
    const auto it =
        std::find_if(events.begin(), events.end(), [&](const KeptEvent& e) { return e.type == type; });
    return it == events.end() ? nullptr : &*it;
  }
};

// `size` bytes, each different from its neighbours, starting at `seed`.
inline std::vector<std::uint8_t> Bytes(std::size_t size, std::uint8_t seed) {
  std::vector<std::uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::uint8_t>(seed + i * 7);
  return bytes;
}

}  // namespace netcube::transport
