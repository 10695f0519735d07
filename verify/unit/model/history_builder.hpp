#pragma once
// Hand-building histories for checker tests, an event a call, each field named as the history
// file names it (`t`, `p`, `thread`, `op`, `lock`, `f`, `reply`, `before`, `after`, `ttl`, `sent`, `sent_i`,
// ...), so a fixture reads like the history.jsonl it stands for. Only what differs from the usual
// is written (thread 1, the lock "orders", server redis0, no lease). Each call returns the event's
// index. An Exec's client is the process that invoked its op (name it with `.client` for renewals,
// whose op is 0). A field without a default must be given (-Wextra warns when it is not).
#include <map>
#include <string>

#include "model/history.hpp"

namespace locksim::model::test {

class HistoryBuilder {
 public:
  struct InvokeArgs {
    int64_t t;
    std::string p;
    int64_t thread = 1;
    int64_t op;
    std::string f;  // lock, try_lock, unlock, ...
    std::string lock = "orders";
    int64_t wait_ms = -1;
    int64_t lease_ms = -1;
  };
  struct OutcomeArgs {
    int64_t t;
    EventKind kind;
    std::string p;
    int64_t thread = 1;
    int64_t op;
    std::string f;
    std::string lock = "orders";
    int64_t value = 1;
    std::string text = "";
  };
  struct OkArgs {
    int64_t t;
    std::string p;
    int64_t thread = 1;
    int64_t op;
    std::string f;
    std::string lock = "orders";
    int64_t value = 1;
  };
  struct FailArgs {
    int64_t t;
    std::string p;
    int64_t thread = 1;
    int64_t op;
    std::string f;
    std::string lock = "orders";
    std::string text = "not acquired";
  };
  struct InfoArgs {
    int64_t t;
    std::string p;
    int64_t thread = 1;
    int64_t op;
    std::string f;
    std::string lock = "orders";
  };
  struct HoldArgs {
    int64_t t;
    std::string p;
    int64_t thread = 1;
    std::string lock = "orders";
    int64_t depth;  // the history's value
    int64_t lease_ms = -1;
    int64_t op = 0;
  };
  struct ReleaseArgs {
    int64_t t;
    std::string p;
    int64_t thread = 1;
    std::string lock = "orders";
    int64_t depth;  // after the release (the history's value)
    std::string f = "unlock";
    int64_t op = 0;
  };
  struct ExecArgs {
    int64_t t;
    int64_t thread = 1;
    int64_t op;
    std::string lock = "orders";
    std::string f;  // the command's role: acquire, unlock, renew, ...
    std::string reply;
    std::string before = "";
    std::string after = "";
    std::string p = "redis0";  // the server
    int64_t ttl = -3;          // the key's PTTL after (-2 none, -1 no expiry); -3: 30000 when `after` has a key
    std::string client = "";   // "": the process that invoked `op`
    int64_t sent = -1;
    int64_t sent_i = -1;
    std::string queue = "";    // a FairLock's queue after it, as the history renders it ("[A:1,B:1]")
  };
  struct KeyArgs {
    int64_t t;
    std::string lock = "orders";
    std::string f;  // created, expire_set, expired, deleted, ...
    int64_t value = 0;
    std::string p = "redis0";
  };
  struct FaultArgs {
    int64_t t;
    std::string p;
    std::string f;
    int64_t value = 0;
    int64_t for_ms = -1;  // how long it lasts (pause, partition, delay, loss); -1 for an instant or open-ended one
  };
  struct WriteArgs {
    int64_t t;
    std::string p;
    std::string f;
    int64_t value;          // the fencing token
    std::string lock = "";  // the resource
  };
  struct AcquireArgs {
    int64_t t;
    std::string p;
    int64_t thread = 1;
    int64_t op;
    std::string lock = "orders";
    int64_t depth;
    std::string before = "";
    std::string after = "";
    int64_t lease_ms = -1;
  };
  struct UnlockArgs {
    int64_t t;
    std::string p;
    int64_t thread = 1;
    int64_t op;
    std::string lock = "orders";
    int64_t depth;  // after the unlock
    std::string before = "";
    std::string after = "";
  };

  int64_t add(Event e) { return history_.add(std::move(e)).index; }

  int64_t invoke(InvokeArgs a) {
    Event e = client(a.t, EventKind::Invoke, a.p, a.thread, a.op, a.lock, a.f);
    e.wait_ms = a.wait_ms;
    e.lease_ms = a.lease_ms;
    if (a.op != 0) process_of_op_[a.op] = a.p;
    return add(std::move(e));
  }
  int64_t outcome(OutcomeArgs a) {
    Event e = client(a.t, a.kind, a.p, a.thread, a.op, a.lock, a.f);
    e.value = a.value;
    e.text = a.text;
    return add(std::move(e));
  }
  int64_t ok(OkArgs a) {
    return outcome({.t = a.t,
                    .kind = EventKind::Ok,
                    .p = a.p,
                    .thread = a.thread,
                    .op = a.op,
                    .f = a.f,
                    .lock = a.lock,
                    .value = a.value});
  }
  int64_t fail(FailArgs a) {
    return outcome({.t = a.t,
                    .kind = EventKind::Fail,
                    .p = a.p,
                    .thread = a.thread,
                    .op = a.op,
                    .f = a.f,
                    .lock = a.lock,
                    .value = 0,
                    .text = a.text});
  }
  int64_t info(InfoArgs a) {
    return outcome({.t = a.t,
                    .kind = EventKind::Info,
                    .p = a.p,
                    .thread = a.thread,
                    .op = a.op,
                    .f = a.f,
                    .lock = a.lock,
                    .value = 0,
                    .text = "timeout"});
  }
  int64_t hold(HoldArgs a) {
    Event e = client(a.t, EventKind::Hold, a.p, a.thread, a.op, a.lock, "lock");
    e.value = a.depth;
    e.lease_ms = a.lease_ms;
    return add(std::move(e));
  }
  int64_t release(ReleaseArgs a) {
    Event e = client(a.t, EventKind::Release, a.p, a.thread, a.op, a.lock, a.f);
    e.value = a.depth;
    return add(std::move(e));
  }
  int64_t exec(ExecArgs a) {
    Event e = client(a.t, EventKind::Exec, a.p, a.thread, a.op, a.lock, a.f);
    e.text = "EVALSHA " + a.f;
    e.reply = a.reply;
    e.before = a.before;
    e.after = a.after;
    e.client = a.client;
    if (e.client.empty() && process_of_op_.count(a.op)) e.client = process_of_op_.at(a.op);
    e.sent_ms = a.sent;
    e.sent_index = a.sent_i;
    e.ttl_ms = a.ttl != -3 ? a.ttl : a.after.empty() ? -2 : 30000;
    e.queue = a.queue;
    return add(std::move(e));
  }
  // A watchdog renewal of `client`'s hold, run by the server: it answers 1 and sets the key's TTL
  // back to 30000 ms, leaving the key as it was (`holds`, before and after).
  struct RenewalArgs {
    int64_t t = 0;
    std::string client;
    std::string holds;
    int64_t sent = -1;
    int64_t sent_i = -1;
  };
  int64_t renewal(RenewalArgs a) {
    return exec({.t = a.t, .op = 0, .f = "renew", .reply = "1", .before = a.holds, .after = a.holds, .ttl = 30000,
                 .client = a.client, .sent = a.sent, .sent_i = a.sent_i});
  }
  int64_t key(KeyArgs a) {
    Event e = client(a.t, EventKind::Key, a.p, 0, 0, a.lock, a.f);
    e.value = a.value;
    return add(std::move(e));
  }
  int64_t fault(FaultArgs a) {
    Event e = client(a.t, EventKind::Fault, a.p, 0, 0, "", a.f);
    e.value = a.value;
    e.for_ms = a.for_ms;
    return add(std::move(e));
  }
  int64_t write(WriteArgs a) {
    Event e = client(a.t, EventKind::Write, a.p, 1, 0, a.lock, a.f);
    e.value = a.value;
    return add(std::move(e));
  }

  // A whole successful acquire as the world records it: Invoke, server Exec, Ok, Hold.
  struct Acquired {
    int64_t invoke, exec, ok, hold;
  };
  Acquired acquire(AcquireArgs a) {
    Acquired r{};
    r.invoke = invoke(
        {.t = a.t, .p = a.p, .thread = a.thread, .op = a.op, .f = "lock", .lock = a.lock, .lease_ms = a.lease_ms});
    r.exec = exec({.t = a.t + 1,
                   .thread = a.thread,
                   .op = a.op,
                   .lock = a.lock,
                   .f = "acquire",
                   .reply = "nil",
                   .before = a.before,
                   .after = a.after});
    r.ok = ok({.t = a.t + 2, .p = a.p, .thread = a.thread, .op = a.op, .f = "lock", .lock = a.lock});
    r.hold = hold({.t = a.t + 2,
                   .p = a.p,
                   .thread = a.thread,
                   .lock = a.lock,
                   .depth = a.depth,
                   .lease_ms = a.lease_ms,
                   .op = a.op});
    return r;
  }
  // A whole successful unlock: Invoke, Release, server Exec, Ok (value 1: released, 0: still held).
  struct Unlocked {
    int64_t invoke, release, exec, ok;
  };
  Unlocked unlock(UnlockArgs a) {
    Unlocked r{};
    r.invoke = invoke({.t = a.t, .p = a.p, .thread = a.thread, .op = a.op, .f = "unlock", .lock = a.lock});
    r.release = release({.t = a.t, .p = a.p, .thread = a.thread, .lock = a.lock, .depth = a.depth, .op = a.op});
    r.exec = exec({.t = a.t + 1,
                   .thread = a.thread,
                   .op = a.op,
                   .lock = a.lock,
                   .f = "unlock",
                   .reply = a.depth == 0 ? "1" : "0",
                   .before = a.before,
                   .after = a.after});
    r.ok = ok({.t = a.t + 2,
               .p = a.p,
               .thread = a.thread,
               .op = a.op,
               .f = "unlock",
               .lock = a.lock,
               .value = a.depth == 0 ? 1 : 0});
    return r;
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
