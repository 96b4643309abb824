#include "support/test_client.h"

#include <algorithm>
#include <array>

namespace netcube::testing {

std::unique_ptr<TestClient> TestClient::Connect(std::uint16_t port, const transport::HostConfig& config,
                                                std::string* error) {
  auto host = transport::Host::Outgoing(config, error);
  if (host == nullptr) return nullptr;
  const std::optional<transport::PeerId> server = host->Connect("127.0.0.1", port, error);
  if (!server) return nullptr;
  return std::unique_ptr<TestClient>(new TestClient(std::move(host), *server));
}

TestClient::TestClient(std::unique_ptr<transport::Host> host, transport::PeerId server)
    : host_(std::move(host)), server_(server) {}

void TestClient::Poll(Micros now) {
  if (vanished_) return;
  events_.clear();
  host_->Service(now, events_);
  for (const transport::Event& event : events_) {
    switch (event.type) {
      case transport::EventType::kConnected:
        inbox_.connected = true;
        break;
      case transport::EventType::kDisconnected:
        inbox_.disconnected = true;
        inbox_.timed_out = event.timed_out;
        inbox_.disconnect_data = event.disconnect_data;
        inbox_.messages_before_disconnect = inbox_.types.size();
        break;
      case transport::EventType::kReceived: {
        protocol::Message message;
        if (protocol::Decode(event.data, message) == protocol::DecodeError::kNone) {
          File(message, now);
        } else {
          ++inbox_.undecodable;
        }
        break;
      }
    }
  }
}

void TestClient::File(const protocol::Message& message, Micros now) {
  inbox_.types.push_back(protocol::TypeOf(message));
  if (const auto* challenge = std::get_if<protocol::Challenge>(&message)) {
    inbox_.challenge = *challenge;
    if (answer_challenges_) Send(now, protocol::ChallengeResponse{challenge->nonce});
  }
  if (const auto* welcome = std::get_if<protocol::Welcome>(&message)) inbox_.welcome = *welcome;
  if (const auto* refused = std::get_if<protocol::ConnectRefused>(&message)) inbox_.refused = *refused;
  if (const auto* joined = std::get_if<protocol::PlayerJoined>(&message)) {
    inbox_.joined.insert(inbox_.joined.end(), joined->players.begin(), joined->players.end());
  }
  if (const auto* left = std::get_if<protocol::PlayerLeft>(&message)) inbox_.left.push_back(*left);
  if (const auto* echo = std::get_if<protocol::TimeEcho>(&message)) inbox_.echoes.push_back(*echo);
  if (const auto* result = std::get_if<protocol::TagResult>(&message)) inbox_.tag_results.push_back(*result);
  std::visit(
      [this](const auto& m) {
        if constexpr (requires { m.server_tick; })
          inbox_.newest_server_tick = std::max(inbox_.newest_server_tick, m.server_tick);
      },
      message);
  if (const auto* snapshot = std::get_if<protocol::Snapshot>(&message)) {
    ++inbox_.snapshots;
    // Unreliable and possibly reordered: keep the newest.
    if (!inbox_.last_snapshot || snapshot->server_tick > inbox_.last_snapshot->server_tick) {
      inbox_.last_snapshot = *snapshot;
    }
  }
}

bool TestClient::Send(Micros now, const protocol::Message& message) {
  std::array<std::uint8_t, protocol::kMaxPacketBytes> buffer{};
  const std::size_t size = protocol::Encode(message, buffer);
  if (vanished_ || size == 0) return false;
  host_->Send(now, server_, protocol::ChannelOf(protocol::TypeOf(message)), std::span(buffer.data(), size));
  return true;
}

void TestClient::SendRaw(Micros now, protocol::Channel channel, std::span<const std::uint8_t> bytes) {
  if (!vanished_) host_->Send(now, server_, channel, bytes);
}

bool TestClient::SendConnectRequest(Micros now, const std::string& name, std::uint16_t version) {
  protocol::ConnectRequest request;
  request.version = version;
  request.name = name;
  return Send(now, request);
}

void TestClient::Disconnect(Micros now) {
  if (!vanished_) host_->Disconnect(now, server_, 0);
}

void TestClient::Vanish() {
  // Destroying the host sends nothing: the server only learns of it by the silence.
  host_->Drop(server_);
  host_.reset();
  vanished_ = true;
}

sim::Input InputSender::Add(std::uint8_t buttons) {
  const sim::Input input{next_seq_++, buttons};
  pending_.push_back(input);
  return input;
}

void InputSender::Acknowledge(sim::Seq ack) {
  std::erase_if(pending_, [ack](const sim::Input& input) { return !sim::SeqGreater(input.seq, ack); });
}

protocol::InputMessage InputSender::Message() const {
  protocol::InputMessage message;
  const std::size_t count = std::min(pending_.size(), protocol::kMaxInputsPerPacket);
  for (std::size_t i = pending_.size() - count; i < pending_.size(); ++i)
    message.inputs.push_back(pending_[i]);
  return message;
}

}  // namespace netcube::testing
