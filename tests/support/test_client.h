#pragma once
// A raw protocol client for tests, on top of transport::Host: it sends any message (or any bytes) and
// records everything it receives, decoded. It does no prediction or smoothing; that is the real client's.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "netcube/protocol/messages.h"
#include "netcube/transport/host.h"

namespace netcube::testing {

// What a TestClient has received so far.
struct Inbox {
  bool connected = false;
  bool disconnected = false;
  bool timed_out = false;                      // the disconnect was a timeout, not a goodbye
  std::uint32_t disconnect_data = 0;           // the goodbye's value (the server's DisconnectReason)
  std::size_t messages_before_disconnect = 0;  // how many messages had arrived when it came
  std::vector<protocol::MessageType> types;    // every decoded message's type, in arrival order
  std::size_t undecodable = 0;

  std::optional<protocol::Challenge> challenge;
  std::optional<protocol::Welcome> welcome;
  std::optional<protocol::ConnectRefused> refused;
  std::vector<protocol::JoinedPlayer> joined;  // every PlayerJoined's players, in arrival order
  std::vector<protocol::PlayerLeft> left;
  std::vector<protocol::TimeEcho> echoes;
  std::vector<protocol::TagResult> tag_results;
  std::optional<protocol::Snapshot> last_snapshot;  // the newest by server_tick
  std::size_t snapshots = 0;
  std::uint32_t newest_server_tick = 0;  // the newest any message named (a snapshot of any kind, say)
};

class TestClient {
 public:
  // A client host connecting to 127.0.0.1:port (the kConnected event follows from Poll). nullptr and
  // `error` set on failure.
  static std::unique_ptr<TestClient> Connect(std::uint16_t port, const transport::HostConfig& config,
                                             std::string* error);

  // Services the host and files what arrived.
  void Poll(Micros now);
  // Encodes and sends a message on its own channel.
  bool Send(Micros now, const protocol::Message& message);
  // Sends bytes as they are, on any channel: for garbage and hand-made packets.
  void SendRaw(Micros now, protocol::Channel channel, std::span<const std::uint8_t> bytes);
  bool SendConnectRequest(Micros now, const std::string& name,
                          std::uint16_t version = protocol::kProtocolVersion);
  // Whether a Challenge is answered at once with its nonce, as every client must (the default).
  void AnswerChallenges(bool answer) { answer_challenges_ = answer; }
  // A polite goodbye.
  void Disconnect(Micros now);
  // Forgets the server without a word, as a crashed or unplugged client would.
  void Vanish();

  const Inbox& inbox() const { return inbox_; }
  transport::Host& host() { return *host_; }
  transport::PeerId server_peer() const { return server_; }

 private:
  TestClient(std::unique_ptr<transport::Host> host, transport::PeerId server);
  void File(const protocol::Message& message, Micros now);

  std::unique_ptr<transport::Host> host_;
  transport::PeerId server_;
  bool vanished_ = false;
  bool answer_challenges_ = true;
  std::vector<transport::Event> events_;
  Inbox inbox_;
};

// The sending side of input redundancy, as the protocol asks of every client: new inputs get consecutive
// sequence numbers, and every packet carries all inputs the server has not acknowledged yet (at most
// protocol::kMaxInputsPerPacket, the newest).
class InputSender {
 public:
  explicit InputSender(sim::Seq first_seq = 1) : next_seq_(first_seq) {}

  // Adds an input with the next sequence number and returns it.
  sim::Input Add(std::uint8_t buttons);
  // Forgets inputs up to and including `ack`.
  void Acknowledge(sim::Seq ack);
  // The packet to send now.
  protocol::InputMessage Message() const;

  std::size_t unacknowledged() const { return pending_.size(); }

 private:
  sim::Seq next_seq_;
  std::vector<sim::Input> pending_;
};

}  // namespace netcube::testing
