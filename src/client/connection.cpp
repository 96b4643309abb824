#include "connection.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>

namespace netcube::client {
namespace {

constexpr Micros kGoodbyeGrace{1'000'000};
constexpr int kViewpointsPerSecond = 10;

}  // namespace

const char* ToString(ConnectionState state) noexcept {
  switch (state) {
    case ConnectionState::kDisconnected:
      return "disconnected";
    case ConnectionState::kConnecting:
      return "connecting";
    case ConnectionState::kConnected:
      return "connected";
    case ConnectionState::kRefused:
      return "refused";
    case ConnectionState::kLost:
      return "lost";
    case ConnectionState::kUnreachable:
      return "could not connect";
  }
  return "?";
}

bool Connection::Open(Micros now, const ClientConfig& config, const std::string& host, std::uint16_t port,
                      std::string* error) {
  if (state_ == ConnectionState::kConnecting || state_ == ConnectionState::kConnected) {
    *error = "already connecting or connected";
    return false;
  }
  if (port == 0) {
    *error = "port 0 is not a server's port";
    return false;
  }
  // Said here, not as a refusal from the server, and never cut to fit.
  if (const std::string problem = protocol::NameProblem(config.name); !problem.empty()) {
    *error = "bad name: " + problem;
    return false;
  }
  if (config.snapshot_budget != 0 && (config.snapshot_budget < protocol::kMinSnapshotBudget ||
                                      config.snapshot_budget > protocol::kMaxPacketBytes)) {
    *error = "snapshot budget must be in [" + std::to_string(protocol::kMinSnapshotBudget) + ", " +
             std::to_string(protocol::kMaxPacketBytes) + "] bytes";
    return false;
  }
  transport::HostConfig host_config;
  host_config.bind_address = config.source_address;
  host_config.max_peers = 1;
  host_config.link = config.link;
  host_config.seed = config.seed;
  host_config.incoming_log = config.incoming_link_log;
  host_config.outgoing_log = config.outgoing_link_log;
  host_config.timeout_ms = config.timeout_ms;
  transport::Network& network = config.network ? *config.network : *transport::UdpNetwork();
  std::unique_ptr<transport::Host> new_host = network.Outgoing(host_config, error);
  if (!new_host) return false;
  const std::optional<transport::PeerId> peer = new_host->Connect(host, port, error);
  if (!peer) return false;
  host_ = std::move(new_host);
  peer_ = *peer;
  state_ = ConnectionState::kConnecting;
  status_.clear();
  last_heard_ = now;
  sent_viewpoint_.reset();
  return true;
}

void Connection::Close(Micros now, const transport::LinkSettings& link) {
  if (!host_) return;
  host_->Disconnect(now, peer_, 0);
  const double link_ms = link.latency_ms + link.jitter_ms;
  closing_deadline_ = now + kGoodbyeGrace + Micros(static_cast<std::int64_t>(2000.0 * link_ms));
  closing_host_ = std::move(host_);
  state_ = ConnectionState::kDisconnected;
  status_.clear();
}

void Connection::ServiceClosing(Micros now) {
  if (!closing_host_) return;
  events_.clear();
  closing_host_->Service(now, events_);
  const bool gone = std::any_of(events_.begin(), events_.end(), [](const transport::Event& e) {
    return e.type == transport::EventType::kDisconnected;
  });
  if (gone || now >= closing_deadline_) closing_host_.reset();
}

std::span<const transport::Event> Connection::Service(Micros now) {
  events_.clear();
  if (host_) host_->Service(now, events_);
  return events_;
}

void Connection::OnLinkEvent(Micros now, const transport::Event& event, const ClientConfig& config) {
  if (event.type == transport::EventType::kConnected) {
    last_heard_ = now;
    Send(now, protocol::ConnectRequest{protocol::kProtocolMagic, protocol::kProtocolVersion, config.name,
                                       config.spectate});
    return;
  }
  // The server's goodbye says why when it had a reason (it kicked or dropped us).
  const auto reason = static_cast<protocol::DisconnectReason>(event.disconnect_data);
  const std::string closed =
      reason == protocol::DisconnectReason::kNone
          ? std::string("the server closed the connection")
          : std::string("the server closed the connection: ") + protocol::ToString(reason);
  if (state_ == ConnectionState::kConnecting) {
    End(ConnectionState::kUnreachable, event.timed_out ? "no answer from the server" : closed);
  } else if (state_ == ConnectionState::kConnected) {
    End(ConnectionState::kLost, event.timed_out ? "connection timed out" : closed);
  }
}

void Connection::OnChallenge(Micros now, const protocol::Challenge& challenge) {
  // Proves this address receives what the server sends it; the Welcome follows the echo.
  Send(now, protocol::ChallengeResponse{challenge.nonce});
  challenged_at_ = now;
}

void Connection::OnRefused(const protocol::ConnectRefused& refused) {
  End(ConnectionState::kRefused, protocol::ToString(refused.reason));
}

void Connection::OnWelcome(Micros now, const ClientConfig& config, const protocol::Welcome& welcome) {
  state_ = ConnectionState::kConnected;
  handshake_rtt_ms_ = static_cast<double>((now - challenged_at_).count()) / 1000.0;
  if (config.snapshot_budget > 0) {
    Send(now, protocol::SnapshotBudget{static_cast<std::uint16_t>(config.snapshot_budget)});
  }
  if (welcome.spectator && config.follow && !wanted_viewpoint_) {
    wanted_viewpoint_ = protocol::Viewpoint{true, *config.follow, 0, 0};
  }
  if (welcome.spectator) SendViewpoint(now);
}

void Connection::SendViewpoint(Micros now) {
  // A free camera moves every frame; the server needs where it is a few times a second, the last one kept.
  constexpr Micros kViewpointInterval = std::chrono::milliseconds(1000 / kViewpointsPerSecond);
  if (state_ != ConnectionState::kConnected || !wanted_viewpoint_ || wanted_viewpoint_ == sent_viewpoint_ ||
      (sent_viewpoint_ && now - viewpoint_sent_at_ < kViewpointInterval)) {
    return;
  }
  if (Send(now, *wanted_viewpoint_)) {
    sent_viewpoint_ = wanted_viewpoint_;
    viewpoint_sent_at_ = now;
  }
}

void Connection::CheckSilence(Micros now, std::uint32_t timeout_ms) {
  if (!host_ || now - last_heard_ <= std::chrono::milliseconds(timeout_ms)) return;
  const bool connecting = state_ == ConnectionState::kConnecting;
  End(connecting ? ConnectionState::kUnreachable : ConnectionState::kLost,
      connecting ? "no answer from the server" : "the server went silent");
}

void Connection::End(ConnectionState end, std::string why) {
  state_ = end;
  status_ = std::move(why);
  host_.reset();
}

}  // namespace netcube::client
