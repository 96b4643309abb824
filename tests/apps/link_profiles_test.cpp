// The executables' data files: the shipped link profiles, read from the assets directory.
#include "link_profiles.h"

#include <gtest/gtest.h>

namespace netcube::apps {
namespace {

TEST(LinkProfiles, ShippedFileHasTheFourProfilesWithTheirSettings) {
  std::string error;
  const auto profiles = LoadLinkProfiles(LinkProfilesPath(), &error);
  ASSERT_EQ(profiles.size(), 4u) << error;

  const auto cross = transport::FindLinkProfile(profiles, "cross-continent");
  ASSERT_TRUE(cross.has_value());
  EXPECT_DOUBLE_EQ(cross->settings.latency_ms * 2, 250.0);  // one way each direction: 250 ms round trip
  EXPECT_DOUBLE_EQ(cross->settings.jitter_ms, 20.0);

  const auto lossy = transport::FindLinkProfile(profiles, "lossy");
  ASSERT_TRUE(lossy.has_value());
  EXPECT_DOUBLE_EQ(lossy->settings.loss, 0.05);
  EXPECT_DOUBLE_EQ(lossy->settings.duplicate, 0.05);

  EXPECT_EQ(transport::FindLinkProfile(profiles, "lan")->settings, transport::LinkSettings{});
  EXPECT_TRUE(transport::FindLinkProfile(profiles, "harsh").has_value());
  EXPECT_FALSE(transport::FindLinkProfile(profiles, "moon").has_value());
}

TEST(LinkProfiles, AMissingFileIsAnErrorNamingItAndWhy) {
  std::string error;
  EXPECT_TRUE(LoadLinkProfiles("/nonexistent/profiles.json", &error).empty());
  EXPECT_NE(error.find("cannot open /nonexistent/profiles.json: No such file or directory"),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace netcube::apps
