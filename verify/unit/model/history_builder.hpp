#pragma once
// Hand-building histories for checker tests: one call per event, returning its index, with the
// fields each kind of event uses in the order the world records them. An Exec's client is the
// process that invoked its op (set it explicitly for renewals, whose op is 0).
#include <map>
#include <string>

#include "model/history.hpp"

namespace locksim::model::test {

class HistoryBuilder {
 public:
  int64_t add(Event e) { return history_.add(std::move(e)).index; }

  int64_t invoke(int64_t t, const std::string& process, int64_t thread, int64_t op, const std::string& f,
                 const std::string& lock, int64_t wait_ms = -1, int64_t lease_ms = -1) {
    Event e = client(t, EventKind::Invoke, process, thread, op, lock, f);
    e.wait_ms = wait_ms;
    e.lease_ms = lease_ms;
    if (op != 0) process_of_op_[op] = process;
    return add(std::move(e));
  }
  int64_t outcome(int64_t t, EventKind kind, const std::string& process, int64_t thread, int64_t op,
                  const std::string& f, const std::string& lock, int64_t value = 1, const std::string& text = "") {
    Event e = client(t, kind, process, thread, op, lock, f);
    e.value = value;
    e.text = text;
    return add(std::move(e));
  }
  int64_t ok(int64_t t, const std::string& process, int64_t thread, int64_t op, const std::string& f,
             const std::string& lock, int64_t value = 1) {
    return outcome(t, EventKind::Ok, process, thread, op, f, lock, value);
  }
  int64_t fail(int64_t t, const std::string& process, int64_t thread, int64_t op, const std::string& f,
               const std::string& lock, const std::string& why = "not acquired") {
    return outcome(t, EventKind::Fail, process, thread, op, f, lock, 0, why);
  }
  int64_t info(int64_t t, const std::string& process, int64_t thread, int64_t op, const std::string& f,
               const std::string& lock) {
    return outcome(t, EventKind::Info, process, thread, op, f, lock, 0, "timeout");
  }
  int64_t hold(int64_t t, const std::string& process, int64_t thread, const std::string& lock, int64_t depth,
               int64_t lease_ms = -1, int64_t op = 0) {
    Event e = client(t, EventKind::Hold, process, thread, op, lock, "lock");
    e.value = depth;
    e.lease_ms = lease_ms;
    return add(std::move(e));
  }
  int64_t release(int64_t t, const std::string& process, int64_t thread, const std::string& lock, int64_t depth,
                  const std::string& f = "unlock", int64_t op = 0) {
    Event e = client(t, EventKind::Release, process, thread, op, lock, f);
    e.value = depth;
    return add(std::move(e));
  }
  // `ttl_ms`: the key's PTTL after (-2 none, -1 no expiry); by default 30000 when `after` has a key.
  int64_t exec(int64_t t, int64_t thread, int64_t op, const std::string& lock, const std::string& role,
               const std::string& reply, const std::string& before, const std::string& after,
               const std::string& server = "redis0", int64_t ttl_ms = -3, const std::string& by = "",
               int64_t sent_ms = -1) {
    Event e = client(t, EventKind::Exec, server, thread, op, lock, role);
    e.text = "EVALSHA " + role;
    e.reply = reply;
    e.before = before;
    e.after = after;
    e.client = by;
    if (e.client.empty() && process_of_op_.count(op)) e.client = process_of_op_.at(op);
    e.sent_ms = sent_ms;
    e.ttl_ms = ttl_ms != -3 ? ttl_ms : after.empty() ? -2 : 30000;
    return add(std::move(e));
  }
  int64_t key(int64_t t, const std::string& lock, const std::string& f, int64_t value = 0,
              const std::string& server = "redis0") {
    Event e = client(t, EventKind::Key, server, 0, 0, lock, f);
    e.value = value;
    return add(std::move(e));
  }
  // `for_ms`: how long it lasts (pause, partition, delay, loss); -1 for an instant or open-ended one.
  int64_t fault(int64_t t, const std::string& process, const std::string& f, int64_t value = 0, int64_t for_ms = -1) {
    Event e = client(t, EventKind::Fault, process, 0, 0, "", f);
    e.value = value;
    e.for_ms = for_ms;
    return add(std::move(e));
  }
  int64_t write(int64_t t, const std::string& process, const std::string& f, int64_t token,
                const std::string& resource = "") {
    Event e = client(t, EventKind::Write, process, 1, 0, resource, f);
    e.value = token;
    return add(std::move(e));
  }

  // A whole successful acquire as the world records it: Invoke, server Exec, Ok, Hold.
  struct Acquired {
    int64_t invoke, exec, ok, hold;
  };
  Acquired acquire(int64_t t, const std::string& process, int64_t thread, int64_t op, const std::string& lock,
                   int64_t depth, const std::string& before, const std::string& after, int64_t lease_ms = -1) {
    Acquired a{};
    a.invoke = invoke(t, process, thread, op, "lock", lock, -1, lease_ms);
    a.exec = exec(t + 1, thread, op, lock, "acquire", "nil", before, after);
    a.ok = ok(t + 2, process, thread, op, "lock", lock);
    a.hold = hold(t + 2, process, thread, lock, depth, lease_ms, op);
    return a;
  }
  // A whole successful unlock: Invoke, Release, server Exec, Ok (value 1: released, 0: still held).
  struct Unlocked {
    int64_t invoke, release, exec, ok;
  };
  Unlocked unlock(int64_t t, const std::string& process, int64_t thread, int64_t op, const std::string& lock,
                  int64_t depth_after, const std::string& before, const std::string& after) {
    Unlocked u{};
    u.invoke = invoke(t, process, thread, op, "unlock", lock);
    u.release = release(t, process, thread, lock, depth_after, "unlock", op);
    u.exec = exec(t + 1, thread, op, lock, "unlock", depth_after == 0 ? "1" : "0", before, after);
    u.ok = ok(t + 2, process, thread, op, "unlock", lock, depth_after == 0 ? 1 : 0);
    return u;
  }

  const History& history() const { return history_; }

 private:
  static Event client(int64_t t, EventKind kind, const std::string& process, int64_t thread, int64_t op,
                      const std::string& lock, const std::string& f) {
    Event e;
    e.at_ms = t;
    e.kind = kind;
    e.process = process;
    e.thread = thread;
    e.op = op;
    e.lock = lock;
    e.f = f;
    return e;
  }

  History history_;
  std::map<int64_t, std::string> process_of_op_;
};

}  // namespace locksim::model::test
