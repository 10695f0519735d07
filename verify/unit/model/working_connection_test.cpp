// A client's working connection to a server: the stretches no fault on the client, its link or the
// server broke.
#include "model/working_connection.hpp"

#include <gtest/gtest.h>

#include "verify/unit/model/history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;

// A history with a lock key on redis0 (so that redis0 is a server) and A's faults.
HistoryBuilder with_server() {
  HistoryBuilder h;
  h.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  h.key({.t = 1, .f = "created"});
  return h;
}

TEST(WorkingConnection, ClientLinkAndServerFaultsBreakIt) {
  HistoryBuilder h = with_server();
  h.fault({.t = 1000, .p = "A", .f = "pause", .for_ms = 2000});       // 1000-3000
  h.fault({.t = 5000, .p = "A", .f = "delay", .value = 1500, .for_ms = 1000});  // 5000-6000
  h.fault({.t = 5500, .p = "redis0", .f = "pause", .for_ms = 1500});  // 5500-7000
  h.fault({.t = 8000, .p = "B", .f = "partition", .for_ms = 5000});   // another client's: not A's
  h.fault({.t = 9000, .p = "redis1", .f = "pause", .for_ms = 5000});  // another server's
  h.fault({.t = 20000, .p = "A", .f = "reset"});                      // an instant
  const Facts facts(h.history(), nullptr);
  const std::vector<Span> broken = broken_connection(facts, "A", "redis0", 0, 30000, 0);
  ASSERT_EQ(broken.size(), 2u);
  EXPECT_EQ(broken[0].from_ms, 1000);
  EXPECT_EQ(broken[0].to_ms, 3000);
  EXPECT_EQ(broken[1].from_ms, 5000);
  EXPECT_EQ(broken[1].to_ms, 7000);
  EXPECT_EQ(longest_working_stretch(facts, "A", "redis0", 0, 30000, 0), 23000);  // 7000-30000
  EXPECT_EQ(longest_working_stretch(facts, "A", "redis0", 0, 8000, 0), 2000);    // 3000-5000
  EXPECT_EQ(longest_working_stretch(facts, "A", "redis0", 1500, 2500, 0), 0);
  // A delay whose round trip (2 x 1500 ms) stays under the command timeout slows the commands but
  // they complete: only the server's pause (5500-7000) breaks that stretch then.
  const std::vector<Span> slow = broken_connection(facts, "A", "redis0", 0, 30000, 3001);
  ASSERT_EQ(slow.size(), 2u);
  EXPECT_EQ(slow[1].from_ms, 5500);
  EXPECT_EQ(slow[1].to_ms, 7000);
  EXPECT_EQ(longest_working_stretch(facts, "A", "redis0", 3000, 8000, 3001), 2500);  // 3000-5500
  EXPECT_EQ(longest_working_stretch(facts, "A", "redis0", 3000, 8000, 3000), 2000);  // the delay counts
}

TEST(WorkingConnection, ACrashBreaksItForGood) {
  HistoryBuilder h = with_server();
  h.fault({.t = 4000, .p = "A", .f = "crash"});
  h.fault({.t = 9000, .p = "B", .f = "crash"});
  const Facts facts(h.history(), nullptr);
  EXPECT_EQ(longest_working_stretch(facts, "A", "redis0", 0, 9000, 0), 4000);
  EXPECT_EQ(longest_working_stretch(facts, "A", "redis0", 5000, 9000, 0), 0);
}

}  // namespace
}  // namespace locksim::model
