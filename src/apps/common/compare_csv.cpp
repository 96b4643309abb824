#include "compare_csv.h"

#include <cinttypes>
#include <cstdio>

namespace netcube::apps {

std::string CompareCsvHeader() {
  return "frame,time_ms,entry,techniques,drawn_x,drawn_y,server_x,server_y,own_error,corrections,"
         "pending_inputs,rtt_ms,interp_delay_ms,buffer_depth,remote_error,bytes_up,bytes_down,press_delay_ms\n";
}

std::string CompareCsvRow(const std::string& entry, const std::string& techniques, const client::FrameSample& s) {
  // Fixed decimals: the same numbers give the same bytes on every run and machine.
  char numbers[512];
  std::snprintf(numbers, sizeof numbers,
                "%.4f,%.4f,%.4f,%.4f,%.4f,%" PRIu64 ",%zu,%.3f,%.3f,%.3f,%.4f,%" PRIu64 ",%" PRIu64 ",",
                s.drawn.x, s.drawn.y, s.server.x, s.server.y, s.own_error, s.corrections, s.pending_inputs, s.rtt_ms,
                s.interp_delay_ms, s.buffer_depth, s.remote_error, s.bytes_up, s.bytes_down);
  char delay[32] = "";
  if (s.press_delay_ms) std::snprintf(delay, sizeof delay, "%.3f", *s.press_delay_ms);
  char time[48];
  std::snprintf(time, sizeof time, "%" PRId64 ",%.3f,", s.frame, static_cast<double>(s.time.count()) / 1000.0);
  return std::string(time) + entry + "," + techniques + "," + numbers + delay + "\n";
}

}  // namespace netcube::apps
