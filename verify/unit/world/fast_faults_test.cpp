// The faults that answer at once instead of at a timeout: a server's error_reply window and a
// client's reset. Requests are sent straight through a client's backend (no lock logic), and what
// came back, and when, is asserted against numbers written here from the scenario's arithmetic.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "client/command_policy.hpp"
#include "sim/simulation.hpp"
#include "world/client_backend.hpp"
#include "world/client_process.hpp"

namespace locksim::world {
namespace {

constexpr const char* kBusy = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
constexpr const char* kLoading = "LOADING Redis is loading the dataset in memory";

// One request as its sender saw it.
struct Seen {
  int64_t sent_ms = -1;
  int64_t done_ms = -1;
  client::CallResult result;
};

// Every message takes exactly `latency_ms` each way: the times below are exact.
WorldOptions fixed_latency(int64_t latency_ms) {
  WorldOptions options;
  options.link.latency_min_ms = latency_ms;
  options.link.latency_max_ms = latency_ms;
  return options;
}

client::Command command(std::vector<std::string> argv) {
  client::Command c;
  c.role = "test";
  c.argv = std::move(argv);
  return c;
}

client::Task<void> send(Harness& world, ClientProcess& process, client::Command c, int64_t timeout_ms, Seen* seen) {
  seen->sent_ms = world.now();
  seen->result = co_await process.backend->call(std::make_shared<const client::Command>(std::move(c)), timeout_ms, client::ScriptForm::EvalshaThenEval);
  seen->done_ms = world.now();
}

client::Task<void> send_with_retry(Harness& world, ClientProcess& process, client::Command c,
                                   client::CommandPolicy policy, Seen* seen) {
  seen->sent_ms = world.now();
  seen->result = co_await client::call_with_retry(*process.backend, std::move(c), policy);
  seen->done_ms = world.now();
}

// Sends `argv` from `client` at `t`; the result lands in `seen`.
void send_at(sim::Simulation& sim, int64_t t, const std::string& client, std::vector<std::string> argv,
             int64_t timeout_ms, Seen& seen) {
  sim.world.at(t, [&sim, client = std::string(client), argv = std::move(argv), timeout_ms, &seen] {
    ClientProcess& process = sim.world.client(client);
    sim.world.spawn(process, send(sim.world, process, command(argv), timeout_ms, &seen));
  }, EventTag::test());
}

Fault error_reply(int64_t for_ms, std::string text = kBusy) {
  Fault f;
  f.kind = FaultKind::ErrorReply;
  f.for_ms = for_ms;
  f.text = std::move(text);
  return f;
}

Fault reset(const std::string& client) {
  Fault f;
  f.kind = FaultKind::Reset;
  f.client = client;
  return f;
}

std::string value_of(sim::Simulation& sim, const std::string& key) {
  const Reply r = sim.servers.node(0).engine().execute(sim.servers.node(0).engine().open_session(), {"GET", key});
  return r.kind == Reply::Kind::Bulk ? r.str : "(nil)";
}

TEST(ErrorReply, ACommandInTheWindowGetsTheErrorAtOnceAndDoesNotRun) {
  sim::Simulation sim(fixed_latency(5));
  sim.world.add_client("A");
  sim.world.inject(100, error_reply(1000));
  Seen in_window, after_window;
  send_at(sim, 500, "A", {"SET", "k", "v"}, 3000, in_window);
  send_at(sim, 1200, "A", {"SET", "k", "w"}, 3000, after_window);
  sim.world.run_until(600);
  // Sent at 500, at the server at 505, the error back at 510: a round trip, not the 3000 ms timeout.
  EXPECT_EQ(in_window.done_ms, 510);
  EXPECT_FALSE(in_window.result.timed_out);
  EXPECT_FALSE(in_window.result.connection_lost);
  ASSERT_TRUE(in_window.result.reply.is_error());
  EXPECT_EQ(in_window.result.reply.str, kBusy);
  EXPECT_EQ(value_of(sim, "k"), "(nil)");  // the SET never ran
  sim.world.run_until(2000);
  // The window closed at 1100: the next command runs as usual.
  EXPECT_EQ(after_window.done_ms, 1210);
  EXPECT_EQ(after_window.result.reply.kind, Reply::Kind::Status);
  EXPECT_EQ(value_of(sim, "k"), "w");
}

TEST(ErrorReply, TheWindowAnswersWithTheTextItNames) {
  sim::Simulation sim(fixed_latency(1));
  sim.world.add_client("A");
  sim.world.inject(0, error_reply(50, kLoading));
  Seen seen;
  send_at(sim, 10, "A", {"GET", "k"}, 3000, seen);
  sim.world.run_until(100);
  EXPECT_EQ(seen.done_ms, 12);
  EXPECT_EQ(seen.result.reply.str, kLoading);
}

TEST(ErrorReply, TheWindowEndsExactlyAfterForMs) {
  sim::Simulation sim(fixed_latency(1));
  sim.world.add_client("A");
  sim.world.inject(100, error_reply(200));
  Seen last_refused, first_served;
  send_at(sim, 298, "A", {"SET", "k", "1"}, 3000, last_refused);  // at the server at 299
  send_at(sim, 299, "A", {"SET", "k", "2"}, 3000, first_served);  // at the server at 300
  sim.world.run_until(400);
  EXPECT_EQ(last_refused.result.reply.str, kBusy);
  EXPECT_EQ(first_served.result.reply.kind, Reply::Kind::Status);
  EXPECT_EQ(value_of(sim, "k"), "2");
}

TEST(ErrorReply, TheHistoryRecordsTheFaultAndEachRefusal) {
  sim::Simulation sim(fixed_latency(1));
  sim.world.add_client("A");
  sim.world.inject(0, error_reply(50));
  Seen seen;
  send_at(sim, 10, "A", {"SET", "k", "v"}, 3000, seen);
  sim.world.run_until(100);
  int faults = 0, refusals = 0;
  for (const model::Event& e : sim.world.history().events()) {
    if (e.kind == model::EventKind::Fault && e.f == "error_reply") {
      ++faults;
      EXPECT_EQ(e.process, "redis0");
      EXPECT_EQ(e.for_ms, 50);
      EXPECT_EQ(e.text, kBusy);
    }
    if (e.kind == model::EventKind::Exec && e.reply == std::string("-") + kBusy) ++refusals;
  }
  EXPECT_EQ(faults, 1);
  EXPECT_EQ(refusals, 1);
}

TEST(ErrorReply, RedissonResendsBusyAndGetsThroughOnceTheWindowCloses) {
  sim::Simulation sim(fixed_latency(1));
  sim.world.add_client("A");
  sim.world.inject(0, error_reply(2000));
  Seen seen;
  sim.world.at(10, [&] {
    ClientProcess& a = sim.world.client("A");
    sim.world.spawn(a, send_with_retry(sim.world, a, command({"SET", "k", "v"}), client::CommandPolicy{}, &seen));
  }, EventTag::test());
  sim.world.run_until(10000);
  // BUSY at 12, resent at 1512 (BUSY again at 1514), resent at 3014: the window closed at 2000.
  EXPECT_EQ(seen.done_ms, 3016);
  EXPECT_EQ(seen.result.reply.kind, Reply::Kind::Status);
  EXPECT_EQ(value_of(sim, "k"), "v");
}

TEST(ErrorReply, AnErrorRedissonDoesNotResendReachesTheCallerAtOnce) {
  sim::Simulation sim(fixed_latency(1));
  sim.world.add_client("A");
  sim.world.inject(0, error_reply(2000, "ERR something else"));
  Seen seen;
  sim.world.at(10, [&] {
    ClientProcess& a = sim.world.client("A");
    sim.world.spawn(a, send_with_retry(sim.world, a, command({"SET", "k", "v"}), client::CommandPolicy{}, &seen));
  }, EventTag::test());
  sim.world.run_until(10000);
  EXPECT_EQ(seen.done_ms, 12);
  EXPECT_EQ(seen.result.reply.str, "ERR something else");
}

TEST(Reset, FailsACommandInFlightAtOnceNotAtItsTimeout) {
  sim::Simulation sim(fixed_latency(100));
  sim.world.add_client("A");
  Seen in_flight, next;
  send_at(sim, 0, "A", {"SET", "k", "v"}, 3000, in_flight);  // at the server at 100, its reply due at 200
  sim.world.inject(150, reset("A"));
  send_at(sim, 1000, "A", {"GET", "k"}, 3000, next);
  sim.world.run_until(500);
  EXPECT_EQ(in_flight.done_ms, 150);
  EXPECT_FALSE(in_flight.result.timed_out);
  EXPECT_TRUE(in_flight.result.connection_lost);
  EXPECT_EQ(in_flight.result.reply.str, client::kConnectionLost);
  // It had reached the server before the reset: it ran there.
  EXPECT_EQ(value_of(sim, "k"), "v");
  sim.world.run_until(2000);
  // The next command goes over a new connection.
  EXPECT_EQ(next.done_ms, 1200);
  EXPECT_EQ(next.result.reply.str, "v");
}

TEST(Reset, ARequestStillOnTheLinkNeverReachesTheServer) {
  sim::Simulation sim(fixed_latency(100));
  sim.world.add_client("A");
  Seen in_flight;
  send_at(sim, 0, "A", {"SET", "k", "v"}, 3000, in_flight);  // would reach the server at 100
  sim.world.inject(50, reset("A"));
  sim.world.run_until(1000);
  EXPECT_EQ(in_flight.done_ms, 50);
  EXPECT_TRUE(in_flight.result.connection_lost);
  EXPECT_EQ(value_of(sim, "k"), "(nil)");
}

TEST(Reset, ResetsOnlyItsClient) {
  sim::Simulation sim(fixed_latency(100));
  sim.world.add_client("A");
  sim.world.add_client("B");
  Seen a, b;
  send_at(sim, 0, "A", {"SET", "a", "1"}, 3000, a);
  send_at(sim, 0, "B", {"SET", "b", "1"}, 3000, b);
  sim.world.inject(150, reset("A"));
  sim.world.run_until(1000);
  EXPECT_TRUE(a.result.connection_lost);
  EXPECT_EQ(b.done_ms, 200);
  EXPECT_FALSE(b.result.connection_lost);
  EXPECT_EQ(b.result.reply.kind, Reply::Kind::Status);
}

TEST(Reset, RedissonResendsAfterTheConnectionClosedUnderTheCommand) {
  sim::Simulation sim(fixed_latency(100));
  sim.world.add_client("A");
  Seen seen;
  sim.world.at(0, [&] {
    ClientProcess& a = sim.world.client("A");
    sim.world.spawn(a, send_with_retry(sim.world, a, command({"INCR", "n"}), client::CommandPolicy{}, &seen));
  }, EventTag::test());
  sim.world.inject(150, reset("A"));
  sim.world.run_until(10000);
  // Failed at 150, resent 1500 ms later (1650), answered at 1850. It ran twice: Redisson resends a
  // command whose connection closed after the server had read it.
  EXPECT_EQ(seen.done_ms, 1850);
  EXPECT_EQ(seen.result.reply.kind, Reply::Kind::Integer);
  EXPECT_EQ(seen.result.reply.integer, 2);
}

TEST(Reset, SubscriptionsEndAndTheClientSubscribesAgain) {
  sim::Simulation sim(fixed_latency(10));
  sim.world.add_client("A");
  sim.world.add_client("B");
  bool subscribed = false;
  std::vector<int64_t> received_at;
  auto listen = [&](Harness& world, ClientProcess& a) -> client::Task<void> {
    subscribed = co_await a.backend->subscribe("ch", 1000, 0);
    for (int i = 0; i < 3; ++i)
      if (co_await a.backend->wait_message("ch", 5000, 0)) received_at.push_back(world.now());
  };
  sim.world.at(0, [&] {
    ClientProcess& a = sim.world.client("A");
    sim.world.spawn(a, listen(sim.world, a));
  }, EventTag::test());
  Seen p1, p2, p3;
  send_at(sim, 100, "B", {"PUBLISH", "ch", "1"}, 3000, p1);  // delivered at 120
  sim.world.inject(200, reset("A"));                         // resubscribed at the server at 210
  send_at(sim, 195, "B", {"PUBLISH", "ch", "2"}, 3000, p2);  // published at 205: A has no subscription
  send_at(sim, 300, "B", {"PUBLISH", "ch", "3"}, 3000, p3);  // delivered at 320
  sim.world.run_until(1000);
  EXPECT_TRUE(subscribed);
  EXPECT_EQ(p1.result.reply.integer, 1);
  EXPECT_EQ(p2.result.reply.integer, 0);
  EXPECT_EQ(p3.result.reply.integer, 1);
  EXPECT_EQ(received_at, (std::vector<int64_t>{120, 320}));
}

TEST(Reset, OfACrashedClientDoesNothing) {
  sim::Simulation sim(fixed_latency(1));
  sim.world.add_client("A");
  Fault crash;
  crash.kind = FaultKind::Crash;
  crash.client = "A";
  sim.world.inject(10, crash);
  sim.world.inject(20, reset("A"));
  sim.world.run_until(100);
  for (const model::Event& e : sim.world.history().events())
    EXPECT_FALSE(e.kind == model::EventKind::Fault && e.f == "reset");
}

}  // namespace
}  // namespace locksim::world
