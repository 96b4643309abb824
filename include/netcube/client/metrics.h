#pragma once
// Everything the client measures, in one struct read by the GUI, the bot and the benchmarks. Each part is
// measured by one room of the client: the link's statistics, the own cube, the remote cubes.
#include <cstddef>
#include <cstdint>

#include "netcube/sim/sequence.h"

namespace netcube::client {

struct LinkMetrics {
  // Round trip at the application level, from TimeEcho requests sent every ~100 ms. It includes the link
  // conditioner's added latency in both directions (what the player feels), unlike ENet's own RTT.
  double rtt_ms = 0.0;         // smoothed (EWMA, 1/8 per sample)
  double rtt_jitter_ms = 0.0;  // mean deviation from the smoothed RTT (EWMA, 1/4 per sample)
  double rtt_ms_mean = 0.0;    // plain mean over the whole connection
  std::uint64_t rtt_samples = 0;

  // Snapshots. Loss is measured on server ticks: over the last 200 snapshot intervals of server time (but
  // the newest 10, where a late snapshot may still come), the snapshots the server sent (tick span x
  // snapshot_rate / tick_rate) against the distinct ones that arrived, late or not: only snapshots that
  // never came count as lost. Unusable adds those that came as deltas against a baseline no longer held:
  // what the interpolation buffer has to ride out, and what the adaptive delay covers.
  double snapshot_loss = 0.0;      // [0, 1]; 0 until 20 intervals have been seen
  double snapshot_unusable = 0.0;  // [0, 1], at least snapshot_loss
  double snapshots_per_second = 0.0;
  int snapshot_rate = 0;                 // the rate the server sends at (its Welcome's, or the one asked for)
  bool snapshot_rate_asked = false;      // this client asked for it (SnapshotRate)
  std::uint64_t snapshots_received = 0;  // distinct, accepted: the newest so far, or late but still new
  std::uint64_t snapshots_late = 0;      // of those, the ones that arrived after a newer one
  std::uint64_t snapshots_stale = 0;     // duplicates, and arrivals too old to tell apart, dropped
  std::uint64_t snapshots_early = 0;     // arrived before the Welcome (it overtook it), dropped
  // By encoding, of the snapshots received: full, delta, interest; and the distinct deltas (and
  // InterestSnapshots predicting a state) dropped because their baseline was no longer (or never) held by
  // this client (the next one, against a newer acknowledged baseline, recovers).
  std::uint64_t snapshots_full = 0;
  std::uint64_t snapshots_delta = 0;
  std::uint64_t snapshots_interest = 0;  // InterestSnapshots: the cubes of this client's relevant set
  std::uint64_t snapshots_no_baseline = 0;

  // Traffic over the last complete second, and totals: payload = protocol bytes; wire = ENet's UDP
  // payload including its headers, acks and pings. In memory there is no wire: the wire figures are the
  // hub's datagrams, the payload and the connection's few control messages, and say nothing of a real link.
  bool in_memory = false;
  double bytes_up_per_s = 0.0;
  double bytes_down_per_s = 0.0;
  double wire_bytes_up_per_s = 0.0;
  double wire_bytes_down_per_s = 0.0;
  std::uint64_t bytes_up = 0;
  std::uint64_t bytes_down = 0;
  std::uint64_t wire_bytes_up = 0;
  std::uint64_t wire_bytes_down = 0;
};

struct OwnCubeMetrics {
  // Inputs.
  std::size_t pending_inputs = 0;
  bool has_ack = false;  // the server has applied at least one input
  sim::Seq last_acked_input = 0;
  std::uint64_t inputs_sent = 0;          // distinct inputs sampled and sent (each at least once)
  std::uint64_t inputs_acked = 0;         // distinct inputs the server acknowledged (from its acks)
  std::uint64_t input_messages_sent = 0;  // InputMessages, each carrying up to `redundancy` inputs
  // Input pacing: the server's input lead (inputs waiting minus its target), smoothed, and the sampling
  // clock's rate that follows it (1: unpaced).
  double input_lead = 0.0;
  double sample_rate = 1.0;

  // Reconciliation. A correction is a server state that moved the predicted state, i.e. the replay (or,
  // with reconciliation off, the overwrite) differs from what was predicted before the snapshot came;
  // counted only while prediction is on (with it off the prediction is not drawn).
  std::uint64_t reconciliations = 0;
  std::uint64_t corrections = 0;
  double max_correction = 0.0;   // units
  double mean_correction = 0.0;  // units, over corrections
};

struct RemoteCubeMetrics {
  // Entity interpolation (remote cubes).
  double interp_delay_ms = 0.0;  // the delay in use
  double buffer_depth = 0.0;     // buffered states ahead of the render time, mean over remote cubes
  // Times the render time passed the newest state of a remote cube by more than the extrapolation allows
  // (one snapshot interval; none with extrapolation off): one episode counts once, however many cubes ran
  // dry in it (a late snapshot starves them all at once).
  std::uint64_t interp_underruns = 0;
  double extrapolation_ms = 0.0;  // time spent extrapolating, summed over remote cubes
};

// The other family (Settings::predict_others): the world simulated from the newest snapshot to the present.
struct WorldPredictionMetrics {
  bool others_predicted = false;           // remote cubes drawn at the present (within the prediction window)
  double ticks_ahead = 0.0;                // the present's distance from the newest snapshot, ticks
  std::uint64_t rollbacks = 0;             // snapshots that sent the simulation back to their world
  std::uint64_t ticks_simulated = 0;       // world ticks simulated (StepWorld calls), rollbacks included
  std::uint64_t cube_ticks_simulated = 0;  // the same times the cubes in the world: the re-simulation's work
  // Remote mispredictions: a snapshot that moved a remote cube's position at the present, units.
  std::uint64_t remote_corrections = 0;
  double remote_correction_max = 0.0;
};

struct TagMetrics {
  // This client's tags, by the server's verdict.
  std::uint64_t tags_fired = 0;  // sent
  std::uint64_t tags_hit = 0;    // given: hits on other cubes
  std::uint64_t tags_missed = 0;
  std::uint64_t tags_refused = 0;  // over the server's cooldown
  std::uint64_t tags_taken = 0;    // hits on this client's cube, by anyone
  double rewind_ms_mean = 0.0;     // how far back the server judged this client's tags
  // The victim's view: for each tag taken, how long before its result arrived this client's cube was last
  // where it was hit, on this client's own clock (0 when it had not moved on since).
  std::uint64_t victim_view_samples = 0;
  double victim_view_ms_last = 0.0;
  double victim_view_ms_mean = 0.0;
  double victim_view_ms_p99 = 0.0;  // whole milliseconds (the upper edge of a 1 ms bucket)
  double victim_view_ms_max = 0.0;
};

struct Metrics : LinkMetrics, OwnCubeMetrics, RemoteCubeMetrics, WorldPredictionMetrics, TagMetrics {
  std::uint64_t packets_malformed = 0;  // undecodable or inconsistent packets, dropped
};

}  // namespace netcube::client
