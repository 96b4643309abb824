#pragma once
// The rules a ServerConfig (and a live setting) must keep.
#include <string>

#include "netcube/server/server.h"

namespace netcube::server {

// A tick or snapshot rate the wire can carry: [1, protocol::kMaxRate].
constexpr bool ValidRate(int rate) noexcept { return rate >= 1 && rate <= protocol::kMaxRate; }

// What is wrong with `config`, empty when nothing.
std::string CheckConfig(const ServerConfig& config);

}  // namespace netcube::server
