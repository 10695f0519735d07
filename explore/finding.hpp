#pragma once
// A finding's signature: what makes two counterexamples the same finding. The property, its anomaly,
// which side of a differential run violates it, and the shape of the shrunk case: its steps in
// order (operations with their kind, lease and side; faults with their kind), clients and threads
// renamed by first appearance, times and durations left out. Seeds that shrink to one signature are
// one finding, reported once with their count.
#include <string>

#include "scenario/scenario.hpp"

namespace locksim::explore {

struct Signature {
  std::string id;     // 8 hex digits of the text's SHA-1: the same in every process and shard
  std::string shape;  // "B lock, pause B, A lock": the steps with the case's own names, for people
  std::string text;   // property, anomaly, side and shape: what the id hashes
};

// `side` is "" for a plain run, else which configuration violates ("config" or "against").
Signature signature_of(const scenario::Scenario& shrunk, const std::string& property, const std::string& anomaly,
                       const std::string& side);

}  // namespace locksim::explore
