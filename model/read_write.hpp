#pragma once
// Read-write exclusion, for Redisson's ReadWriteLock, whose two sides are recorded as the locks
// "<name>:read" and "<name>:write". Believed-holding intervals are mutual_exclusion's (from the
// Hold that takes an owner from depth 0 to its Release with value 0). For each <name>: no owner's
// interval on "<name>:write" overlaps another owner's interval on "<name>:write" (write-overlap)
// or on "<name>:read" (read-write-overlap). Readers may overlap each other, and one owner may
// hold both sides (Redisson lets a writer take the read lock). Events at the same ms count in
// recorded order. The first overlap is reported, with mutual_exclusion's evidence (both holds, where
// each acquire ran, what had become of the earlier hold in the hash). Locks of other names are
// ignored. Applies to rwlock.
#include <memory>

#include "model/facts.hpp"
#include "model/judge.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct ReadWriteOptions {};

Verdict check_read_write(const Facts& facts, const ReadWriteOptions& options = {});
std::unique_ptr<Judge> read_write_judge(const Facts& facts, const ReadWriteOptions& options = {});

}  // namespace locksim::model
