#pragma once
// What the server did for a holder, as evidence: the executions that let an owner in (one per key:
// a MultiLock's parts, a RedLock's servers), and what had become of an owner's hold in a key by
// some moment (expired, removed by whom, lost to a restart or failover, or still there); and the
// story of two holds that overlapped, which mutual exclusion and read-write exclusion both tell.
#include <string>
#include <string_view>
#include <vector>

#include "model/facts.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

// The executions that granted the hold begun by the Hold event `hold`: per key, its operation's last
// execution before the Hold that put the owner's hold into that key, as evidence with role `role`
// (where: the key; number: ms from it to the Hold, i.e. how long the reply took). None when the
// history shows no such execution (a client-side re-entry, a planted script that answered "yes"
// without writing).
std::vector<Evidence> grant_evidence(const Facts& facts, const std::string& role, int64_t hold);

// What had become, by event `by`, of the hold `owner` took on `lock` at the execution `granted`:
// role `role`, state "expired" (from_ms: when its expiry passed), "removed" (who: by whose command;
// the execution `by` itself when it replaced the hold), "lost" (in the fault `who` names) or "held"
// (still in the key when `by` ran). None when `granted` is -1.
std::vector<Evidence> claim_fate(const Facts& facts, const std::string& role, const std::string& owner,
                                 const std::string& lock, int64_t granted, int64_t by);

// `property` violated with `anomaly`: `second` began while `first` (begun earlier) still held. The
// evidence: both holds, the grants of each, key by key what had become of the earlier-granted hold
// when the other was let in, and the faults beside them.
Verdict overlap_story(const Facts& facts, const Belief& first, const Belief& second, std::string_view property,
                      std::string_view anomaly);

}  // namespace locksim::model
