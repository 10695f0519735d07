#pragma once
// A client's working connection to a server: the time in which its commands to that server could
// complete. DESIGN.md (Watchdog expiry; Findings) lets a fault excuse a lapse, and explore put a
// finding down to network trouble, only when it left the holder less than one renewal period of
// working connection, in one stretch, before its key expired: a fault of 2 ms on an idle link, or
// one that ended long before the expiry with the holder connected since, explains nothing.
//
// The connection is broken while the client cannot act (paused, partitioned, crashed), while a
// fault on its link loses its messages or slows them so much that a command's round trip reaches
// the client's command timeout (its commands cannot complete: DESIGN's "its commands completing"),
// and while the server cannot answer (paused, down, answering every command with an error). A link
// slowed by less still completes its commands. Faults of an instant (a reset, a restart, a failover)
// break no stretch.
#include <cstdint>
#include <string>
#include <vector>

#include "model/facts.hpp"

namespace locksim::model {

// The spans within [from, to) in which `client`'s connection to `server` was broken, merged.
std::vector<Span> broken_connection(const Facts& facts, const std::string& client, const std::string& server,
                                    int64_t from, int64_t to, int64_t command_timeout_ms);

// The longest stretch within [from, to) in which it worked.
int64_t longest_working_stretch(const Facts& facts, const std::string& client, const std::string& server,
                                int64_t from, int64_t to, int64_t command_timeout_ms);

}  // namespace locksim::model
