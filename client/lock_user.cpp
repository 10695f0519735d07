#include "client/lock_user.hpp"

#include <stdexcept>

#include "model/events.hpp"

namespace locksim::client {

void LockUser::add_lock(std::unique_ptr<Lock> lock) {
  const std::string name = lock->name();
  locks_[name] = std::move(lock);
}

Lock& LockUser::lock(const std::string& name) {
  auto it = locks_.find(name);
  if (it == locks_.end()) throw std::logic_error("client " + backend_.name() + " has no lock '" + name + "'");
  return *it->second;
}

void LockUser::record_outcome(int64_t thread, int64_t op, const std::string& lock, const std::string& f,
                              const OpResult& result) {
  const model::EventKind kind = result.outcome == OpResult::Outcome::Ok     ? model::EventKind::Ok
                                : result.outcome == OpResult::Outcome::Fail ? model::EventKind::Fail
                                                                            : model::EventKind::Info;
  model::Event e = model::op_event(kind, thread, op, lock, f);
  e.value = result.value;
  e.text = result.why;
  backend_.record(std::move(e));
}

Task<OpResult> LockUser::acquire(int64_t thread, std::string lock, AcquireOptions options) {
  const int64_t op = backend_.next_op();
  const std::string f = options.wait_ms < 0 ? "lock" : "try_lock";
  model::Event invoke = model::op_event(model::EventKind::Invoke, thread, op, lock, f);
  invoke.wait_ms = options.wait_ms;
  invoke.lease_ms = options.lease_ms;
  backend_.record(std::move(invoke));
  acquiring_[thread] = {op, lock, f};
  const OpResult result = co_await this->lock(lock).acquire(thread, op, options);
  // Interrupted: its outcome was recorded then, and the thread has gone on without it.
  if (detached_.erase(op)) co_return result;
  acquiring_.erase(thread);
  record_outcome(thread, op, lock, f, result);
  if (result.outcome == OpResult::Outcome::Ok) {
    model::Event hold = model::op_event(model::EventKind::Hold, thread, op, lock, f);
    hold.value = ++depth_[{lock, thread}];
    hold.lease_ms = options.lease_ms;
    backend_.record(std::move(hold));
  }
  co_return result;
}

Interruption LockUser::interrupt(int64_t thread) {
  const auto it = acquiring_.find(thread);
  if (it == acquiring_.end()) return {};
  // A copy: a wait that ends resumes the acquire at once, which may end and forget it.
  const Acquiring a = it->second;
  const Interruption what = lock(a.lock).interrupt(thread);
  if (what.kind == Interruption::Kind::Detached) {
    record_outcome(thread, a.op, a.lock, a.f, what.result);
    detached_.insert(a.op);
    acquiring_.erase(thread);
  }
  return what;
}

Task<OpResult> LockUser::release(int64_t thread, std::string lock) {
  const int64_t op = backend_.next_op();
  backend_.record(model::op_event(model::EventKind::Invoke, thread, op, lock, "unlock"));
  auto it = depth_.find({lock, thread});
  if (it != depth_.end()) {
    model::Event release = model::op_event(model::EventKind::Release, thread, op, lock, "unlock");
    release.value = --it->second;
    if (it->second == 0) depth_.erase(it);
    backend_.record(std::move(release));
  }
  const OpResult result = co_await this->lock(lock).release(thread, op);
  record_outcome(thread, op, lock, "unlock", result);
  co_return result;
}

Task<OpResult> LockUser::force_release(int64_t thread, std::string lock) {
  const int64_t op = backend_.next_op();
  backend_.record(model::op_event(model::EventKind::Invoke, thread, op, lock, "force_unlock"));
  const OpResult result = co_await this->lock(lock).force_release(op);
  record_outcome(thread, op, lock, "force_unlock", result);
  co_return result;
}

Task<OpResult> LockUser::query(int64_t thread, std::string lock, std::string f) {
  const int64_t op = backend_.next_op();
  backend_.record(model::op_event(model::EventKind::Invoke, thread, op, lock, f));
  Lock& l = this->lock(lock);
  OpResult result;
  if (f == "is_locked") {
    result = co_await l.is_locked(op);
  } else {
    result = co_await l.is_held(thread, op);
  }
  record_outcome(thread, op, lock, f, result);
  co_return result;
}

Task<OpResult> LockUser::work(int64_t thread, int64_t ms) {
  const int64_t op = backend_.next_op();
  model::Event invoke = model::op_event(model::EventKind::Invoke, thread, op, "", "work");
  invoke.value = ms;
  backend_.record(std::move(invoke));
  co_await backend_.sleep(ms);
  const OpResult result = OpResult::ok(ms);
  record_outcome(thread, op, "", "work", result);
  co_return result;
}

Task<OpResult> LockUser::write(int64_t thread, std::string lock) {
  const int64_t op = backend_.next_op();
  const int64_t token = this->lock(lock).token(thread);
  model::Event invoke = model::op_event(model::EventKind::Invoke, thread, op, lock, "write");
  invoke.value = token;
  backend_.record(std::move(invoke));
  const int answer = co_await backend_.write_fenced(lock, token, thread, 3000);
  const OpResult result = answer == 1   ? OpResult::ok(token)
                          : answer == 0 ? OpResult::fail("rejected: a newer token was seen")
                                        : OpResult::unknown("timeout");
  record_outcome(thread, op, lock, "write", result);
  co_return result;
}

bool LockUser::describe(StateWriter& out, int64_t client_now_ms) const {
  for (const auto& [held, depth] : depth_) out.field("believes", held.first).field("thread", held.second).field("depth", depth);
  bool whole = true;
  for (const auto& [name, lock] : locks_) {
    out.begin("lock");
    whole = lock->describe(out, client_now_ms) && whole;
    out.end();
  }
  return whole;
}

}  // namespace locksim::client
