#include "live/live_backend.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "client/command_words.hpp"
#include "model/rendered.hpp"
#include "world/client_process.hpp"
#include "world/exec_event.hpp"
#include "world/harness.hpp"

namespace locksim::live {
namespace {

// Reads a lock key as the simulated server renders it (RedisNode::render); C++ sorts and formats,
// so the server's collation locale cannot change the text.
constexpr const char* kRenderScript = R"lua(
local t = redis.call('type', KEYS[1])['ok']
local ttl = redis.call('pttl', KEYS[1])
if t == 'string' then return {t, ttl, redis.call('get', KEYS[1])} end
if t == 'hash' then return {t, ttl, unpack(redis.call('hgetall', KEYS[1]))} end
if t == 'list' then return {t, ttl, unpack(redis.call('lrange', KEYS[1], 0, -1))} end
if t == 'zset' then return {t, ttl, unpack(redis.call('zrange', KEYS[1], 0, -1, 'withscores'))} end
return {t, ttl}
)lua";

// The key's PTTL as the render script read it (-2 when it could not).
int64_t ttl_of(const Reply& r) {
  if (r.kind != Reply::Kind::Array || r.elements.size() < 2) return -2;
  return r.elements[1].kind == Reply::Kind::Integer ? r.elements[1].integer : -2;
}

std::string render(const Reply& r) {
  if (r.kind != Reply::Kind::Array || r.elements.size() < 2) return "?";
  const std::string& type = r.elements[0].str;
  if (type == "none") return "";
  if (type == "string") return r.elements.size() > 2 ? r.elements[2].str : "";
  if (type == "list") {
    std::vector<std::string> items;
    for (size_t i = 2; i < r.elements.size(); ++i) items.push_back(r.elements[i].str);
    return model::render_list(items);
  }
  if (type == "hash") {
    std::vector<std::string> fields;
    for (size_t i = 2; i + 1 < r.elements.size(); i += 2) fields.push_back(r.elements[i].str + "=" + r.elements[i + 1].str);
    return model::render_hash(std::move(fields));
  }
  if (type == "zset") {
    std::vector<std::pair<std::string, int64_t>> members;
    for (size_t i = 2; i + 1 < r.elements.size(); i += 2)
      members.emplace_back(r.elements[i].str, static_cast<int64_t>(std::strtod(r.elements[i + 1].str.c_str(), nullptr)));
    return model::render_zset(members);
  }
  return "?";
}

}  // namespace

LiveBackend::LiveBackend(world::Harness& world, world::ClientProcess& client, Endpoints& endpoints)
    : ClientBackend(world, client), endpoints_(endpoints), generation_(client.generation) {
  endpoints_.listen(this);
}

LiveBackend::~LiveBackend() {
  disconnect();
  endpoints_.forget(this);
}

LiveBackend::Links& LiveBackend::links(int server) {
  if (links_.size() <= static_cast<size_t>(server)) links_.resize(static_cast<size_t>(server) + 1);
  Links& l = links_[static_cast<size_t>(server)];
  if (!l.commands) {
    l.commands = std::make_unique<Connection>(endpoints_.address(server), endpoints_.password(), false);
    l.pubsub = std::make_unique<Connection>(endpoints_.address(server), endpoints_.password(), true);
    endpoints_.watch(l.commands.get());
    endpoints_.watch(l.pubsub.get());
    l.pubsub->on_push([this, server](Reply message) {
      world_.carry_message(client_.name, message.elements[1].str, server);
    });
    // Redisson reconnects its pub/sub connection and subscribes its channels again.
    l.pubsub->on_broken([this, server] {
      world_.queue().at(world_.now(), [this, server, generation = client_.generation] {
        if (!client_.crashed && client_.generation == generation) resubscribe(server);
      }, world::EventTag::of_client(world::EventKind::Retry, client_.index));
    });
  }
  return l;
}

void LiveBackend::resubscribe(int server) {
  std::vector<std::string> channels;
  for (const auto& [key, state] : client_.channels)
    if (key.server == server && state.references > 0) channels.push_back(key.channel);
  if (channels.empty()) return;
  std::vector<Connection::Request> requests;
  for (const auto& channel : channels) requests.push_back({{"SUBSCRIBE", channel}, nullptr});
  if (links(server).pubsub->send(std::move(requests))) return;
  // The server is not back yet: try again shortly, for as long as the client lives.
  world_.queue().at(world_.now() + 50, [this, server, generation = client_.generation] {
    if (!client_.crashed && client_.generation == generation) resubscribe(server);
  }, world::EventTag::of_client(world::EventKind::Retry, client_.index));
}

void LiveBackend::send(SharedCommand command, world::Sent sent, bool as_eval, uint64_t identity,
                       std::shared_ptr<world::Waiter> waiter, SharedReply reply) {
  hop(request_tag(command->server, identity, command.get()),
      [this, command, sent, as_eval, identity, waiter, reply, epoch = connection_epoch_] {
        if (epoch == connection_epoch_) execute(command, sent, as_eval, identity, waiter, reply);
      },
      [command, as_eval] { return "request " + client::command_summary(*command, as_eval); });
}

void LiveBackend::execute(const SharedCommand& command, world::Sent sent, bool as_eval, uint64_t identity,
                          std::shared_ptr<world::Waiter> waiter, SharedReply reply) {
  // A synced request's script answer waits here for its WAIT's, and both go back as one sequence.
  auto script_answer = std::make_shared<Reply>();
  auto finish = [this, command, sent, as_eval, identity, waiter, reply, script_answer](
                    Reply answer, std::string before, std::string after, int64_t ttl_ms, std::string queue) {
    world_.record(world::exec_event(command->server, client_.name, *command, sent, answer,
                                    {.before = Atom(before), .after = Atom(after), .ttl_ms = ttl_ms,
                                     .queue = Atom(queue)}));
    if (command->sync_replicas >= 0) {
      *script_answer = std::move(answer);
      return;
    }
    send_back(command, as_eval, identity, waiter, reply, std::move(answer));
  };
  Connection& connection = *links(command->server).commands;
  bool written = false;
  if (command->lock.empty()) {
    written = connection.send(client::command_words(*command, as_eval), [finish](Reply r) { finish(std::move(r), "", "", -2, ""); });
  } else {
    // The key before and after, read atomically with the script (what the simulated server records).
    auto queued_error = std::make_shared<std::optional<Reply>>();
    std::vector<Connection::Request> block;
    block.push_back({{"MULTI"}, nullptr});
    block.push_back({{"EVAL", kRenderScript, "1", command->lock}, nullptr});
    block.push_back({client::command_words(*command, as_eval), [queued_error](Reply r) {
                       if (r.is_error()) *queued_error = std::move(r);
                     }});
    block.push_back({{"EVAL", kRenderScript, "1", command->lock}, nullptr});
    // A FairLock's queue after, too (an absent list renders as the empty one).
    const bool queue = !command->queue.empty();
    if (queue) block.push_back({{"EVAL", kRenderScript, "1", command->queue}, nullptr});
    block.push_back({{"EXEC"}, [finish, queued_error, queue](Reply r) {
                       const size_t replies = queue ? 4 : 3;
                       if (r.kind == Reply::Kind::Array && r.elements.size() == replies) {
                         std::string rendered_queue = queue ? render(r.elements[3]) : "";
                         if (queue && rendered_queue.empty()) rendered_queue = model::render_list({});
                         finish(std::move(r.elements[1]), render(r.elements[0]), render(r.elements[2]),
                                ttl_of(r.elements[2]), std::move(rendered_queue));
                       } else {  // refused when queued (EXECABORT): what Redis says to the command alone
                         finish(queued_error->value_or(std::move(r)), "", "", -2, "");
                       }
                     }});
    written = connection.send(std::move(block));
  }
  // Redisson's batch: WAIT right behind the script on the same connection, answered when it unblocks.
  if (written && command->sync_replicas >= 0) {
    const client::Command wait_command = client::wait_behind(*command);
    written = connection.send(client::command_words(wait_command, false),
                              [this, command, sent, as_eval, identity, waiter, reply, script_answer, wait_command](Reply r) {
                                world_.record(world::exec_event(command->server, client_.name, wait_command, sent, r, {}));
                                send_back(command, as_eval, identity, waiter, reply,
                                          Reply::sequence({std::move(*script_answer), std::move(r)}));
                              });
  }
  if (!written)
    lost("request " + client::command_summary(*command, as_eval) + " (no connection to " + endpoints_.describe(command->server) + ")");
}

void LiveBackend::send_back(const SharedCommand& command, bool as_eval, uint64_t identity,
                            const std::shared_ptr<world::Waiter>& waiter, const SharedReply& reply, Reply answer) {
  auto payload = std::make_shared<const Reply>(std::move(answer));  // the reply's, and its record's
  hop(reply_tag(request_tag(command->server, identity, command.get()), payload.get()),
      // The command stays alive with its reply: the reply's record points at it.
      [this, waiter, reply, payload, command] {
        if (waiter->done) return;
        *reply = *payload;
        complete(waiter, true);
      },
      [command, as_eval] { return "reply to " + client::command_summary(*command, as_eval); });
}

void LiveBackend::send_subscribe(const std::string& channel, int server, std::shared_ptr<world::Waiter> waiter) {
  const uint64_t identity = message_identity(world::Identity() << "SUBSCRIBE" << channel << static_cast<int64_t>(server));
  // The tag shared, and the channel a string of the closure's own: the agenda keeps it in place.
  const auto request = std::make_shared<const world::EventTag>(request_tag(server, identity, nullptr));
  hop(*request,
      [this, channel = std::string(channel), server, waiter, request] {
        links(server).pubsub->send({"SUBSCRIBE", channel}, [this, channel, waiter, request](Reply) {
          hop(reply_tag(*request), [this, waiter] { complete(waiter, true); }, [channel] { return "reply to SUBSCRIBE " + channel; });
        });
      },
      [channel] { return "request SUBSCRIBE " + channel; });
}

void LiveBackend::send_unsubscribe(const std::string& channel, int server) {
  hop(request_tag(server, message_identity(world::Identity() << "UNSUBSCRIBE" << channel << static_cast<int64_t>(server)),
                  nullptr),
      [this, channel = std::string(channel), server] { links(server).pubsub->send({"UNSUBSCRIBE", channel}, nullptr); },
      [channel] { return "request UNSUBSCRIBE " + channel; });
}

void LiveBackend::disconnect() {
  for (Links& l : links_) {
    for (Connection* c : {l.commands.get(), l.pubsub.get()}) {
      if (!c) continue;
      c->on_broken(nullptr);
      c->close();
      endpoints_.unwatch(c);
    }
  }
  links_.clear();
}

void LiveBackend::reset() {
  disconnect();
  ClientBackend::reset();
}

void LiveBackend::moved(int server) {
  if (links_.size() <= static_cast<size_t>(server) || !links_[static_cast<size_t>(server)].commands) return;
  Links& l = links_[static_cast<size_t>(server)];
  l.commands->retarget(endpoints_.address(server));
  l.pubsub->retarget(endpoints_.address(server));
  resubscribe(server);
}

}  // namespace locksim::live
