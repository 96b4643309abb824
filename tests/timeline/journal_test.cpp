// The journal's ring: bounded, newest kept, visited newest first within a time window.
#include "netcube/timeline/journal.h"

#include <gtest/gtest.h>

namespace netcube::timeline {
namespace {

Event At(std::int64_t us, std::int32_t a) {
  Event event;
  event.at = Micros(us);
  event.a = a;
  return event;
}

TEST(EventRing, KeepsTheNewestEventsWithinItsCapacity) {
  EventRing ring(4);
  for (int i = 0; i < 10; ++i) ring.Add(At(i * 10, i));
  EXPECT_EQ(ring.size(), 4U);
  EXPECT_EQ(ring.total(), 10U);
  EXPECT_EQ(ring.at(0).a, 6);
  EXPECT_EQ(ring.at(3).a, 9);
}

TEST(EventRing, VisitsAWindowNewestFirstAndStopsWhenAsked) {
  EventRing ring(16);
  for (int i = 0; i < 10; ++i) ring.Add(At(i * 10, i));
  std::vector<int> seen;
  ring.VisitBackward(Micros(20), Micros(55), [&](const Event& e) {
    seen.push_back(e.a);
    return true;
  });
  EXPECT_EQ(seen, (std::vector<int>{5, 4, 3, 2}));
  seen.clear();
  ring.VisitBackward(Micros(0), Micros(100), [&](const Event& e) {
    seen.push_back(e.a);
    return seen.size() < 2;
  });
  EXPECT_EQ(seen, (std::vector<int>{9, 8}));
}

TEST(Journal, CostsItsRingsWhateverTheRunsLength) {
  Journal journal(2, 1000);
  EXPECT_EQ(journal.memory_bytes(), 3 * 1000 * sizeof(Event));
  for (int i = 0; i < 5000; ++i) journal.client(1).Add(At(i, i));
  EXPECT_EQ(journal.memory_bytes(), 3 * 1000 * sizeof(Event));
  EXPECT_EQ(journal.client(1).size(), 1000U);
}

}  // namespace
}  // namespace netcube::timeline
