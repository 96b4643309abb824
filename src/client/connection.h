#pragma once
// The client's room for its connection: the host it talks through, the handshake (ConnectRequest, the
// Challenge echoed, then a Welcome or a refusal), the session's end and why, the server's silence, every
// message sent, and the polite goodbye a closed host finishes in the background.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "netcube/client/client_config.h"
#include "netcube/protocol/messages.h"
#include "netcube/transport/host.h"

namespace netcube::client {

class Connection {
 public:
  // Opens a host as `config` says and starts connecting to host:port; false, saying why in `error`, when
  // the connection cannot start (already under way, port 0, a bad name, no host).
  bool Open(Micros now, const ClientConfig& config, const std::string& host, std::uint16_t port,
            std::string* error);
  // Says goodbye; the closed host finishes it in the background for a grace period longer than the link.
  void Close(Micros now, const transport::LinkSettings& link);
  // Services the closed host until its goodbye is done or its grace period is over.
  void ServiceClosing(Micros now);
  // Services the open host: what it received and its connection's events, valid until the next call.
  std::span<const transport::Event> Service(Micros now);

  template <protocol::OneMessage M>
  bool Send(Micros now, const M& message) {
    const std::size_t size = protocol::Encode(message, send_buffer_);
    if (size == 0 || !host_) return false;
    host_->Send(now, peer_, protocol::ChannelOf(protocol::kTypeOf<M>), std::span(send_buffer_.data(), size));
    return true;
  }

  // The handshake, as its steps arrive: the connection made (the ConnectRequest goes) or ended.
  void OnLinkEvent(Micros now, const transport::Event& event, const ClientConfig& config);
  void OnChallenge(Micros now, const protocol::Challenge& challenge);
  void OnRefused(const protocol::ConnectRefused& refused);
  // Asks for the snapshot budget the config names, if any, and a spectator's camera follows whom it names.
  void OnWelcome(Micros now, const ClientConfig& config, const protocol::Welcome& welcome);
  // A spectator's camera (protocol::Viewpoint): the newest wanted goes out from SendViewpoint.
  void Watch(const protocol::Viewpoint& viewpoint) noexcept { wanted_viewpoint_ = viewpoint; }
  // Sends the camera wanted when it is not the one last sent, at most 10 a second.
  void SendViewpoint(Micros now);
  // A valid message arrived; a server silent for longer than `timeout_ms` ends the session.
  void Heard(Micros now) noexcept { last_heard_ = now; }
  void CheckSilence(Micros now, std::uint32_t timeout_ms);

  bool open() const noexcept { return host_ != nullptr; }
  transport::Host* host() const noexcept { return host_.get(); }
  ConnectionState state() const noexcept { return state_; }
  const std::string& status() const noexcept { return status_; }
  // Challenge to Welcome: the first round trip known.
  double handshake_rtt_ms() const noexcept { return handshake_rtt_ms_; }

 private:
  void End(ConnectionState end, std::string why);

  ConnectionState state_ = ConnectionState::kDisconnected;
  std::string status_;
  std::unique_ptr<transport::Host> host_;
  transport::PeerId peer_ = 0;
  std::unique_ptr<transport::Host> closing_host_;  // finishing a polite disconnect
  Micros closing_deadline_{0};
  Micros last_heard_{0};
  Micros challenged_at_{0};
  double handshake_rtt_ms_ = 0.0;
  std::optional<protocol::Viewpoint> wanted_viewpoint_, sent_viewpoint_;
  Micros viewpoint_sent_at_{0};
  std::vector<transport::Event> events_;  // reused by every Service
  std::array<std::uint8_t, protocol::kMaxPacketBytes> send_buffer_{};
};

}  // namespace netcube::client
