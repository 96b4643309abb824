#include "netcube/transport/link_profile.h"

#include <gtest/gtest.h>

namespace netcube::transport {
namespace {

TEST(LinkProfiles, ShippedFileHasTheFourProfilesWithTheirSettings) {
  std::string error;
  const auto profiles = LoadLinkProfiles(AssetsDir() + "/link_profiles.json", &error);
  ASSERT_EQ(profiles.size(), 4u) << error;

  const auto cross = FindLinkProfile(profiles, "cross-continent");
  ASSERT_TRUE(cross.has_value());
  EXPECT_DOUBLE_EQ(cross->settings.latency_ms * 2, 250.0);  // one way each direction: 250 ms round trip
  EXPECT_DOUBLE_EQ(cross->settings.jitter_ms, 20.0);

  const auto lossy = FindLinkProfile(profiles, "lossy");
  ASSERT_TRUE(lossy.has_value());
  EXPECT_DOUBLE_EQ(lossy->settings.loss, 0.05);
  EXPECT_DOUBLE_EQ(lossy->settings.duplicate, 0.05);

  EXPECT_EQ(FindLinkProfile(profiles, "lan")->settings, LinkSettings{});
  EXPECT_TRUE(FindLinkProfile(profiles, "harsh").has_value());
  EXPECT_FALSE(FindLinkProfile(profiles, "moon").has_value());
}

TEST(LinkProfiles, BadFilesAreRefusedWithAReason) {
  std::string error;
  EXPECT_TRUE(ParseLinkProfiles("{", &error).empty());
  EXPECT_NE(error.find("invalid"), std::string::npos);

  error.clear();
  EXPECT_TRUE(ParseLinkProfiles(R"({"profiles":[{"name":"x","loss":1.5}]})", &error).empty());
  EXPECT_NE(error.find("loss"), std::string::npos);

  error.clear();
  EXPECT_TRUE(ParseLinkProfiles(R"({"profiles":[]})", &error).empty());
  EXPECT_FALSE(error.empty());

  error.clear();
  EXPECT_TRUE(LoadLinkProfiles("/nonexistent/profiles.json", &error).empty());
  EXPECT_NE(error.find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace netcube::transport
