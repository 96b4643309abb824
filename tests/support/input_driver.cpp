#include "support/input_driver.h"

namespace netcube::testing {

void InputDriver::Update(Micros now, const std::function<std::uint8_t()>& buttons, bool keep_adding) {
  if (const auto& snapshot = client_.inbox().last_snapshot; snapshot && snapshot->has_ack) {
    sender_.Acknowledge(snapshot->ack);
  }
  if (next_send_ && now < *next_send_) return;
  next_send_ = next_send_.value_or(now) + options_.interval;
  if (keep_adding) {
    for (int i = 0; i < options_.inputs_per_send; ++i) sent_.push_back(sender_.Add(buttons()));
  }
  if (sender_.unacknowledged() == 0) return;
  const protocol::InputMessage message = sender_.Message();
  for (int i = 0; i < options_.copies; ++i) client_.Send(now, message);
}

bool InputDriver::AllAcknowledged() const {
  const auto& snapshot = client_.inbox().last_snapshot;
  return !sent_.empty() && snapshot && snapshot->has_ack && snapshot->ack == sent_.back().seq;
}

sim::CubeState Replay(sim::CubeState start, std::span<const sim::Input> inputs) {
  for (const sim::Input& input : inputs) start = sim::Move(start, input, sim::kStandardArena);
  return start;
}

}  // namespace netcube::testing
