#include "sim/sim_backend.hpp"

#include "base/assert.hpp"
#include "base/pooled.hpp"
#include "client/command_words.hpp"
#include "world/client_process.hpp"
#include "world/harness.hpp"

namespace locksim::sim {

using world::Waiter;

void SimBackend::round_trip(Describe what, RedisNode& node, const world::EventTag& tag, AtServer at_server,
                            std::shared_ptr<Waiter> waiter, SharedReply reply) {
  auto request = pooled<Request>(Request{std::move(what), std::move(at_server), tag, std::move(reply)});
  auto arrival = [this, request, &node, waiter, epoch = connection_epoch_] {
    if (epoch == connection_epoch_) arrive(request, node, waiter);
  };
  static_assert(world::EventQueue::Action::kept_inline<decltype(arrival)>);  // one per request: not allocated
  hop(request->tag, std::move(arrival), [&request] { return "request " + request->what(); });
}

void SimBackend::arrive(const std::shared_ptr<Request>& request, RedisNode& node, std::shared_ptr<Waiter> waiter) {
  // A stopped (SIGSTOP) server reads nothing; what arrived waits in its socket, in order.
  if (node.paused_until() > world_.now()) {
    world::EventTag held = request->tag;
    held.kind = world::EventKind::RequestHeld;
    world_.queue().at(node.paused_until(), [this, request, &node, waiter] { arrive(request, node, waiter); }, held);
    return;
  }
  const std::optional<Answer> answered = request->at_server();
  if (!answered) return;
  answer(request, node, std::move(waiter), *answered, node.incarnation());
}

void SimBackend::answer(const std::shared_ptr<Request>& request, RedisNode& node, std::shared_ptr<Waiter> waiter,
                        Answer answer, uint64_t incarnation) {
  if (node.incarnation() != incarnation) return;
  const int64_t leaves = std::max(answer.due, node.paused_until());
  if (leaves > world_.now()) {
    LS_ASSERT(leaves != kNever || answer.due == kNever);
    if (leaves == kNever) return;  // WAIT 0 for a replica that never acknowledges: blocked for good
    world::EventTag held = request->tag;
    held.kind = world::EventKind::ReplyHeld;
    held.reply = request->reply.get();
    held.value = answer.value;
    held.epoch = incarnation;
    world_.queue().at(leaves, [this, request, &node, waiter, answer, incarnation] {
      this->answer(request, node, waiter, answer, incarnation);
    }, held);
    return;
  }
  // The request stays alive with its reply: the reply's record points at its command and payload.
  auto reply = [this, waiter, request, value = answer.value, epoch = connection_epoch_] {
    if (epoch == connection_epoch_ && !waiter->done) complete(waiter, value);
  };
  static_assert(world::EventQueue::Action::kept_inline<decltype(reply)>);  // one per reply: not allocated
  hop(reply_tag(request->tag, request->reply.get()), std::move(reply),
      [&request] { return "reply to " + request->what(); });
}

void SimBackend::send(SharedCommand command, world::Sent sent, bool as_eval, uint64_t identity,
                      std::shared_ptr<Waiter> waiter, SharedReply reply) {
  // What runs at the server, once per request: kept in place, not allocated. The server and the
  // client's name are found from `this` and the command rather than captured, to fit.
  auto at_server = [this, command, sent, as_eval, reply]() -> std::optional<Answer> {
    RedisNode& target = node(command->server);
    if (!target.up()) return std::nullopt;
    Answer answer{.value = true};
    *reply = target.error_now() ? target.refuse(client_.name, *command, sent)
                                : target.execute(client_.name, *command, sent, as_eval, &answer.due);
    return answer;
  };
  static_assert(AtServer::kept_inline<decltype(at_server)>);
  world::EventTag tag = request_tag(command->server, identity, command.get(), waiter.get());
  tag.sent_ms = sent.ms;
  tag.as_eval = as_eval;
  round_trip([command, as_eval] { return client::command_summary(*command, as_eval); }, node(command->server), tag,
             std::move(at_server), std::move(waiter), reply);
}

void SimBackend::send_subscribe(const std::string& channel, int server, std::shared_ptr<Waiter> waiter) {
  RedisNode& target = node(server);
  const world::EventTag tag =
      request_tag(server, message_identity(world::Identity() << "SUBSCRIBE" << channel << static_cast<int64_t>(server)),
                  nullptr, waiter.get(), (world::Identity() << "SUBSCRIBE" << channel).value());
  round_trip([channel = std::string(channel)] { return "SUBSCRIBE " + channel; }, target, tag,
             // The client's name found from `this`, and the channel a string of the closure's own: kept in place.
             [this, server, channel = std::string(channel)]() -> std::optional<Answer> {
               RedisNode& target = node(server);
               if (!target.up()) return std::nullopt;
               if (target.error_now()) return Answer{.value = false};  // refused: the client is not subscribed
               target.pubsub(client_.name, {"SUBSCRIBE", channel});
               return Answer{.value = true};
             },
             std::move(waiter));
}

void SimBackend::send_unsubscribe(const std::string& channel, int server) {
  RedisNode& target = node(server);
  round_trip([channel = std::string(channel)] { return "UNSUBSCRIBE " + channel; }, target,
             request_tag(server, message_identity(world::Identity() << "UNSUBSCRIBE" << channel << static_cast<int64_t>(server)),
                         nullptr, nullptr, (world::Identity() << "UNSUBSCRIBE" << channel).value()),
             [this, server, channel = std::string(channel)]() -> std::optional<Answer> {
               RedisNode& target = node(server);
               if (target.up() && !target.error_now()) target.pubsub(client_.name, {"UNSUBSCRIBE", channel});
               return std::nullopt;  // nobody waits for this reply
             },
             new_waiter());
}

void SimBackend::disconnect() {
  for (const auto& n : nodes_) n->disconnect(client_.name);
}

// The servers see the connections close (their subscriptions go with them); what they had read ran.
void SimBackend::reset() {
  for (const auto& n : nodes_) n->disconnect(client_.name);
  ClientBackend::reset();
}

}  // namespace locksim::sim
