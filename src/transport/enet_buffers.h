#pragma once
// ENet's share of the process and the buffers it sends from: for enet_endpoint.cpp.
#include <enet/enet.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>

#include "netcube/transport/recycled_buffers.h"

namespace netcube::transport {

// Buffers ENet sends from directly (ENET_PACKET_FLAG_NO_ALLOCATE) instead of copying each payload into a
// block of its own: ENet hands a buffer back through the packet's free callback once it is done with it
// (sent, acknowledged when reliable, or its peer reset), and it waits in its size class for the next packet.
class SendBuffers {
 public:
  // A packet of a copy of `payload` for enet_peer_send, or nullptr.
  ENetPacket* MakePacket(std::span<const std::uint8_t> payload, enet_uint32 flags) {
    const std::optional<std::size_t> size_class = Idle::ClassFor(payload.size());
    if (!size_class) return nullptr;  // ENet would refuse it too
    std::unique_ptr<Buffer> buffer = idle_.Take(*size_class).value_or(nullptr);
    if (!buffer) {
      // Uninitialised bytes, as make_unique_for_overwrite would give (which libc++ 13 lacks).
      buffer = std::make_unique<Buffer>(
          Buffer{this, *size_class,
                 std::unique_ptr<std::uint8_t[]>(new std::uint8_t[Idle::ClassBytes(*size_class)])});
    }
    if (!payload.empty()) std::memcpy(buffer->bytes.get(), payload.data(), payload.size());
    ENetPacket* packet =
        enet_packet_create(buffer->bytes.get(), payload.size(), flags | ENET_PACKET_FLAG_NO_ALLOCATE);
    if (packet == nullptr) {
      idle_.Give(*size_class, std::move(buffer));
      return nullptr;
    }
    packet->userData = buffer.release();
    packet->freeCallback = &SendBuffers::Release;
    return packet;
  }

 private:
  struct Buffer {
    SendBuffers* owner = nullptr;
    std::size_t size_class = 0;
    std::unique_ptr<std::uint8_t[]> bytes;
  };
  using Idle = RecycledBuffers<std::unique_ptr<Buffer>>;

  static void Release(ENetPacket* packet) {
    std::unique_ptr<Buffer> buffer(static_cast<Buffer*>(packet->userData));
    SendBuffers& owner = *buffer->owner;
    const std::size_t size_class = buffer->size_class;
    owner.idle_.Give(size_class, std::move(buffer));
  }

  Idle idle_;
};

// enet_initialize/enet_deinitialize, counted across every Host of the process.
class EnetLibraryUse {
 public:
  EnetLibraryUse() {
    const std::scoped_lock lock(mutex_);
    if (users_ == 0 && enet_initialize() != 0) return;
    ++users_;
    ready_ = true;
  }
  ~EnetLibraryUse() {
    if (!ready_) return;
    const std::scoped_lock lock(mutex_);
    if (--users_ == 0) enet_deinitialize();
  }
  EnetLibraryUse(const EnetLibraryUse&) = delete;
  EnetLibraryUse& operator=(const EnetLibraryUse&) = delete;
  bool ready() const { return ready_; }

 private:
  static inline std::mutex mutex_;
  static inline int users_ = 0;
  bool ready_ = false;
};

}  // namespace netcube::transport
