#include "bot_recorder.h"

#include <iostream>

#include "compare_csv.h"

namespace netcube::apps {

BotRecorder::BotRecorder(const std::string& csv_path, const client::BotRun& run)
    : samplers_(run.clients().size()), samples_(run.clients().size()) {
  for (const client::BotPlayerReport& player : run.Report().players) names_.push_back(player.name);
  if (csv_path.empty()) return;
  csv_.open(csv_path, std::ios::binary | std::ios::trunc);
  csv_ << CompareCsvHeader();
}

void BotRecorder::Update(Micros now, const client::BotRun& run, Session& session) {
  const std::optional<Micros> start = run.play_start();
  if (!start) return;
  const std::int64_t frame = SessionFrameAt(now - *start);
  if (frame <= last_frame_) return;
  if (last_frame_ < 0) {
    session.tick_rate = run.clients()[0]->welcome().tick_rate;
    session.snapshot_rate = run.clients()[0]->welcome().snapshot_rate;
  }
  last_frame_ = frame;
  session.frames = frame + 1;
  for (std::size_t i = 0; i < run.clients().size(); ++i) session.RecordInput(i, frame, run.held(i));
  if (!csv_.is_open()) return;
  for (std::size_t i = 0; i < run.clients().size(); ++i) {
    const client::Client& player = *run.clients()[i];
    const std::vector<sim::PlayerCube> heard = client::NewestReceived(player);
    const client::FrameSample sample = samplers_[i].Sample(frame, now - *start, run.held(i), player, heard);
    csv_ << CompareCsvRow(names_[i], client::TechniquesOf(player.settings()), sample);
    samples_[i].push_back(sample);
  }
}

bool BotRecorder::Close() {
  if (!csv_.is_open()) return true;
  csv_.close();
  for (std::size_t i = 0; i < names_.size(); ++i) {
    std::cout << SummaryText(names_[i], client::Summarize(samples_[i]));
  }
  return !csv_.fail();
}

}  // namespace netcube::apps
