// The executables' side of discovery over loopback: netcube-server answers with what its flags say, and
// `netcube-bot --find` (and `netcube-client --find`) print what they hear and exit.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "netcube/discovery/browser.h"
#include "netcube/discovery/responder.h"
#include "support/command.h"

namespace netcube::discovery {
namespace {

using Clock = std::chrono::steady_clock;
using netcube::testing::RunCommand;

// A discovery port of this process's own, so parallel test runs do not hear each other; below Linux's
// ephemeral ports (32768 and up), so that no socket bound to port 0 (a soak beside it holds hundreds) can
// have taken it.
std::uint16_t TestPort(int offset) {
  return static_cast<std::uint16_t>(20000 + (getpid() * 3 + offset) % 12000);
}

TEST(DiscoveryExe, ServerAnswersWithItsNameAndSettings) {
  const std::uint16_t port = TestPort(0);
  const std::string name = "exe arena " + std::to_string(getpid());
  testing::CommandResult server;
  std::atomic<bool> server_exited{false};
  std::thread run([&] {
    server = RunCommand(std::string(NETCUBE_SERVER_EXE) +
                        " --bind 127.0.0.1 --port 0 --max-clients 8 --tick-rate 30 "
                        "--snapshot-rate 15 --duration 4 --discovery-port " +
                        std::to_string(port) + " --server-name '" + name + "'");
    server_exited = true;
  });
  BrowserConfig config;
  config.port = port;
  config.targets = {"127.0.0.1"};
  config.query_interval = Micros{200'000};
  std::string error;
  auto browser = Browser::Open(config, &error);
  ASSERT_NE(browser, nullptr) << error;
  // Asks for as long as the server runs (its 4 s start once it listens, however slowly it started).
  const auto start = Clock::now();
  while (browser->servers().empty() && !server_exited) {
    browser->Service(std::chrono::duration_cast<Micros>(Clock::now() - start));
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  run.join();
  EXPECT_EQ(server.exit_code, 0) << server.output;
  ASSERT_EQ(browser->servers().size(), 1U) << server.output;
  const FoundServer& found = browser->servers().front();
  EXPECT_EQ(found.reply.name, name);
  EXPECT_EQ(found.address, "127.0.0.1");
  EXPECT_NE(found.port, 0);
  EXPECT_EQ(found.reply.players, 0);
  EXPECT_EQ(found.reply.max_players, 8);
  EXPECT_EQ(found.reply.tick_rate, 30);
  EXPECT_EQ(found.reply.snapshot_rate, 15);
  EXPECT_NE(server.output.find("LAN discovery: \"" + name + "\" answers on UDP port " + std::to_string(port)),
            std::string::npos)
      << server.output;
}

TEST(DiscoveryExe, ServerDiscoveryOffAndBadNames) {
  const std::uint16_t port = TestPort(1);
  testing::CommandResult off = RunCommand(std::string(NETCUBE_SERVER_EXE) +
                                          " --port 0 --duration 0.2 --discovery off "
                                          "--discovery-port " +
                                          std::to_string(port));
  EXPECT_EQ(off.exit_code, 0) << off.output;
  EXPECT_EQ(off.output.find("LAN discovery"), std::string::npos) << off.output;
  for (const std::string& bad : std::vector<std::string>{
           "--server-name ''", "--server-name " + std::string(32, 'x'), "--discovery maybe"}) {
    const testing::CommandResult result =
        RunCommand(std::string(NETCUBE_SERVER_EXE) + " --duration 0.2 " + bad);
    EXPECT_NE(result.exit_code, 0) << bad;
    EXPECT_EQ(testing::ShortUsageErrorProblem(result.output, "netcube-server"), "") << bad;
    EXPECT_NE(result.output.find(bad.substr(0, bad.find(' '))), std::string::npos)
        << bad << ": names the flag";
  }
}

// A responder on its own thread, answering as a server would.
class ResponderThread {
 public:
  explicit ResponderThread(std::uint16_t port) {
    ResponderConfig config;
    config.port = port;
    config.multicast = false;
    responder_ = Responder::Open(config, &error_);
    if (responder_ == nullptr) return;
    thread_ = std::thread([this] {
      protocol::DiscoveryReply info;
      info.port = 7777;
      info.players = 1;
      info.arena = sim::Arena::OfUnits(1024, 576);
      info.name = "found by find";
      const auto start = Clock::now();
      while (!stop_) {
        responder_->Service(std::chrono::duration_cast<Micros>(Clock::now() - start), info);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  }
  ~ResponderThread() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  ResponderThread(const ResponderThread&) = delete;
  ResponderThread& operator=(const ResponderThread&) = delete;
  const std::string& error() const { return error_; }
  bool ok() const { return responder_ != nullptr; }

 private:
  std::string error_;
  std::unique_ptr<Responder> responder_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

void ExpectFindPrintsTheServer(const std::string& exe) {
  const std::uint16_t port = TestPort(2);
  const std::string find = exe +
                           " --find --find-seconds 1.5 --discovery-address 127.0.0.1 --discovery-port " +
                           std::to_string(port);
  {
    ResponderThread responder(port);
    ASSERT_TRUE(responder.ok()) << responder.error();
    const testing::CommandResult result = RunCommand(find);
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("found by find"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find(
                  "127.0.0.1:7777  players 1/32  arena 1024x576  tick 60 Hz  snapshots 20 Hz  protocol " +
                  std::to_string(protocol::kProtocolVersion) + "  rtt "),
              std::string::npos)
        << result.output;
  }
  const testing::CommandResult nothing = RunCommand(find);
  EXPECT_EQ(nothing.exit_code, 1) << nothing.output;
  EXPECT_NE(nothing.output.find("no netcube server answered on UDP port " + std::to_string(port)),
            std::string::npos)
      << nothing.output;
}

TEST(DiscoveryExe, BotFindPrintsWhatItHears) { ExpectFindPrintsTheServer(NETCUBE_BOT_EXE); }

// What the README shows --find printing is of this protocol, not of the one before it.
TEST(DiscoveryExe, TheReadmesFindLineNamesThisProtocol) {
  std::ifstream readme(NETCUBE_README);
  ASSERT_TRUE(readme) << NETCUBE_README;
  int lines = 0;
  for (std::string line; std::getline(readme, line);) {
    if (line.find("  players ") == std::string::npos || line.find("  rtt ") == std::string::npos) continue;
    ++lines;
    EXPECT_NE(line.find("  protocol " + std::to_string(protocol::kProtocolVersion) + "  rtt "),
              std::string::npos)
        << line;
  }
  EXPECT_GE(lines, 1);
}

#ifdef NETCUBE_CLIENT_EXE
TEST(DiscoveryExe, ClientFindPrintsWhatItHears) { ExpectFindPrintsTheServer(NETCUBE_CLIENT_EXE); }
#endif

TEST(DiscoveryExe, BotNeedsConnectOrFind) {
  const testing::CommandResult result = RunCommand(std::string(NETCUBE_BOT_EXE) + " --count 1");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("--connect"), std::string::npos) << result.output;
  const testing::CommandResult both =
      RunCommand(std::string(NETCUBE_BOT_EXE) + " --find --connect 127.0.0.1:7777");
  EXPECT_NE(both.exit_code, 0) << both.output;
}

}  // namespace
}  // namespace netcube::discovery
