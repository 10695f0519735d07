#pragma once
// The history's events as their writers make them: one small function per kind of event, so the
// clients, the world and both kinds of server fill each kind the same way.
#include <cstdint>
#include <string>
#include <string_view>

#include "model/history.hpp"

namespace locksim::model {

// A server's name in histories: "redis0", "redis1", ...
std::string server_name(int server);

// A client operation's Invoke, Ok, Fail, Info or Hold (the backend fills in the client).
Event op_event(EventKind kind, int64_t thread, int64_t op, std::string lock, std::string f);

// A watchdog renewal's answer (value: 1 renewed, 0 refused, -1 no reply; `why` when no reply).
Event renew_event(int64_t thread, std::string lock, int64_t value, std::string why);

// A client's belief ends because it crashed.
Event crash_release(std::string client, int64_t thread, std::string lock);

// A fault of `process` (fault_events.hpp names them); `for_ms` -1 when it is an instant or ends at
// a later event.
Event fault_event(std::string process, std::string_view f, int64_t value, int64_t for_ms, std::string text = {});

// A key event on `server` ("created", "expire_set", ...); `expire_at_ms` 0 when none.
Event key_event(std::string server, std::string key, std::string f, int64_t expire_at_ms);

// A pub/sub message on `channel` for `client`, "delivered" or "lost".
Event message_event(std::string client, Atom channel, std::string_view f);

// A request or reply a link lost (the backend fills in the client).
Event lost_message(std::string what);

// A write with `token` reached the fenced resource, accepted or rejected.
Event write_event(std::string client, int64_t thread, std::string resource, bool accepted, int64_t token);

// The run stops here.
Event end_event();

// What a server ran for a client, with the lock key around it.
struct Execution {
  int server = 0;
  std::string client{};
  int64_t thread = 0;
  int64_t op = 0;
  std::string lock{};     // the lock key ("" when the command concerns none)
  std::string role{};     // acquire, unlock, renew, ...
  Atom command{};  // as the history shows it ("A rlock_acquire orders 30000 uuid:1")
  Atom reply{};    // rendered (locksim::describe)
  Atom before{};   // the lock key before and after, rendered (rendered.hpp)
  Atom after{};
  int64_t sent_ms = -1;
  int64_t sent_index = -1;  // the history's size when it was sent (-1: not known)
  int64_t ttl_ms = -2;    // the lock key's PTTL after it
  Atom queue{};    // a FairLock's queue after it, rendered ("" when the command names none)
};
Event exec_event(Execution x);

}  // namespace locksim::model
