// Discovery between two network namespaces joined by a veth pair, as two machines on one LAN segment: the
// browser broadcasts to 255.255.255.255 and the multicast group, and hears the server's address on the
// segment. The test creates the namespaces and removes them; it skips where the kernel or the user may not.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "netcube/discovery/browser.h"
#include "netcube/discovery/responder.h"
#include "support/command.h"

namespace netcube::discovery {
namespace {

using Clock = std::chrono::steady_clock;
using netcube::testing::RunCommand;

// Two namespaces "<prefix>a" (the server, 10.78.0.1/24) and "<prefix>b" (the player, 10.78.0.2/24), each
// with a default route through its end of the veth pair, as a LAN's DHCP would give.
class VethPair {
 public:
  VethPair()
      : a_("netcube-lan-" + std::to_string(getpid()) + "a"),
        b_("netcube-lan-" + std::to_string(getpid()) + "b") {
    const std::string va = "ncv" + std::to_string(getpid()) + "a";
    const std::string vb = "ncv" + std::to_string(getpid()) + "b";
    const std::string script = "set -e; ip netns add " + a_ + "; ip netns add " + b_ + "; ip link add " + va +
                               " netns " + a_ + " type veth peer name " + vb + " netns " + b_ + "; " +
                               Setup(a_, va, "10.78.0.1") + Setup(b_, vb, "10.78.0.2");
    const testing::CommandResult result = RunCommand(script);
    created_ = result.exit_code == 0;
    error_ = result.output;
  }
  ~VethPair() { RunCommand("ip netns del " + a_ + "; ip netns del " + b_); }  // takes the veth pair along
  VethPair(const VethPair&) = delete;
  VethPair& operator=(const VethPair&) = delete;

  bool created() const { return created_; }
  const std::string& error() const { return error_; }
  const std::string& a() const { return a_; }
  const std::string& b() const { return b_; }

 private:
  static std::string Setup(const std::string& ns, const std::string& dev, const std::string& address) {
    return "ip -n " + ns + " addr add " + address + "/24 dev " + dev + "; ip -n " + ns + " link set " + dev +
           " up; ip -n " + ns + " link set lo up; ip -n " + ns + " route add default dev " + dev + "; ";
  }
  std::string a_;
  std::string b_;
  bool created_ = false;
  std::string error_;
};

// Runs `make` on a thread that has entered namespace `ns`: the sockets it opens live there for good.
template <class T>
std::unique_ptr<T> OpenIn(const std::string& ns, const std::function<std::unique_ptr<T>()>& make,
                          std::string* error) {
  std::unique_ptr<T> made;
  std::thread([&] {
    const int fd = open(("/var/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) {
      *error = "cannot enter namespace " + ns;
    } else {
      made = make();
    }
    if (fd >= 0) close(fd);
  }).join();
  return made;
}

TEST(DiscoveryNetns, BrowserInOneNamespaceFindsTheServerInAnother) {
  VethPair lan;
  if (!lan.created()) {
    GTEST_SKIP()
        << "cannot create network namespaces and a veth pair here (needs root with CAP_NET_ADMIN and "
           "CAP_SYS_ADMIN, and the iproute2 `ip` command): "
        << lan.error();
  }
  std::string error;
  auto responder = OpenIn<Responder>(
      lan.a(), [&] { return Responder::Open(ResponderConfig{}, &error); }, &error);
  ASSERT_NE(responder, nullptr) << error;
  EXPECT_EQ(responder->multicast_error(), "");

  for (const std::string target : {"255.255.255.255", kMulticastGroup}) {
    SCOPED_TRACE(target);
    BrowserConfig config;
    config.targets = {target};
    auto browser = OpenIn<Browser>(
        lan.b(), [&] { return Browser::Open(config, &error); }, &error);
    ASSERT_NE(browser, nullptr) << error;
    protocol::DiscoveryReply info;
    info.name = "veth arena";
    const auto start = Clock::now();
    while (browser->servers().empty() && Clock::now() - start < std::chrono::seconds(10)) {
      const auto now = std::chrono::duration_cast<Micros>(Clock::now() - start);
      browser->Service(now);
      responder->Service(now, info);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_EQ(browser->servers().size(), 1U) << "queries sent " << browser->counters().queries_sent
                                             << ", send errors " << browser->counters().send_errors;
    EXPECT_EQ(browser->servers().front().address, "10.78.0.1");
    EXPECT_EQ(browser->servers().front().reply.name, "veth arena");
  }
}

}  // namespace
}  // namespace netcube::discovery
