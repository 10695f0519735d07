// The agenda's records (event_tag.hpp): the messages in flight of a world mid-run, listed from the
// records alone, are what then arrives: each request runs on its server at the time its record
// says, each reply answers a request that already ran, each delivery reaches its client.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "client/backend.hpp"
#include "model/events.hpp"
#include "sim/simulation.hpp"

namespace locksim::world {
namespace {

// A message as its record said at the checkpoint: what the record points to (the command) lives only
// while the message is on the agenda, so it is read there.
struct Flying {
  EventQueue::Scheduled record;
  std::string role, lock, channel, reply;  // reply: the payload a reply's record carries, rendered
};

struct Checkpoint {
  int64_t at_ms;
  std::vector<Flying> flying;
};

TEST(MessagesInFlight, TheRecordsSayWhatArrivesAndWhen) {
  WorldOptions options;
  options.seed = 3;
  options.link.latency_min_ms = 5;
  options.link.latency_max_ms = 40;
  sim::Simulation sim(options);
  World& world = sim.world;
  client::LockSpec orders;
  orders.type = "rlock";
  orders.name = "orders";
  world.add_lock(orders);
  const std::vector<std::string> names{"A", "B", "C"};
  for (const std::string& name : names) {
    world.add_client(name);
    for (int i = 0; i < 10; ++i) {
      world.op(0, name, 1, OpSpec::lock_op("orders", -1));
      world.op(0, name, 1, OpSpec::work(25));
      world.op(0, name, 1, OpSpec::unlock("orders"));
    }
  }
  std::vector<Checkpoint> checkpoints;
  for (int64_t t = 7; t < 3000; t += 97) {
    world.run_until(t);
    Checkpoint c{t, {}};
    for (const EventQueue::Scheduled& m : world.messages_in_flight())
      c.flying.push_back({m, m.tag.command ? m.tag.command->role : "", m.tag.command ? m.tag.command->lock : "",
                          std::string(m.tag.what), m.tag.reply ? locksim::describe(*m.tag.reply) : ""});
    checkpoints.push_back(std::move(c));
  }
  world.run_until(60000);
  world.finish();
  const model::History& h = world.history();

  size_t requests = 0, replies = 0, deliveries = 0;
  std::set<uint64_t> identities;
  std::set<std::string> payloads;
  for (const Checkpoint& c : checkpoints) {
    for (const auto& [m, role, lock, channel, reply] : c.flying) {
      ASSERT_TRUE(m.tag.is_message());
      ASSERT_GE(m.tag.client, 0);
      ASSERT_LT(m.tag.client, static_cast<int>(names.size()));
      EXPECT_GT(m.at_ms, c.at_ms) << "in flight means not arrived yet";
      EXPECT_NE(m.tag.message, 0u) << "a message has its identity";
      const std::string& client = names[static_cast<size_t>(m.tag.client)];
      const std::string server = model::server_name(m.tag.server);
      if (m.tag.kind == EventKind::Request && m.tag.command) {
        ++requests;
        // It runs on its server at the time its record says, as the request its record carries.
        bool ran = false;
        for (const model::Event& e : h.events())
          ran |= e.kind == model::EventKind::Exec && e.at_ms == m.at_ms && e.client == client && e.process == server &&
                 e.f == role && e.lock == lock;
        EXPECT_TRUE(ran) << "at " << c.at_ms << ": " << client << "'s " << role << " due on " << server
                         << " at " << m.at_ms;
      } else if (m.tag.kind == EventKind::Reply && m.tag.command) {
        ++replies;
        // It answers a request of the same client that already ran on that server, with what the
        // server answered: its record carries the payload.
        EXPECT_NE(m.tag.reply, nullptr) << "a reply to a command carries its payload";
        bool answered = false;
        for (const model::Event& e : h.events())
          answered |= e.kind == model::EventKind::Exec && e.at_ms <= c.at_ms && e.client == client &&
                      e.process == server && e.f == role && e.reply == reply;
        EXPECT_TRUE(answered) << "at " << c.at_ms << ": a reply " << reply << " to " << client << "'s " << role;
        payloads.insert(reply);
      } else if (m.tag.kind == EventKind::Delivery) {
        ++deliveries;
        bool delivered = false;
        for (const model::Event& e : h.events())
          delivered |= e.kind == model::EventKind::Message && e.at_ms == m.at_ms && e.process == client &&
                       e.f == "delivered" && std::string_view(e.lock) == channel;
        EXPECT_TRUE(delivered) << "at " << c.at_ms << ": a message on " << channel << " to " << client;
      }
      if (m.tag.kind != EventKind::RequestHeld) identities.insert(m.tag.message);
    }
  }
  // The run had all three on the wire at some checkpoint, or the test says nothing.
  EXPECT_GT(requests, 10u);
  EXPECT_GT(replies, 10u);
  EXPECT_GT(deliveries, 0u);
  EXPECT_GT(identities.size(), 20u);
  EXPECT_GE(payloads.size(), 3u) << "replies of several kinds (granted, a ttl, an unlock's answer) were in flight";
}

}  // namespace
}  // namespace locksim::world
