#include "netcube/transport/link_profile.h"

#include <gtest/gtest.h>

namespace netcube::transport {
namespace {

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
}

TEST(LinkProfiles, ParsesEachProfileWithUnsetFieldsAtZero) {
  std::string error;
  const auto profiles = ParseLinkProfiles(
      R"({"profiles":[{"name":"a","description":"d","latency_ms":20,"loss":0.1},{"name":"b"}]})", &error);
  ASSERT_EQ(profiles.size(), 2u) << error;
  const auto a = FindLinkProfile(profiles, "a");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->description, "d");
  EXPECT_DOUBLE_EQ(a->settings.latency_ms, 20.0);
  EXPECT_DOUBLE_EQ(a->settings.loss, 0.1);
  EXPECT_EQ(FindLinkProfile(profiles, "b")->settings, LinkSettings{});
  EXPECT_FALSE(FindLinkProfile(profiles, "c").has_value());
}

}  // namespace
}  // namespace netcube::transport
