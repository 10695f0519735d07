// Chance keyed to identity (world/chance.hpp): a message's latency and fate, and a client's tokens,
// depend on the seed and on what they decide, so what one client adds moves nothing of another's.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/simulation.hpp"
#include "world/chance.hpp"

namespace locksim::world {
namespace {

TEST(Identity, PartsAreDelimitedAndOrdered) {
  EXPECT_NE((Identity() << "ab" << "c").value(), (Identity() << "a" << "bc").value());
  EXPECT_NE((Identity() << "a" << "b").value(), (Identity() << "b" << "a").value());
  EXPECT_NE((Identity() << int64_t{1}).value(), (Identity() << int64_t{2}).value());
  EXPECT_EQ((Identity() << "lock" << int64_t{7}).value(), (Identity() << "lock" << int64_t{7}).value());
}

TEST(Occurrences, TheNthAlikeIsAnotherNameAndCountsAreKeptApart) {
  Occurrences a, b;
  const Identity unlock = Identity() << "unlock";
  const Identity renew = Identity() << "renew";
  const uint64_t first = a.next(unlock);
  const uint64_t second = a.next(unlock);
  EXPECT_NE(first, second);
  // Drawing another name in between changes nothing of this one's sequence.
  EXPECT_EQ(b.next(unlock), first);
  b.next(renew);
  b.next(renew);
  EXPECT_EQ(b.next(unlock), second);
}

LinkOptions jittery_lossy() {
  LinkOptions link;
  link.latency_min_ms = 1;
  link.latency_max_ms = 40;
  link.loss_numerator = 100;  // 10% of messages lost
  return link;
}

// A's requests as the servers ran them: time, command and reply, and what A lost.
std::vector<std::string> what_a_saw(bool b_sends_more) {
  WorldOptions options;
  options.seed = 7;
  options.link = jittery_lossy();
  sim::Simulation sim(options);
  World& world = sim.world;
  client::LockSpec orders;
  orders.type = "rlock";
  orders.name = "orders";
  client::LockSpec stock = orders;
  stock.name = "stock";
  client::LockSpec spare = orders;
  spare.name = "spare";
  world.add_lock(orders);
  world.add_lock(stock);
  world.add_lock(spare);
  world.add_client("A");
  world.add_client("B");
  for (int i = 0; i < 20; ++i) {
    world.op(0, "A", 1, OpSpec::try_lock("orders", 100, 5000));
    world.op(0, "A", 1, OpSpec::work(30));
    world.op(0, "A", 1, OpSpec::unlock("orders"));
    world.op(0, "B", 1, OpSpec::try_lock("stock", 100, 5000));
    world.op(0, "B", 1, OpSpec::unlock("stock"));
    if (b_sends_more) {  // on a second thread of B's, beside the first
      world.op(0, "B", 2, OpSpec::try_lock("spare", 100, 5000));
      world.op(0, "B", 2, OpSpec::unlock("spare"));
    }
  }
  world.run_until(120000);
  world.finish();
  std::vector<std::string> seen;
  for (const auto& e : world.history().events()) {
    if (e.kind == model::EventKind::Exec && e.client == "A")
      seen.push_back(std::to_string(e.at_ms) + " " + std::string(e.text) + " -> " + std::string(e.reply));
    if (e.kind == model::EventKind::Message && e.f == "lost" && e.process == "A") seen.push_back(std::to_string(e.at_ms) + " lost " + std::string(e.text));
  }
  return seen;
}

// B locks another lock, and in the second run a third one too, from a second thread: A's
// messages keep their latencies and
// fates, and so every request of A's runs at the same time with the same reply. With one stream for
// every link, B's extra messages would take the draws A's used to get.
TEST(ChanceKeyedToIdentity, AnotherClientsExtraMessagesMoveNothingOfA) {
  const std::vector<std::string> alone = what_a_saw(false);
  const std::vector<std::string> busier = what_a_saw(true);
  ASSERT_GT(alone.size(), 40u);
  size_t lost = 0;
  for (const auto& line : alone) lost += line.find(" lost ") != std::string::npos;
  EXPECT_GT(lost, 0u) << "the loss this test is about";
  EXPECT_EQ(alone, busier);
}

}  // namespace
}  // namespace locksim::world
