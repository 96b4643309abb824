#include "netcube/sim/sequence.h"

#include <gtest/gtest.h>

namespace netcube::sim {
namespace {

TEST(Sequence, EqualIsNeitherGreaterNorLess) {
  for (const Seq s : {Seq{0}, Seq{1}, Seq{32767}, Seq{32768}, Seq{65535}}) {
    EXPECT_FALSE(SeqGreater(s, s));
    EXPECT_FALSE(SeqLess(s, s));
    EXPECT_EQ(SeqDiff(s, s), 0);
  }
}

TEST(Sequence, WrapsAtTheTopOfTheRange) {
  // constexpr: a constant expression gives the same answers as the run-time calls below.
  static_assert(SeqGreater(0, 65535) && SeqDiff(2, 65534) == 4);
  EXPECT_TRUE(SeqGreater(0, 65535));
  EXPECT_FALSE(SeqGreater(65535, 0));
  EXPECT_TRUE(SeqLess(65535, 0));
  EXPECT_FALSE(SeqLess(0, 65535));
  EXPECT_TRUE(SeqGreater(5, 65530));
  EXPECT_EQ(SeqDiff(0, 65535), 1);
  EXPECT_EQ(SeqDiff(65535, 0), -1);
  EXPECT_EQ(SeqDiff(5, 65530), 11);
  EXPECT_EQ(SeqDiff(65530, 5), -11);
  EXPECT_EQ(SeqDiff(2, 65534), 4);
}

TEST(Sequence, HalfRangeBoundary) {
  // Up to 32768 ahead counts as newer; exactly half the circle is resolved in favour of the larger
  // difference going forward, so the relation stays antisymmetric.
  EXPECT_TRUE(SeqGreater(32767, 0));
  EXPECT_TRUE(SeqGreater(32768, 0));
  EXPECT_FALSE(SeqGreater(0, 32768));
  EXPECT_FALSE(SeqGreater(32769, 0));
  EXPECT_TRUE(SeqGreater(0, 32769));
  EXPECT_TRUE(SeqLess(0, 32767));
  EXPECT_TRUE(SeqLess(0, 32768));
  EXPECT_FALSE(SeqLess(32768, 0));
  EXPECT_TRUE(SeqGreater(65535, 32767));
  EXPECT_FALSE(SeqGreater(32767, 65535));

  EXPECT_EQ(SeqDiff(32767, 0), 32767);
  EXPECT_EQ(SeqDiff(0, 32767), -32767);
  EXPECT_EQ(SeqDiff(32769, 0), -32767);
  // Exactly half apart the signed distance is out of its valid range and reads as -32768.
  EXPECT_EQ(SeqDiff(32768, 0), -32768);
}

TEST(Sequence, AgreesWithSignedDistanceEverywhereInItsRange) {
  for (int base = 0; base < 65536; base += 97) {
    const auto b = static_cast<Seq>(base);
    for (int d = -32767; d <= 32767; d += 13) {
      const auto a = static_cast<Seq>(base + d);
      ASSERT_EQ(SeqDiff(a, b), d) << base << " " << d;
      ASSERT_EQ(SeqGreater(a, b), d > 0) << base << " " << d;
      ASSERT_EQ(SeqLess(a, b), d < 0) << base << " " << d;
      ASSERT_NE(SeqGreater(a, b) && SeqGreater(b, a), true);
    }
  }
}

}  // namespace
}  // namespace netcube::sim
