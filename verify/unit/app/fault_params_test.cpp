// One fault, three ways in: a scenario file's step, serve's LOCKSIM.FAULT and a line of serve's
// schedule file (--faults FILE) read its parameters with one reader (world/fault_param_reader.hpp),
// so a bad value is refused by each with the same words, behind each one's own "where".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/split_args.hpp"
#include "scenario/loader.hpp"
#include "server/fault_command.hpp"
#include "server/fault_schedule.hpp"
#include "world/fault_param_reader.hpp"

namespace locksim {
namespace {

namespace fs = std::filesystem;

struct BadFault {
  std::string words;     // the fault as serve's schedule file writes it: "<kind> <param> <value> ..."
  std::string yaml;      // the same step's fields in a scenario file (after `at: 0, `)
  std::string expected;  // what every reader says is wrong with it
};

const std::vector<BadFault>& bad_faults() {
  static const std::vector<BadFault> cases = {
      {"delay for_ms 9223372036854775000 extra_ms 5 client A",
       "fault: delay, client: A, for_ms: 9223372036854775000, extra_ms: 5",
       "for_ms is at most 1000000000 ms (about 11.6 days, the longest run), not 9223372036854775000"},
      {"delay for_ms 100 extra_ms 1000000000001 client A", "fault: delay, client: A, for_ms: 100, extra_ms: 1000000000001",
       "extra_ms is at most 1000000000000 ms (about 31 years), not 1000000000001"},
      {"delay for_ms 100 extra_ms ten client A", "fault: delay, client: A, for_ms: 100, extra_ms: ten",
       "expected an integer for extra_ms, got 'ten'"},
      {"delay for_ms 100 extra_ms -5 client A", "fault: delay, client: A, for_ms: 100, extra_ms: -5",
       "expected a non-negative integer for extra_ms, got -5"},
      {"delay extra_ms 5 client A", "fault: delay, client: A, extra_ms: 5", "missing 'for_ms' in a delay fault"},
      {"loss for_ms 100 per_thousand 1001 client A", "fault: loss, client: A, for_ms: 100, per_thousand: 1001",
       "per_thousand is at most 1000"},
      {"redis_restart persistence rdb", "fault: redis_restart, persistence: rdb",
       "unknown persistence 'rdb' (expected none, aof)"},
      {"failover lag_ms 10 down_ms 500", "fault: failover, lag_ms: 10, down_ms: 500",
       "down_ms applies to a failover via sentinel"},
      {"error_reply for_ms 100 text ' BUSY'", "fault: error_reply, for_ms: 100, text: ' BUSY'",
       "text must start with the error's code (e.g. BUSY, LOADING, ERR), not ' BUSY'"},
      {"clock_jump by_ms -2000000000000 client A", "fault: clock_jump, client: A, by_ms: -2000000000000",
       "a clock jump's by_ms: a clock offset is at most 1000000000000 ms either way, not -2000000000000"},
  };
  return cases;
}

fs::path temp_file(const std::string& name, const std::string& text) {
  const fs::path path = fs::temp_directory_path() / ("locksim-fault-params-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path) << text;
  return path;
}

std::string loader_says(const BadFault& bad) {
  const fs::path path = temp_file("scenario.yaml",
                                  "name: bad\nlock: {type: rlock}\nclients: [A]\ntimeline:\n"
                                  "  - {at: 0, client: A, op: lock}\n  - {at: 0, " + bad.yaml + "}\n");
  std::string said = "(loaded without error)";
  try {
    scenario::load_scenario(path.string());
  } catch (const scenario::ScenarioError& e) {
    said = e.what();
  }
  fs::remove(path);
  return said;
}

std::string serve_says(const BadFault& bad) {
  std::vector<std::string> argv = {"LOCKSIM.FAULT"};
  const auto words = split_args(bad.words);
  EXPECT_TRUE(words.has_value());
  argv.insert(argv.end(), words->begin(), words->end());
  server::ServedFault parsed;
  return server::parse_fault(argv, parsed);
}

std::string schedule_says(const BadFault& bad) {
  const fs::path path = temp_file("schedule", "# at_ms fault params\n100 " + bad.words + "\n");
  std::string said = "(loaded without error)";
  try {
    server::load_fault_schedule(path.string());
  } catch (const std::runtime_error& e) {
    said = e.what();
  }
  fs::remove(path);
  return said;
}

TEST(FaultParams, OneBadValueIsRefusedInTheSameWordsByTheLoaderServeAndTheScheduleFile) {
  for (const BadFault& bad : bad_faults()) {
    SCOPED_TRACE(bad.words);
    const std::string kind = bad.words.substr(0, bad.words.find(' '));
    const std::string loader = loader_says(bad);
    // "<file>:6:<column>: <what>": the step is the file's sixth line.
    EXPECT_NE(loader.find(":6:"), std::string::npos) << loader;
    EXPECT_TRUE(loader.ends_with(": " + bad.expected)) << loader;
    EXPECT_EQ(serve_says(bad), "ERR LOCKSIM.FAULT " + kind + ": " + bad.expected);
    const std::string schedule = schedule_says(bad);
    EXPECT_TRUE(schedule.ends_with(":2: LOCKSIM.FAULT " + kind + ": " + bad.expected)) << schedule;
  }
}

// Each case above is bad in one parameter only: with that one in range, all three take the fault.
TEST(FaultParams, TheSameFaultsInRangeAreTaken) {
  const std::vector<std::pair<std::string, std::string>> good = {
      {"delay for_ms 1000000000 extra_ms 5 client A", "fault: delay, client: A, for_ms: 1000000000, extra_ms: 5"},
      {"delay for_ms 100 extra_ms 1_000_000_000_000 client A",
       "fault: delay, client: A, for_ms: 100, extra_ms: 1_000_000_000_000"},
      {"loss for_ms 100 per_thousand 1000 client A", "fault: loss, client: A, for_ms: 100, per_thousand: 1000"},
      {"redis_restart persistence aof", "fault: redis_restart, persistence: aof"},
      {"failover lag_ms 10", "fault: failover, lag_ms: 10"},
      {"error_reply for_ms 100 text 'LOADING not yet'", "fault: error_reply, for_ms: 100, text: 'LOADING not yet'"},
      {"clock_jump by_ms -1000000000000 client A", "fault: clock_jump, client: A, by_ms: -1000000000000"},
  };
  for (const auto& [words, yaml] : good) {
    SCOPED_TRACE(words);
    const BadFault fault{words, yaml, ""};
    EXPECT_EQ(loader_says(fault), "(loaded without error)");
    EXPECT_EQ(serve_says(fault), "");
    EXPECT_EQ(schedule_says(fault), "(loaded without error)");
  }
}

// A schedule line's time places the fault in the run: held to the longest run, as a step's `at` is.
TEST(FaultParams, AScheduleLineWhoseTimeIsPastTheLongestRunOrNotANumberIsRefusedAtItsLine) {
  for (const std::string at : {"1000000001", "9223372036854775807", "soon", "-5"}) {
    SCOPED_TRACE(at);
    const fs::path path = temp_file("schedule-at", "100 redis_pause for_ms 50\n" + at + " redis_pause for_ms 50\n");
    std::string said = "(loaded without error)";
    try {
      server::load_fault_schedule(path.string());
    } catch (const std::runtime_error& e) {
      said = e.what();
    }
    fs::remove(path);
    EXPECT_TRUE(said.ends_with(":2: expected '<at_ms> <fault> [<param> <value>]...', got '" + at +
                               "' where the time (ms, 0 to 1000000000) goes"))
        << said;
  }
  const fs::path path = temp_file("schedule-at-max", "1000000000 redis_pause for_ms 50\n");
  EXPECT_NO_THROW(server::load_fault_schedule(path.string()));
  fs::remove(path);
}

TEST(FaultParams, AnIntegerIsReadAsRedisReadsOneWithUnderscoresBetweenDigits) {
  EXPECT_EQ(world::parse_grouped_integer("30_000"), 30000);
  EXPECT_EQ(world::parse_grouped_integer("-1_5"), -15);
  EXPECT_EQ(world::parse_grouped_integer("0"), 0);
  EXPECT_EQ(world::parse_grouped_integer("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(world::parse_grouped_integer("-9223372036854775808"), INT64_MIN);
  for (const char* bad : {"", "-", "+5", "05", "-0", "_30", "30_", "3__0", "9223372036854775808", "1e3", " 5", "5 "})
    EXPECT_EQ(world::parse_grouped_integer(bad), std::nullopt) << bad;
}

}  // namespace
}  // namespace locksim
