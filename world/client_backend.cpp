#include "world/client_backend.hpp"

#include <algorithm>

#include "base/assert.hpp"
#include "base/pooled.hpp"
#include "client/command_words.hpp"
#include "model/events.hpp"
#include "world/client_process.hpp"
#include "world/harness.hpp"

namespace locksim::world {

bool Park::await_ready() const noexcept { return waiter->done; }
void Park::await_suspend(std::coroutine_handle<> h) noexcept { waiter->handle = h; }
bool Park::await_resume() const noexcept { return waiter->value; }

const std::string& ClientBackend::client_id() const { return client_.uuid; }
const std::string& ClientBackend::name() const { return client_.name; }

int64_t ClientBackend::task() const { return client_.task; }

void ClientBackend::keep(int64_t task, std::string_view what, int64_t value) {
  const auto it = std::find_if(kept_.begin(), kept_.end(), [&](const KeptValue& k) { return k.task == task && k.what == what; });
  if (value < 0) {
    if (it != kept_.end()) kept_.erase(it);
  } else if (it != kept_.end()) {
    it->value = value;
  } else {
    kept_.push_back({task, what, value, nullptr});
  }
}

void ClientBackend::keep_command(int64_t task, std::string_view what, const client::Command* command) {
  keep(task, what, command ? 0 : -1);
  if (!command) return;
  const auto it = std::find_if(kept_.begin(), kept_.end(), [&](const KeptValue& k) { return k.task == task && k.what == what; });
  it->command = command;
}

void ClientBackend::describe(StateWriter& out) const {
  out.field("connection", static_cast<int64_t>(connection_epoch_));
  const int64_t now = world_.now();
  for (const auto& [id, call] : in_flight_) {
    out.begin("call").id("id", "call", static_cast<int64_t>(id));
    client::describe_task(out, "task", call->waiter->task);
    out.flag("done", call->waiter->done).flag("connection_lost", call->connection_lost);
    // Answered (or failed) but not yet taken up (its client paused): what it will read.
    if (call->waiter->done) out.flag("answered", call->waiter->value).field("reply", locksim::describe(call->reply));
    out.field("attempt", call->attempt).flag("as_eval", call->as_eval).flag("loading", call->loading);
    // The first send's stamp acts only where the request may go again (NOSCRIPT: call()).
    if (call->may_resend) out.field("sent_ago", now - call->sent_ms);
    out.end();
  }
  // Sorted: the order values were first kept in is not state.
  std::vector<KeptValue> kept = kept_;
  std::sort(kept.begin(), kept.end(), [](const KeptValue& a, const KeptValue& b) {
    return std::tie(a.task, a.what) < std::tie(b.task, b.what);
  });
  for (const KeptValue& k : kept) {
    client::describe_task(out, "kept_task", k.task).field("kept", k.what).field("value", k.value);
    if (k.command) {
      out.begin("command");
      client::describe_command(out, *k.command);
      out.end();
    }
  }
}

int64_t ClientBackend::now_ms() { return client_.clock.now(world_.epoch_now()); }

std::shared_ptr<Waiter> ClientBackend::new_waiter() const {
  auto waiter = pooled<Waiter>();
  waiter->generation = client_.generation;
  waiter->task = client_.task;
  return waiter;
}

void ClientBackend::complete(const std::shared_ptr<Waiter>& waiter, bool value) {
  if (waiter->done) return;
  waiter->done = true;
  waiter->value = value;
  // Its timeout would find it done and do nothing: it is taken back, unless a scheduler chooses
  // among the events due at once, whose choices (and the schedules saved from them) count it.
  if (!world_.scheduler().decides_order()) world_.queue().cancel(waiter->timer);
  if (waiter->handle) world_.wake(client_, waiter);
}

void ClientBackend::complete_at(int64_t at_ms, const std::shared_ptr<Waiter>& waiter, bool value) {
  EventTag tag = EventTag::of_client(EventKind::Timer, client_.index);
  tag.waiter = waiter.get();
  tag.value = value;
  waiter->timer = world_.queue().at(std::max(at_ms, world_.now()), [this, waiter, value] { complete(waiter, value); }, tag);
}

client::Task<void> ClientBackend::sleep(int64_t ms) {
  auto waiter = new_waiter();
  complete_at(world_.now() + std::max<int64_t>(ms, 0), waiter, true);
  co_await Park{waiter.get()};
}

client::Task<client::CallResult> ClientBackend::call(client::SharedCommand command, int64_t timeout_ms,
                                                    client::ScriptForm form) {
  using client::ScriptForm;
  bool as_eval = command->script && form == ScriptForm::Eval;
  bool loading = false;  // this send is the SCRIPT LOAD of EvalshaLoadEvalsha
  // A script sent again after NOSCRIPT is the same request, decided when it was first sent: every
  // send of it carries that send's stamp. A checker asks what the client held when it sent a request
  // (a renewal sent while unlocking is rightful), and the resend is no new decision of the client's.
  const Sent sent{world_.now(), world_.history_size()};
  for (int attempt = 0; attempt < 3; ++attempt) {
    // Every send of it carries the first one's stamp: while another may follow (NOSCRIPT, or the
    // EVALSHA after a SCRIPT LOAD), that stamp is state.
    const bool may_resend = (command->script && !as_eval && attempt == 0 && form != ScriptForm::Eval) || loading;
    auto call = pooled<InFlight>(InFlight{new_waiter(), Reply(), false, attempt, as_eval, loading, may_resend, sent.ms});
    const uint64_t id = next_call_++;
    in_flight_.emplace_back(id, call);
    // SCRIPT LOAD is a request of its own, on no lock key (CommandAsyncService.loadScript).
    client::SharedCommand sending = command;
    if (loading)
      sending = pooled<const client::Command>(client::Command{.role = "script_load",
                                                              .lock = "",
                                                              .script = nullptr,
                                                              .keys = {},
                                                              .argv = {"SCRIPT", "LOAD", command->script->body},
                                                              .thread = command->thread,
                                                              .op = 0,
                                                              .server = command->server});
    const uint64_t identity = message_identity(Identity() << sending->role << sending->lock << sending->thread
                                                          << static_cast<int64_t>(sending->server));
    send(sending, sent, as_eval && !loading, identity, call->waiter, SharedReply(call, &call->reply));
    complete_at(world_.now() + timeout_ms, call->waiter, false);
    const bool answered = co_await Park{call->waiter.get()};
    const auto it = std::lower_bound(in_flight_.begin(), in_flight_.end(), id,
                                     [](const auto& entry, uint64_t key) { return entry.first < key; });
    if (it != in_flight_.end() && it->first == id) in_flight_.erase(it);
    if (!answered) co_return client::CallResult{true, {}};
    if (call->connection_lost) co_return client::CallResult{false, std::move(call->reply), true};
    Reply& reply = call->reply;
    // A synced request's batch answers the script, then its WAIT (an error window answers one error).
    int64_t synced = -1;
    if (sending->sync_replicas >= 0 && reply.kind == Reply::Kind::Sequence) {
      LS_ASSERT(reply.elements.size() == 2);
      synced = reply.elements[1].kind == Reply::Kind::Integer ? reply.elements[1].integer : 0;
      Reply script = std::move(reply.elements[0]);
      reply = std::move(script);
    }
    if (loading) {  // loaded: EVALSHA again; a failed load is the call's failure, as in Redisson
      if (reply.is_error()) co_return client::CallResult{false, std::move(reply)};
      loading = false;
      continue;
    }
    // A script the server does not know (a restart emptied its cache): sent again in full, or
    // loaded and sent by its SHA again, once.
    const bool noscript = command->script && !as_eval && reply.is_error() && reply.str.rfind("NOSCRIPT", 0) == 0;
    if (noscript && attempt == 0 && form == ScriptForm::EvalshaThenEval) {
      as_eval = true;
      continue;
    }
    if (noscript && attempt == 0 && form == ScriptForm::EvalshaLoadEvalsha) {
      loading = true;
      continue;
    }
    co_return client::CallResult{.reply = std::move(reply), .synced_replicas = synced};
  }
  co_return client::CallResult{true, {}};
}

void ClientBackend::reset() {
  ++connection_epoch_;
  // Failed first, completed after: a completed call resumes its coroutine, which may send again.
  std::vector<std::shared_ptr<InFlight>> failed;
  for (auto& [id, call] : in_flight_) {
    if (call->waiter->done) continue;
    call->reply = Reply::error(client::kConnectionLost);
    call->connection_lost = true;
    failed.push_back(call);
  }
  // They stay listed until their coroutines take the failure up (each removes its own), so that a
  // paused client's state still says what they will read.
  // Redisson's ConnectionWatchdog reconnects a pub/sub connection and subscribes its channels again
  // (reattachPubSub); a SUBSCRIBE that was awaiting its confirmation is confirmed by the new one.
  for (auto& [key, state] : client_.channels) {
    if (state.references <= 0) continue;
    auto waiter = state.subscribing && !state.subscribing->done ? state.subscribing : new_waiter();
    send_subscribe(key.channel, key.server, waiter);
  }
  for (const auto& call : failed) complete(call->waiter, true);
}

client::Task<bool> ClientBackend::subscribe(std::string channel, int64_t timeout_ms, int server) {
  const std::pair<int, std::string_view> key(server, channel);
  auto found = client_.channels.find(key);
  if (found == client_.channels.end()) found = client_.channels.emplace(ChannelKey{server, channel}, ChannelState{}).first;
  ChannelState& state = found->second;
  ++state.references;
  if (state.confirmed) co_return true;
  auto waiter = new_waiter();
  state.subscribing = waiter;
  interruptible_[client_.task] = waiter;
  send_subscribe(channel, server, waiter);
  if (timeout_ms >= 0) complete_at(world_.now() + timeout_ms, waiter, false);
  const bool confirmed = co_await Park{waiter.get()};
  auto it = client_.channels.find(key);
  if (confirmed && it != client_.channels.end()) it->second.confirmed = true;
  co_return confirmed;
}

void ClientBackend::unsubscribe(const std::string& channel, int server) {
  auto it = client_.channels.find(std::pair<int, std::string_view>(server, channel));
  if (it == client_.channels.end()) return;
  if (--it->second.references > 0) return;
  client_.channels.erase(it);
  send_unsubscribe(channel, server);
}

client::Task<bool> ClientBackend::wait_message(std::string channel, int64_t timeout_ms, int server) {
  auto it = client_.channels.find(std::pair<int, std::string_view>(server, channel));
  if (it != client_.channels.end() && it->second.permits > 0) {
    --it->second.permits;
    co_return true;
  }
  auto waiter = new_waiter();
  interruptible_[client_.task] = waiter;
  if (it != client_.channels.end()) it->second.waiters.push_back(waiter);
  if (timeout_ms >= 0) complete_at(world_.now() + timeout_ms, waiter, false);
  co_return co_await Park{waiter.get()};
}

bool ClientBackend::interrupted(int64_t thread) const {
  const auto it = client_.threads.find(thread);
  return it != client_.threads.end() && it->second.interrupted;
}

void ClientBackend::clear_interrupt(int64_t thread) {
  const auto it = client_.threads.find(thread);
  if (it != client_.threads.end()) it->second.interrupted = false;
}

void ClientBackend::interrupt_when_waiting(int64_t thread) { world_.interrupt_soon(client_, thread); }

bool ClientBackend::end_wait(int64_t task) {
  const auto it = interruptible_.find(task);
  if (it == interruptible_.end()) return false;
  const std::shared_ptr<Waiter> waiter = it->second.lock();
  interruptible_.erase(it);
  if (!waiter || waiter->done || !waiter->handle) return false;
  complete(waiter, false);
  return true;
}

void ClientBackend::forget_messages(const std::string& channel, int server) {
  auto it = client_.channels.find(std::pair<int, std::string_view>(server, channel));
  if (it != client_.channels.end()) it->second.permits = 0;
}

void ClientBackend::on_message(const std::string& channel, int server) {
  auto it = client_.channels.find(std::pair<int, std::string_view>(server, channel));
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

void ClientBackend::lost(std::string text) { record(model::lost_message(std::move(text))); }

EventTag ClientBackend::request_tag(int server, uint64_t identity, const client::Command* command, const Waiter* waiter,
                                    uint64_t about) const {
  return {.kind = EventKind::Request,
          .actor = server < 0 ? Actor::world() : Actor::server(server),
          .client = client_.index,
          .server = server,
          .message = identity,
          .command = command,
          .waiter = waiter,
          .epoch = connection_epoch_,
          .about = about};
}

EventTag ClientBackend::reply_tag(const EventTag& request, const Reply* payload) const {
  EventTag tag = request;
  tag.reply = payload;
  tag.kind = EventKind::Reply;
  tag.actor = Actor::client(client_.index);
  tag.message = reply_identity(request.message);
  tag.epoch = connection_epoch_;  // what the reply's action compares with, when it arrives
  return tag;
}

void ClientBackend::hop(const EventTag& tag, EventQueue::Action then, const std::function<std::string()>& what) {
  const bool to_server = tag.kind == EventKind::Request;
  const auto arrival = client_.link.arrival(world_.now(), to_server, client_.index, tag.message, world_.scheduler());
  if (!arrival) {
    lost(what());
    return;
  }
  world_.queue().at(*arrival, std::move(then), tag);
}

client::Task<int> ClientBackend::write_fenced(std::string resource, int64_t token, int64_t thread, int64_t timeout_ms) {
  auto waiter = new_waiter();
  // What the request's and the reply's closures need, shared, so that each is small enough for the
  // agenda to keep in place.
  struct FencedWrite {
    std::string resource;
    int64_t token = 0;
    int64_t thread = 0;
    EventTag request{};
    bool accepted = false;
  };
  auto write = std::make_shared<FencedWrite>(FencedWrite{std::move(resource), token, thread});
  write->request = request_tag(-1, message_identity(Identity() << "fenced write" << write->resource << thread), nullptr,
                               waiter.get(), (Identity() << write->resource << token << thread).value());
  hop(write->request,
      [this, waiter, write] {
        write->accepted = world_.fenced_write(client_.name, write->thread, write->resource, write->token);
        hop(reply_tag(write->request),
            [this, waiter] {
              if (!waiter->done) complete(waiter, true);
            },
            [write] { return "reply to write " + write->resource; });
      },
      [write] { return "request write " + write->resource; });
  complete_at(world_.now() + timeout_ms, waiter, false);
  const bool answered = co_await Park{waiter.get()};
  if (!answered) co_return -1;
  co_return write->accepted ? 1 : 0;
}

void ClientBackend::spawn(client::Task<void> task) { world_.spawn(client_, std::move(task)); }

void ClientBackend::record(model::Event&& event) {
  if (event.process.empty()) event.process = client_.name;
  world_.record(std::move(event));
}

int64_t ClientBackend::next_op() { return world_.next_op_id(); }

std::string ClientBackend::random_token(std::string_view purpose) {
  Rng rng = chance_of(client_.chance_seed, client_.draws.next(Identity() << "token" << purpose), "token");
  // "%016llx%016llx" of two draws, written by hand: a polling lock draws one per attempt, and
  // snprintf was a tenth of a token-lock exploration.
  std::string token(32, '0');
  const uint64_t words[2] = {rng.next(), rng.next()};
  for (size_t i = 0; i < 32; ++i) token[i] = "0123456789abcdef"[(words[i / 16] >> (60 - 4 * (i % 16))) & 0xF];
  return token;
}

int64_t ClientBackend::random_range(std::string_view purpose, int64_t lo, int64_t hi) {
  return chance_of(client_.chance_seed, client_.draws.next(Identity() << "range" << purpose), "range").range(lo, hi);
}

uint64_t ClientBackend::message_identity(Identity what) {
  return client_.occurrences.next(Identity(client_.messages) << static_cast<int64_t>(what.value()));
}

uint64_t ClientBackend::reply_identity(uint64_t request) { return (Identity(request) << "reply").value(); }

}  // namespace locksim::world
