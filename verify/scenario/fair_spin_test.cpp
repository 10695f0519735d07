// docs/lock-types.md, FairLock from 3.32.0: a queued waiter told max(0, pttl) is told 0 while the
// lock key is gone and a dead waiter heads the queue, and lock() then retries at once, one attempt
// per round trip, until the head's threadWaitTime runs out. Before 3.32.0 the same waiter is told
// its own score less the wait and sleeps it. Counted from the history: the requests the server ran.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "scenario/loader.hpp"
#include "scenario/runner.hpp"

namespace locksim::scenario {
namespace {

// C's acquire attempts that the server ran, and how many of them were answered 0.
struct Attempts {
  int all = 0;
  int zero = 0;
};

Attempts attempts_of_c(const std::string& version, const std::string& variant) {
  const std::string file = ::testing::TempDir() + "locksim-fair-spin-" + variant + ".yaml";
  // A holds for 2 s; B queues first and crashes at 1 s, still queued; C queues behind B. A's unlock
  // wakes B alone. C wakes when the ttl it was told (A's pttl, ~30 s) has passed: the key is gone,
  // and dead B heads the queue until its score (that ttl plus threadWaitTime, 5 s) passes too.
  std::ofstream(file) << "name: fair-spin\n"
                         "world: {latency_ms: [1, 3]}\n"
                         "lock: {type: fair, name: orders, redisson: " << version
                      << ", fair_variant: " << variant << ", thread_wait_ms: 5000}\n"
                         "clients: [A, B, C]\n"
                         "run_ms: 60000\n"
                         "timeline:\n"
                         "  - {at: 0, client: A, op: lock}\n"
                         "  - {at: 0, client: A, op: work, for_ms: 2000}\n"
                         "  - {at: 0, client: A, op: unlock}\n"
                         "  - {at: 100, client: B, op: lock}\n"
                         "  - {at: 200, client: C, op: lock}\n"
                         "  - {at: 1000, client: B, fault: crash}\n";
  const ScenarioResult r = run_scenario(load_scenario(file));
  EXPECT_FALSE(r.error) << *r.error;
  Attempts a;
  for (const model::Event& e : r.history.events()) {
    if (e.kind != model::EventKind::Exec || e.client != "C" || e.f != "acquire") continue;
    ++a.all;
    a.zero += e.reply == "0";
  }
  return a;
}

TEST(FairSpin, AWaiterBehindADeadHeadRetriesAtOnceFrom3_32) {
  const Attempts spin = attempts_of_c("4.7.0", "tail-3.45");
  // From about 30 s to about 35 s: 5 s of round trips of 2 to 6 ms.
  EXPECT_GT(spin.zero, 800) << spin.all << " attempts";
  const Attempts spin_3_32 = attempts_of_c("3.32.0", "tail-3.32");
  EXPECT_GT(spin_3_32.zero, 800) << spin_3_32.all << " attempts";
}

TEST(FairSpin, BeforeThe3_32ScriptTheSameWaiterSleepsItsTtl) {
  const Attempts sleeps = attempts_of_c("3.31.0", "tail-3.31");
  EXPECT_EQ(sleeps.zero, 0);
  EXPECT_LT(sleeps.all, 20);
}

}  // namespace
}  // namespace locksim::scenario
