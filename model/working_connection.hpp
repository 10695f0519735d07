#pragma once
// A client's working connection to a server: the time in which its commands to that server could
// complete. DESIGN.md (Watchdog expiry; Findings) lets a fault excuse a lapse, and explore put a
// finding down to network trouble, only when it left the holder less than one renewal period of
// working connection, in one stretch, before its key expired: a fault of 2 ms on an idle link, or
// one that ended long before the expiry with the holder connected since, explains nothing.
//
// The connection is broken while the client cannot act (paused, partitioned, crashed), while a
// fault on its link loses its messages or slows them by `slow_ms` or more, and while the server
// cannot answer (paused, down, answering every command with an error). A message slowed by less
// still arrives and runs: a renewal delayed a second extends the key all the same, whatever the
// client makes of its late reply (Redisson 3.44.0 on survives such a link; up to 3.43.x one
// timed-out renewal stops the watchdog for good, #3194, which is the bug, not the link's).
// Faults of an instant (a reset, a restart, a failover) break no stretch.
#include <cstdint>
#include <string>
#include <vector>

#include "model/facts.hpp"

namespace locksim::model {

// The spans within [from, to) in which `client`'s connection to `server` was broken, merged.
std::vector<Span> broken_connection(const Facts& facts, const std::string& client, const std::string& server,
                                    int64_t from, int64_t to, int64_t slow_ms);

// The longest stretch within [from, to) in which it worked. For the watchdog, `slow_ms` is its renewal
// period: a link slower than that keeps a renewal from the key in time.
int64_t longest_working_stretch(const Facts& facts, const std::string& client, const std::string& server,
                                int64_t from, int64_t to, int64_t slow_ms);

}  // namespace locksim::model
