#pragma once
// Verdict: what a checker says of a history. A violation names its anomaly from a fixed vocabulary,
// the smallest set of events that shows it (the witness) and an explanation a person can read.
#include <cstdint>
#include <string>
#include <vector>

#include "model/history.hpp"

namespace locksim::model {

enum class Validity : uint8_t { Yes, No, Unknown };

struct Verdict {
  std::string property;           // mutual_exclusion, reentrancy, watchdog, liveness, fencing, ...
  Validity valid = Validity::Yes;
  std::string anomaly;            // e.g. mutex-overlap, reentry-count, watchdog-lapse, starved
  std::vector<int64_t> witness;   // event indexes, ascending
  std::string explanation;        // "Let ... Then ..." in plain words
};

std::string_view to_string(Validity v);

// false beats unknown beats true, as Jepsen's compose.
Validity merge(Validity a, Validity b);

}  // namespace locksim::model
