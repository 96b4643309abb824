// The own cube's fixed-step sampling against a frame clock at the tick rate.
#include "own_cube.h"

#include <gtest/gtest.h>

#include "netcube/sim/move.h"

namespace netcube::client {
namespace {

// The lab's virtual clock puts frame i at i/60 s in whole microseconds (16,666, 33,333, 50,000, ...), a
// fraction of a microsecond before each sampling interval ends. Unpaced, every frame takes one sample: taken
// a frame late, one would leave the drawn cube still for a frame and then step it twice.
TEST(OwnCube, AFrameClockAtTheTickRateTakesOneSampleEveryFrame) {
  OwnCube cube;
  cube.OnServerState(sim::CubeState{}, false, 0, Settings{});
  cube.StartSampling(Micros{0});
  int sent = 0;
  const OwnCube::Send send = [&sent](const protocol::InputMessage&) {
    ++sent;
    return true;
  };
  for (int frame = 0; frame <= 600; ++frame) {
    cube.Sample(Micros(std::int64_t{frame} * 1'000'000 / 60), sim::kRight, 1, 1, send);
    ASSERT_EQ(sent, frame + 1) << "frame " << frame;
  }
}

}  // namespace
}  // namespace netcube::client
