// The flags netcube-bot and netcube-client share: --profile names a network of link_profiles.json, single
// settings override it, and an unknown name is refused with the known ones.
#include "client_flags.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <string>
#include <vector>

namespace netcube::apps {
namespace {

transport::LinkSettings Parse(std::vector<std::string> args, transport::LinkSettings defaults = {}) {
  CLI::App app;
  ClientFlags flags;
  flags.Register(app, "", "");
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  app.parse(args);
  return flags.ApplyLink(defaults);
}

TEST(ClientFlags, AProfileSetsTheLinkAndSingleSettingsOverrideIt) {
  const transport::LinkSettings defaults{.latency_ms = 125};
  EXPECT_EQ(Parse({}, defaults), defaults);
  const transport::LinkSettings lossy = Parse({"--profile", "lossy"}, defaults);
  EXPECT_EQ(lossy.latency_ms, 75.0);
  EXPECT_EQ(lossy.loss, 0.05);
  EXPECT_EQ(lossy.duplicate, 0.05);
  const transport::LinkSettings cross = Parse({"--jitter-ms", "5", "--profile", "cross-continent"});
  EXPECT_EQ(cross.latency_ms, 125.0);
  EXPECT_EQ(cross.jitter_ms, 5.0) << "a single setting wins whatever the order";
  EXPECT_EQ(Parse({"--profile", "lan"}, defaults), transport::LinkSettings{}) << "lan replaces the defaults";
}

TEST(ClientFlags, AnUnknownProfileIsAUsageErrorNamingTheKnownOnes) {
  try {
    Parse({"--profile", "moon"});
    FAIL() << "--profile moon was accepted";
  } catch (const CLI::ValidationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'moon'"), std::string::npos) << what;
    EXPECT_NE(what.find("cross-continent"), std::string::npos) << what;
  }
}

TEST(ClientFlags, ConnectNamesWhatIsWrongWithHostPort) {
  std::string host;
  std::uint16_t port = 0;
  std::string error;
  ASSERT_TRUE(SplitHostPort("example.org:7777", host, port, &error)) << error;
  EXPECT_EQ(host, "example.org");
  EXPECT_EQ(port, 7777);
  EXPECT_FALSE(SplitHostPort(":7777", host, port, &error));
  EXPECT_NE(error.find("the host is empty"), std::string::npos) << error;
  EXPECT_EQ(error.find("port in"), std::string::npos) << "the port is fine: " << error;
  for (const char* bad : {"host", "host:", "host:0", "host:65536", "host:77x"}) {
    EXPECT_FALSE(SplitHostPort(bad, host, port, &error)) << bad;
    EXPECT_NE(error.find("port in [1, 65535]"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace netcube::apps
