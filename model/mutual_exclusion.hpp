#pragma once
// Mutual exclusion: for each lock, no two owners' believed-holding intervals overlap (facts.hpp's
// Belief: from the Hold that takes an owner from depth 0 to its Release back to 0, an unlock begun
// or a crash). Events at one ms count in recorded order, so a Release recorded before the other
// owner's Hold is no overlap. The property is about beliefs; the evidence adds what the server held:
// where each holder's acquire ran and when its reply came, and what had become of the earlier
// holder's hold in the key when the later one was let in (expired, removed, lost in a restart or
// failover, or still there). Anomaly: mutex-overlap. Applies to every lock type but rwlock (whose
// readers share by design: read_write judges it).
#include <memory>

#include "model/facts.hpp"
#include "model/judge.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct MutualExclusionOptions {};

Verdict check_mutual_exclusion(const Facts& facts, const MutualExclusionOptions& options = {});
std::unique_ptr<Judge> mutual_exclusion_judge(const Facts& facts, const MutualExclusionOptions& options = {});

}  // namespace locksim::model
