#pragma once
// The decode scenario: what one snapshot costs a client to decode, and its bytes, in a crowded arena (128
// cubes steered by the random script, collisions on, an input a tick), for each code the server sends: the
// full snapshot and the delta (a replay), against baselines as old as a LAN's, a cross-continent link's and
// a second's. The client's own decoder (client::SnapshotDecoder) does the work,
// as it does in a client; the clock is read around each decode only.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace netcube::bench {

struct DecodeResult {
  std::string code;       // "full" or "delta"
  int age = 0;            // the newest baseline the client told of is this old (0: full)
  double mean_age = 0.0;  // of the baselines named: each kept until half as old again
  std::size_t cubes = 0;
  double bytes_per_cube = 0.0;  // the cubes' bits of the shared part, in bytes
  double decode_p50_us = 0.0;   // Decode of the packet, then the world rebuilt
  double decode_p99_us = 0.0;
  double deltas_pct =
      0.0;  // of the delta code's snapshots, those a replay could say (else full, as a server does)
};

std::vector<DecodeResult> RunDecode(int cubes, int ticks);
void PrintDecode(const std::vector<DecodeResult>& results);
nlohmann::json DecodeJson(const std::vector<DecodeResult>& results);

}  // namespace netcube::bench
