// Number and name flags: NaN, infinities, absurd values and names the protocol cannot carry are usage
// errors, where CLI11's own checks let NaN (and PositiveNumber infinity) through.
#include "flag_checks.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>

#include "support/command.h"

namespace netcube::apps {
namespace {

// Whether `value` passes `--x` checked by `check`.
bool Accepts(const CLI::Validator& check, const std::string& value) {
  CLI::App app;
  std::string parsed;
  app.add_option("--x", parsed)->check(check);
  try {
    app.parse("--x " + value, false);
    return true;
  } catch (const CLI::ParseError&) {
    return false;
  }
}

TEST(FlagChecks, FiniteRangeRefusesNanInfinitiesAndValuesOutside) {
  const CLI::Validator seconds = FiniteRange(0.001, kMaxRunSeconds);
  for (const char* good : {"0.001", "1", "2.5", "31622400"}) EXPECT_TRUE(Accepts(seconds, good)) << good;
  for (const char* bad :
       {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e300", "0", "-1", "31622401", "ten"}) {
    EXPECT_FALSE(Accepts(seconds, bad)) << bad;
  }
  EXPECT_TRUE(Accepts(FiniteRange(0.0, 1.0), "0"));
  EXPECT_FALSE(Accepts(FiniteRange(0.0, 1.0), "nan"));
  EXPECT_FALSE(Accepts(FiniteRange(0.0, 1.0), "1.0001"));
}

TEST(FlagChecks, PlayerNameIsOneToFifteenPrintableCharacters) {
  for (const char* good : {"a", "'ann lee'", "123456789012345", "'~!@#'"}) {
    EXPECT_TRUE(Accepts(PlayerName(), good)) << good;
  }
  for (const char* bad : {"''", "1234567890123456", "'tab\there'", "'del\x7f'", "'\xc3\xa9t\xc3\xa9'"}) {
    EXPECT_FALSE(Accepts(PlayerName(), bad)) << bad;
  }
}

TEST(FlagChecks, UnsignedRefusesASign) {
  for (const char* good : {"0", "1", "18446744073709551615"}) EXPECT_TRUE(Accepts(Unsigned(), good)) << good;
  for (const char* bad : {"-1", "' -1'", "+1", "1.5", "x", "''"})
    EXPECT_FALSE(Accepts(Unsigned(), bad)) << bad;
}

// netcube-bench has no other executable test: its number flags, as a child process.
TEST(FlagChecks, BenchRefusesNonFiniteAndAbsurdNumbersInTwoLines) {
  for (const char* args : {"--seconds nan", "--seconds inf", "--seconds 1e300", "--seconds 0",
                           "--idle-fractions nan", "--idle-fractions 0,nan", "--seed -1"}) {
    const testing::CommandResult run = testing::RunCommand(std::string(NETCUBE_BENCH_EXE) + " " + args);
    EXPECT_NE(run.exit_code, 0) << args;
    EXPECT_EQ(testing::ShortUsageErrorProblem(run.output, "netcube-bench"), "") << args;
  }
}

}  // namespace
}  // namespace netcube::apps
