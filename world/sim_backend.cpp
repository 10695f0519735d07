#include "world/sim_backend.hpp"

#include "world/client_process.hpp"
#include "world/world.hpp"

namespace locksim::world {
namespace {

std::string summary(const client::Command& command) {
  std::string out = command.script ? "EVALSHA " + command.script->name : std::string();
  for (const auto& k : command.keys) out += (out.empty() ? "" : " ") + k;
  for (const auto& a : command.argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

}  // namespace

void SimBackend::lost(const std::string& text) {
  model::Event e;
  e.kind = model::EventKind::Message;
  e.f = "lost";
  e.text = text;
  record(std::move(e));
}

void SimBackend::round_trip(Describe what, RedisNode* node, AtServer at_server, std::shared_ptr<Waiter> waiter,
                            std::shared_ptr<std::string> answer) {
  const auto arrival = client_.link.arrival(world_.now(), true, world_.network_rng());
  if (!arrival) {
    lost("request " + what());
    return;
  }
  auto shared_what = std::make_shared<const Describe>(std::move(what));
  auto shared_at_server = std::make_shared<const AtServer>(std::move(at_server));
  world_.queue().at(*arrival, [this, shared_what, node, shared_at_server, waiter, answer] {
    arrive(shared_what, node, shared_at_server, waiter, answer);
  });
}

void SimBackend::arrive(std::shared_ptr<const Describe> what, RedisNode* node,
                        std::shared_ptr<const AtServer> at_server, std::shared_ptr<Waiter> waiter,
                        std::shared_ptr<std::string> answer) {
  // A stopped (SIGSTOP) server reads nothing; what arrived waits in its socket, in order.
  if (node != nullptr && node->paused_until() > world_.now()) {
    world_.queue().at(node->paused_until(), [this, what, node, at_server, waiter, answer] {
      arrive(what, node, at_server, waiter, answer);
    });
    return;
  }
  std::optional<std::string> reply = (*at_server)();
  if (!reply) return;
  const auto back = client_.link.arrival(world_.now(), false, world_.network_rng());
  if (!back) {
    lost("reply to " + (*what)());
    return;
  }
  world_.queue().at(*back, [this, waiter, answer, text = std::move(*reply)] {
    if (waiter->done) return;
    if (answer) *answer = text;
    complete(waiter, true);
  });
}

void SimBackend::send(SharedCommand command, bool as_eval, std::shared_ptr<Waiter> waiter, SharedReply reply) {
  RedisNode& node = world_.node(command->server);
  round_trip([command] { return summary(*command); }, &node,
             [&node, who = &client_.name, command, as_eval, reply]() -> std::optional<std::string> {
               if (!node.up()) return std::nullopt;
               *reply = node.execute(*who, *command, as_eval);
               return std::string();
             },
             std::move(waiter), nullptr);
}

void SimBackend::send_subscribe(const std::string& channel, int server, std::shared_ptr<Waiter> waiter) {
  RedisNode& node = world_.node(server);
  const std::string who = client_.name;
  round_trip([channel] { return "SUBSCRIBE " + channel; }, &node,
             [&node, who, channel]() -> std::optional<std::string> {
               if (!node.up()) return std::nullopt;
               node.pubsub(who, {"SUBSCRIBE", channel});
               return std::string();
             },
             std::move(waiter), nullptr);
}

void SimBackend::send_unsubscribe(const std::string& channel, int server) {
  RedisNode& node = world_.node(server);
  const std::string who = client_.name;
  round_trip([channel] { return "UNSUBSCRIBE " + channel; }, &node,
             [&node, who, channel]() -> std::optional<std::string> {
               if (node.up()) node.pubsub(who, {"UNSUBSCRIBE", channel});
               return std::nullopt;  // nobody waits for this reply
             },
             new_waiter(), nullptr);
}

client::Task<int> SimBackend::write_fenced(std::string resource, int64_t token, int64_t thread, int64_t timeout_ms) {
  auto waiter = new_waiter();
  auto answer = std::make_shared<std::string>();
  World& world = world_;
  const std::string who = client_.name;
  round_trip([resource] { return "write " + resource; }, nullptr,
             [&world, who, resource, token, thread]() -> std::optional<std::string> {
               return std::string(world.fenced_write(who, thread, resource, token) ? "1" : "0");
             },
             waiter, answer);
  complete_at(world_.now() + timeout_ms, waiter, false);
  const bool answered = co_await Park{waiter.get()};
  if (!answered) co_return -1;
  co_return *answer == "1" ? 1 : 0;
}

void SimBackend::disconnect() {
  for (int i = 0; i < world_.servers(); ++i) world_.node(i).disconnect(client_.name);
}

}  // namespace locksim::world
