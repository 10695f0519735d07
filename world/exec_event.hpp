#pragma once
// The Exec event of a client's request that a server ran, made the same way by a simulated and a
// live server, so checkers read both backends' histories alike.
#include <cstdint>
#include <string>

#include "base/atom.hpp"
#include "base/reply.hpp"
#include "client/backend.hpp"
#include "model/history.hpp"

namespace locksim::world {

// When a request was sent: the run time, and the history's size then (what was recorded before it).
struct Sent {
  int64_t ms = -1;
  int64_t index = -1;
};

// What the server held around the request, rendered as model/rendered.hpp writes keys.
struct AroundRequest {
  Atom before{};  // the lock key before and after
  Atom after{};
  int64_t ttl_ms = -2;   // the lock key's PTTL after (-2 none, -1 no expiry)
  Atom queue{};   // a FairLock's queue after ("" when the request names none)
};

model::Event exec_event(int server, const std::string& client, const client::Command& command, Sent sent,
                        const Reply& reply, AroundRequest around);

}  // namespace locksim::world
