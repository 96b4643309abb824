#pragma once
// Where the executables find their data files, and the link profiles read from there
// (transport::ParseLinkProfiles does the parsing).
#include <string>
#include <vector>

#include "netcube/transport/link_profile.h"

namespace netcube::apps {

// Where the data files are: NETCUBE_ASSETS_DIR from the environment if set; else share/netcube/ beside the
// executable's bin/ (an installed tree wherever it was moved, or the build tree, which holds a copy) if it
// is there; else the install prefix's share/netcube/.
std::string AssetsDir();
// AssetsDir()'s link_profiles.json.
std::string LinkProfilesPath();

// Reads and parses a profile file. Empty result and `error` set (naming the file) when it cannot be read
// or is not valid.
std::vector<transport::LinkProfile> LoadLinkProfiles(const std::string& path, std::string* error);

}  // namespace netcube::apps
