#pragma once
// Mutual exclusion: for each lock, an owner's believed-holding interval runs from its Hold that
// takes it from depth 0 to 1 to its Release with value 0 (unlock or crash); no two owners'
// intervals on one lock overlap. Events at the same ms count in recorded order, so a Release
// recorded before the other owner's Hold is no overlap. Anomaly: mutex-overlap, witnessed by the
// earlier holder's Hold, the later holder's Hold and the earlier holder's Release if any.
#include "model/history.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct MutualExclusionOptions {};

Verdict check_mutual_exclusion(const History& history, const MutualExclusionOptions& options = {});

}  // namespace locksim::model
