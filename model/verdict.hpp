#pragma once
// Verdict: what a checker says of a history. A violation names its anomaly from a fixed vocabulary
// and carries what it rests on as data (the evidence: holds, intervals, key states, faults, figures,
// each naming the events it comes from); the explanation a person reads is rendered from that data
// (model/explain.hpp), never written separately.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/history.hpp"

namespace locksim::model {

enum class Validity : uint8_t { Yes, No, Unknown };

// One thing a verdict rests on. `role` says what it is in the story (e.g. "first_hold", "free",
// "fault"); the other fields are what is known of it, unset ones at their defaults.
struct Evidence {
  std::string role;
  int64_t event = -1;      // the event it is, or that began it
  int64_t end_event = -1;  // the event that ended it (a span), -1 when none
  int64_t from_ms = -1;    // when (a point: from_ms only)
  int64_t to_ms = -1;      // a span's end (kForever in facts.hpp: still going at the end), -1 for a point
  std::string who;         // an owner ("A:1"), a process or a server
  std::string where;       // a lock, a key ("redis0/orders") or a resource
  std::string state;       // a key's state, a reply, a fault's kind, an outcome
  int64_t number = 0;      // a figure: ms, a token, a count
};

struct Verdict {
  std::string property;           // mutual_exclusion, reentrancy, watchdog, liveness, fencing, ...
  Validity valid = Validity::Yes;
  std::string anomaly;            // e.g. mutex-overlap, reentry-count, watchdog-lapse, starved
  std::vector<int64_t> witness;   // the events of the evidence, ascending
  std::vector<Evidence> evidence;
  std::string explanation;        // rendered from the evidence: "Let ... Then ..."

  // The first evidence with this role, nullptr when none.
  const Evidence* find(std::string_view role) const;
};

std::string_view to_string(Validity v);

// false beats unknown beats true, as Jepsen's compose.
Validity merge(Validity a, Validity b);

}  // namespace locksim::model
