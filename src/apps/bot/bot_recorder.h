#pragma once
// What a netcube-bot run records frame by frame (frames counted from the script's start): every player's
// buttons for --record, one CSV row per player for --csv.
#include <fstream>
#include <string>
#include <vector>

#include "netcube/client/bot.h"
#include "netcube/client/frame_sample.h"
#include "session.h"

namespace netcube::apps {

class BotRecorder {
 public:
  BotRecorder(const std::string& csv_path, const client::BotRun& run);
  bool csv_ok() const { return !csv_.is_open() || csv_.good(); }

  // Records the frame `now` falls in, once, when the players' scripts have started.
  void Update(Micros now, const client::BotRun& run, Session& session);
  // Closes the CSV and prints each player's figures (client::Summarize, as the lab does).
  bool Close();

 private:
  std::vector<std::string> names_;
  std::vector<client::FrameSampler> samplers_;
  std::vector<std::vector<client::FrameSample>> samples_;  // per player, for the figures
  std::ofstream csv_;
  std::int64_t last_frame_ = -1;
};

}  // namespace netcube::apps
