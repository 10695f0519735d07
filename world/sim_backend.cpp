#include "world/sim_backend.hpp"

#include <algorithm>
#include <cstdio>

#include "world/client_process.hpp"
#include "world/world.hpp"

namespace locksim::world {
namespace {

// Suspends the coroutine until its waiter completes. It holds a plain pointer (the coroutine's own
// shared_ptr keeps the waiter alive): GCC 12 may destroy a co_await operand's temporaries twice.
struct Park {
  Waiter* waiter;
  bool await_ready() const noexcept { return waiter->done; }
  void await_suspend(std::coroutine_handle<> h) noexcept { waiter->handle = h; }
  bool await_resume() const noexcept { return waiter->value; }
};

std::string summary(const client::Command& command) {
  std::string out = command.script ? "EVALSHA " + command.script->name : std::string();
  for (const auto& k : command.keys) out += (out.empty() ? "" : " ") + k;
  for (const auto& a : command.argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

}  // namespace

const std::string& SimBackend::client_id() const { return client_.uuid; }
const std::string& SimBackend::name() const { return client_.name; }

int64_t SimBackend::now_ms() { return client_.clock.now(world_.epoch_now()); }

std::shared_ptr<Waiter> SimBackend::new_waiter() const {
  auto waiter = std::make_shared<Waiter>();
  waiter->generation = client_.generation;
  return waiter;
}

void SimBackend::complete(const std::shared_ptr<Waiter>& waiter, bool value) {
  if (waiter->done) return;
  waiter->done = true;
  waiter->value = value;
  if (waiter->handle) world_.wake(client_, waiter);
}

void SimBackend::complete_at(int64_t at_ms, const std::shared_ptr<Waiter>& waiter, bool value) {
  world_.queue().at(at_ms, [this, waiter, value] { complete(waiter, value); });
}

client::Task<void> SimBackend::sleep(int64_t ms) {
  auto waiter = new_waiter();
  complete_at(world_.now() + std::max<int64_t>(ms, 0), waiter, true);
  co_await Park{waiter.get()};
}

void SimBackend::round_trip(Describe what, std::function<std::optional<std::string>()> at_server,
                            std::shared_ptr<Waiter> waiter, std::shared_ptr<std::string> answer) {
  auto lost = [this](const std::string& text) {
    model::Event e;
    e.kind = model::EventKind::Message;
    e.f = "lost";
    e.text = text;
    record(std::move(e));
  };
  const auto arrival = client_.link.arrival(world_.now(), true, world_.network_rng());
  if (!arrival) {
    lost("request " + what());
    return;
  }
  world_.queue().at(*arrival, [this, what = std::move(what), at_server = std::move(at_server), waiter, answer, lost] {
    std::optional<std::string> reply = at_server();
    if (!reply) return;
    const auto back = client_.link.arrival(world_.now(), false, world_.network_rng());
    if (!back) {
      lost("reply to " + what());
      return;
    }
    world_.queue().at(*back, [this, waiter, answer, text = std::move(*reply)] {
      if (waiter->done) return;
      if (answer) *answer = text;
      complete(waiter, true);
    });
  });
}

client::Task<client::CallResult> SimBackend::call(client::Command command, int64_t timeout_ms) {
  // Shared with the events in flight, which may outlive this coroutine (a reply after a timeout).
  const auto shared = std::make_shared<const client::Command>(std::move(command));
  bool as_eval = false;
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto waiter = new_waiter();
    auto reply = std::make_shared<engine::Reply>();
    RedisNode& node = world_.node(shared->server);
    round_trip([shared] { return summary(*shared); },
               [&node, who = &client_.name, shared, as_eval, reply]() -> std::optional<std::string> {
                 if (!node.up()) return std::nullopt;
                 *reply = node.execute(*who, *shared, as_eval);
                 return std::string();
               },
               waiter, nullptr);
    complete_at(world_.now() + timeout_ms, waiter, false);
    const bool answered = co_await Park{waiter.get()};
    if (!answered) co_return client::CallResult{true, {}};
    // A script the server does not know (a restart emptied its cache) is sent again in full.
    if (shared->script && !as_eval && reply->is_error() && reply->str.rfind("NOSCRIPT", 0) == 0) {
      as_eval = true;
      continue;
    }
    co_return client::CallResult{false, std::move(*reply)};
  }
  co_return client::CallResult{true, {}};
}

client::Task<bool> SimBackend::subscribe(std::string channel, int64_t timeout_ms, int server) {
  const std::string key = channel_key(channel, server);
  ChannelState& state = client_.channels[key];
  ++state.references;
  if (state.confirmed) co_return true;
  auto waiter = new_waiter();
  RedisNode& node = world_.node(server);
  const std::string who = client_.name;
  round_trip([channel] { return "SUBSCRIBE " + channel; },
             [&node, who, channel]() -> std::optional<std::string> {
               if (!node.up()) return std::nullopt;
               node.pubsub(who, {"SUBSCRIBE", channel});
               return std::string();
             },
             waiter, nullptr);
  if (timeout_ms >= 0) complete_at(world_.now() + timeout_ms, waiter, false);
  const bool confirmed = co_await Park{waiter.get()};
  auto it = client_.channels.find(key);
  if (confirmed && it != client_.channels.end()) it->second.confirmed = true;
  co_return confirmed;
}

void SimBackend::unsubscribe(const std::string& channel, int server) {
  auto it = client_.channels.find(channel_key(channel, server));
  if (it == client_.channels.end()) return;
  if (--it->second.references > 0) return;
  client_.channels.erase(it);
  RedisNode& node = world_.node(server);
  const std::string who = client_.name;
  round_trip([channel] { return "UNSUBSCRIBE " + channel; },
             [&node, who, channel]() -> std::optional<std::string> {
               if (node.up()) node.pubsub(who, {"UNSUBSCRIBE", channel});
               return std::nullopt;  // nobody waits for this reply
             },
             new_waiter(), nullptr);
}

client::Task<bool> SimBackend::wait_message(std::string channel, int64_t timeout_ms, int server) {
  auto it = client_.channels.find(channel_key(channel, server));
  if (it != client_.channels.end() && it->second.permits > 0) {
    --it->second.permits;
    co_return true;
  }
  auto waiter = new_waiter();
  if (it != client_.channels.end()) it->second.waiters.push_back(waiter);
  if (timeout_ms >= 0) complete_at(world_.now() + timeout_ms, waiter, false);
  co_return co_await Park{waiter.get()};
}

void SimBackend::on_message(const std::string& channel, int server) {
  auto it = client_.channels.find(channel_key(channel, server));
  if (it == client_.channels.end()) return;
  auto& waiters = it->second.waiters;
  waiters.erase(std::remove_if(waiters.begin(), waiters.end(), [](const auto& w) { return w->done; }), waiters.end());
  if (waiters.empty()) {
    ++it->second.permits;
    return;
  }
  auto first = waiters.front();
  waiters.erase(waiters.begin());
  complete(first, true);
}

client::Task<int> SimBackend::write_fenced(std::string resource, int64_t token, int64_t thread, int64_t timeout_ms) {
  auto waiter = new_waiter();
  auto answer = std::make_shared<std::string>();
  World& world = world_;
  const std::string who = client_.name;
  round_trip([resource] { return "write " + resource; },
             [&world, who, resource, token, thread]() -> std::optional<std::string> {
               const bool accepted = world.resource(resource).write(token);
               model::Event e;
               e.kind = model::EventKind::Write;
               e.process = who;
               e.thread = thread;
               e.lock = resource;
               e.f = accepted ? "accepted" : "rejected";
               e.value = token;
               world.record(std::move(e));
               return std::string(accepted ? "1" : "0");
             },
             waiter, answer);
  complete_at(world_.now() + timeout_ms, waiter, false);
  const bool answered = co_await Park{waiter.get()};
  if (!answered) co_return -1;
  co_return *answer == "1" ? 1 : 0;
}

void SimBackend::spawn(client::Task<void> task) { world_.spawn(client_, std::move(task)); }

void SimBackend::record(model::Event event) {
  if (event.process.empty()) event.process = client_.name;
  world_.record(std::move(event));
}

int64_t SimBackend::next_op() { return world_.next_op_id(); }

std::string SimBackend::random_token() {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(client_.rng.next()),
                static_cast<unsigned long long>(client_.rng.next()));
  return buf;
}

}  // namespace locksim::world
