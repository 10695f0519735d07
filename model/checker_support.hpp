#pragma once
// What the checkers share and nothing else: building
// verdicts (the explanation rendered from the evidence, the witness gathered from it) and the
// evidence that describes facts (a belief, a fault, a key's state).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/facts.hpp"
#include "model/history.hpp"
#include "model/verdict.hpp"

namespace locksim::model::support {

// "1500 ms".
std::string ms(int64_t t);

// lock or try_lock.
bool is_acquire(std::string_view f);

// Verdicts. The witness is every event the evidence names; the explanation is rendered from it.
Verdict holds(std::string_view property, std::vector<Evidence> figures);
Verdict violated(std::string_view property, std::string_view anomaly, std::vector<Evidence> evidence);
Verdict unknown(std::string_view property, std::string why);
// Unknown, with anomaly::kNothingToJudge: the history had none of `what_none`, the property's inputs
// ("no client held the lock").
Verdict nothing_to_judge(std::string_view property, std::string_view what_none);

// Evidence of common facts.
Evidence figure(std::string name, int64_t n);
Evidence event_evidence(const Facts& facts, std::string role, int64_t index);
Evidence belief_evidence(const Facts& facts, std::string role, const Belief& belief);
Evidence fault_evidence(std::string role, const FaultSpan& fault);
// A key's state, as of `state` (the key's state index) or at an event.
Evidence key_evidence(std::string role, const KeyTrack& key, const KeyState& state);

// The faults in effect at some time in [from, to] on any of `processes` (client faults: the client's
// own process and link; server faults: the servers'), as evidence to report beside a verdict.
std::vector<Evidence> faults_beside(const Facts& facts, int64_t from, int64_t to,
                                    const std::vector<std::string>& processes);

}  // namespace locksim::model::support
