// A waiting loop's state as data (client/waiting.hpp): stopped mid-run, a world lists the threads
// whose acquire is under way from their locks' members alone, and that list is what the history
// says: the same pending operations, as many acquire attempts run as the members count, the ttl
// of the last refused one, and a tryLock's wait never more than it asked for.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "client/multi_lock.hpp"
#include "model/history.hpp"
#include "sim/simulation.hpp"

namespace locksim::world {
namespace {

using Pending = std::tuple<std::string, std::string, int64_t, int64_t>;  // client, lock, thread, op

struct Seen {
  size_t checkpoints = 0, entries = 0, listening = 0, sleeping = 0, try_locks = 0, past_first = 0;
};

// A simulated world with one lock of `type` named "orders", over links of 2-30 ms.
std::unique_ptr<sim::Simulation> world_of(const std::string& type, uint64_t seed) {
  WorldOptions options;
  options.seed = seed;
  options.link.latency_min_ms = 2;
  options.link.latency_max_ms = 30;
  auto sim = std::make_unique<sim::Simulation>(options);
  client::LockSpec spec;
  spec.type = type;
  spec.name = "orders";
  sim->world.add_lock(spec);
  return sim;
}

Seen check_waiting(const std::string& type, uint64_t seed) {
  const auto sim = world_of(type, seed);
  World& world = sim->world;
  const std::vector<std::string> names{"A", "B", "C", "D"};
  for (size_t i = 0; i < names.size(); ++i) {
    world.add_client(names[i]);
    for (int round = 0; round < 6; ++round) {
      for (int64_t thread = 1; thread <= 2; ++thread) {
        // Half the acquires wait as long as it takes, half give up after a while.
        world.op(0, names[i], thread,
                 (round + thread + static_cast<int64_t>(i)) % 2 ? OpSpec::lock_op("orders", 400)
                                                                 : OpSpec::try_lock("orders", 150, 400));
        world.op(0, names[i], thread, OpSpec::work(40));
        world.op(0, names[i], thread, OpSpec::unlock("orders"));
      }
    }
  }
  Seen seen;
  for (int64_t t = 3; t < 8000; t += 41) {
    world.run_until(t);
    ++seen.checkpoints;
    const model::History& h = world.history();
    // What the history says is under way: an acquire invoked and not yet answered.
    std::map<Pending, const model::Event*> pending;
    std::map<std::pair<std::string, int64_t>, std::vector<const model::Event*>> attempts;  // by client, op
    for (const model::Event& e : h.events()) {
      const Pending key{e.process.str(), e.lock.str(), e.thread, e.op};
      if (e.kind == model::EventKind::Invoke && (e.f == "lock" || e.f == "try_lock")) pending[key] = &e;
      if (model::is_outcome(e.kind)) pending.erase(key);
      // An EVALSHA the server answers NOSCRIPT is sent again in full: one attempt, two runs.
      if (e.kind == model::EventKind::Exec && (e.f == "acquire" || e.f == "try_acquire") &&
          !e.reply.starts_with("-NOSCRIPT"))
        attempts[{e.client.str(), e.op}].push_back(&e);
    }
    std::set<Pending> listed;
    for (const World::WaitingThread& w : world.waiting_threads()) {
      const Pending key{w.client, w.lock, w.thread, w.waiting.op};
      listed.insert(key);
      const auto it = pending.find(key);
      if (it == pending.end()) {
        ADD_FAILURE() << type << " at " << t << ": " << w.client << " thread " << w.thread << " waits in op "
                      << w.waiting.op << ", which the history does not have under way";
        continue;
      }
      ++seen.entries;
      const model::Event& invoke = *it->second;
      const std::vector<const model::Event*>& ran = attempts[{w.client, w.waiting.op}];
      const int64_t executed = static_cast<int64_t>(ran.size());
      // No message is lost here: every attempt sent has run, but the one on its way.
      if (w.waiting.phase == client::Waiting::Phase::Acquiring) {
        EXPECT_TRUE(executed == w.waiting.attempts || executed == w.waiting.attempts - 1)
            << type << " at " << t << ": " << executed << " attempts ran, " << w.waiting.attempts << " sent";
      } else {
        EXPECT_EQ(executed, w.waiting.attempts) << type << " at " << t << ", " << to_string(w.waiting.phase);
      }
      if (w.waiting.attempts > 1) ++seen.past_first;
      if (w.waiting.phase == client::Waiting::Phase::Listening) {
        ++seen.listening;
        // It waits on what its last refused attempt answered.
        if (ran.empty()) {
          ADD_FAILURE() << type << " at " << t << ": listening with no attempt run";
          continue;
        }
        const std::string& reply = ran.back()->reply.str();
        EXPECT_EQ(w.waiting.ttl_ms, reply == "nil" ? -1 : std::stoll(reply)) << type << " at " << t;
      }
      if (w.waiting.phase == client::Waiting::Phase::Sleeping) ++seen.sleeping;
      if (invoke.wait_ms < 0) {
        EXPECT_EQ(w.waiting.left_ms, -1) << "lock() waits as long as it takes";
      }
      if (invoke.wait_ms >= 0) {
        ++seen.try_locks;
        // Some of its wait is left while it tries; a tryLock that used it all up is leaving.
        EXPECT_LE(w.waiting.left_ms, invoke.wait_ms);
        if (w.waiting.phase != client::Waiting::Phase::Leaving) {
          EXPECT_GT(w.waiting.left_ms, 0) << type << " at " << t;
        }
        EXPECT_LE(w.waiting.since_ms, world.client(w.client).clock.now(world.epoch_now())) << "a client clock reading";
      }
    }
    for (const auto& [key, invoke] : pending)
      EXPECT_TRUE(listed.contains(key)) << type << " at " << t << ": " << std::get<0>(key) << " thread "
                                        << std::get<2>(key) << " has op " << std::get<3>(key)
                                        << " under way, and no lock lists it";
  }
  world.run_until(600000);
  world.finish();
  EXPECT_TRUE(world.waiting_threads().empty()) << "every acquire ended, and its entry with it";
  return seen;
}

TEST(WaitingAsData, RedissonLocksListWhoWaitsAndWhere) {
  for (const std::string type : {"rlock", "fair"}) {
    const Seen seen = check_waiting(type, 5);
    // The run had waiters in each state this test reads, or it says nothing.
    EXPECT_GT(seen.entries, 100u) << type;
    EXPECT_GT(seen.listening, 20u) << type;
    EXPECT_GT(seen.past_first, 20u) << type;
    EXPECT_GT(seen.try_locks, 20u) << type;
  }
}

TEST(WaitingAsData, APollingLockListsItsSleepers) {
  const Seen seen = check_waiting("setnx", 5);
  EXPECT_GT(seen.entries, 100u);
  EXPECT_GT(seen.sleeping, 20u);
  EXPECT_GT(seen.try_locks, 20u);
}

// A MultiLock's round, kept by the lock: every sub-lock it says it holds is one the server granted
// to that thread in that operation (the last acquire it ran there answered nil), and it tries the
// sub-locks in order.
TEST(WaitingAsData, AMultiLockRoundHoldsWhatTheServerGranted) {
  const auto sim = world_of("multi", 9);
  World& world = sim->world;
  const std::vector<std::string> names{"A", "B", "C"};
  for (const std::string& name : names) {
    world.add_client(name);
    for (int round = 0; round < 6; ++round) {
      world.op(0, name, 1, round % 2 ? OpSpec::lock_op("orders", 300) : OpSpec::try_lock("orders", 200, 300));
      world.op(0, name, 1, OpSpec::work(30));
      world.op(0, name, 1, OpSpec::unlock("orders"));
    }
  }
  size_t rounds = 0, holding = 0;
  for (int64_t t = 3; t < 6000; t += 37) {
    world.run_until(t);
    const model::History& h = world.history();
    for (const std::string& name : names) {
      const auto& lock = dynamic_cast<const client::MultiLock&>(*world.client(name).user->locks().at("orders"));
      for (const auto& [thread, r] : lock.rounds()) {
        ++rounds;
        ASSERT_EQ(lock.waiting().count(thread), 1u) << "a round runs inside an acquire";
        const int64_t op = lock.waiting().at(thread).op;
        EXPECT_LE(r.next, 3u) << "3: past the last, setting their leases";
        for (size_t k = 0; k < r.acquired.size(); ++k) {
          const size_t i = r.acquired[k];
          // `next` itself once taken, while a round out of time gives back what it holds.
          EXPECT_LE(i, r.next) << "a round takes the sub-locks in order";
          if (k > 0) {
            EXPECT_GT(i, r.acquired[k - 1]);
          }
          const std::string sub = "orders-" + std::to_string(i + 1);
          const model::Event* last = nullptr;
          for (const model::Event& e : h.events())
            if (e.kind == model::EventKind::Exec && e.f == "acquire" && e.client == name && e.op == op &&
                e.lock == sub && !e.reply.starts_with("-NOSCRIPT"))
              last = &e;
          ASSERT_NE(last, nullptr) << name << " at " << t << " holds " << sub << " without having asked";
          EXPECT_EQ(last->reply.str(), "nil") << name << " at " << t << ": " << sub << " was not granted";
          ++holding;
        }
      }
    }
  }
  world.run_until(600000);
  world.finish();
  for (const std::string& name : names)
    EXPECT_TRUE(dynamic_cast<const client::MultiLock&>(*world.client(name).user->locks().at("orders")).rounds().empty());
  EXPECT_GT(rounds, 30u);
  EXPECT_GT(holding, 10u);
}

// A crash ends its client's coroutines mid-wait, and their entries with them.
TEST(WaitingAsData, ACrashedWaiterLeavesNoEntry) {
  const auto sim = world_of("rlock", 2);
  World& world = sim->world;
  world.add_client("A");
  world.add_client("B");
  world.op(0, "A", 1, OpSpec::lock_op("orders", 5000));
  world.op(10, "B", 1, OpSpec::lock_op("orders", 5000));
  world.op(10, "B", 2, OpSpec::try_lock("orders", 3000));
  world.run_until(1000);
  std::set<std::pair<std::string, int64_t>> waiting;
  for (const World::WaitingThread& w : world.waiting_threads()) waiting.insert({w.client, w.thread});
  ASSERT_EQ(waiting, (std::set<std::pair<std::string, int64_t>>{{"B", 1}, {"B", 2}}));
  world.inject(1001, Fault{.kind = FaultKind::Crash, .client = "B"});
  world.run_until(1002);
  EXPECT_TRUE(world.waiting_threads().empty());
}

}  // namespace
}  // namespace locksim::world
