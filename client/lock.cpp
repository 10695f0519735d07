#include "client/lock.hpp"

namespace locksim::client {

void Lock::describe_waiting(StateWriter& out, int64_t client_now_ms) const {
  for (const auto& [thread, w] : waiting_.threads()) {
    out.begin("waiting").field("thread", thread).id("op", "op", w.op).field("phase", to_string(w.phase));
    out.field("attempts", w.attempts).field("left", w.left_ms).field("charged_ago", client_now_ms - w.since_ms);
    out.field("ttl", w.ttl_ms).field("wait", w.wait_ms).field("lease", w.lease_ms);
    if (w.interrupted) out.flag("interrupted", true);
    out.end();
  }
}

}  // namespace locksim::client
