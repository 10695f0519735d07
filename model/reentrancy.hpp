#pragma once
// Reentrancy counts: a reference model keeps each owner's count per lock from its successful
// client ops (lock/try_lock Ok +1, unlock Ok -1), applied in server order at the op's Exec (role
// acquire or unlock). After that Exec the owner's hash field in `after` equals the model's count
// (absent = 0), and when the model reaches 0 with no other owner in `after` the key is gone
// (after == ""). An unlock by an owner whose count is 0 must Fail and its Exec must leave the key as
// it was. Ops whose outcome is unknown (Info, none) or that have no Exec are not compared: the
// owner's count is taken from the server (that Exec's `after`, or the next Exec's `before`). A Key
// `expired` event, a force_unlock Exec and an Exec finding no key (before == "": lazily expired, lost
// in a restart or failover) set the counts from the server too. Locks whose key is not
// a hash (SET NX token locks) are not checked. Anomalies: reentry-count, unlock-by-non-holder,
// not-freed-at-zero, witnessed by the op's Invoke, its Exec and its outcome.
#include <cstdint>
#include <optional>
#include <string_view>

#include "model/history.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct ReentrancyOptions {};

// The reference model's step: an owner's count after a client op `f` with outcome `outcome`;
// nullopt when the step is impossible (an unlock succeeding for an owner holding nothing).
std::optional<int64_t> reentrancy_step(int64_t count, std::string_view f, EventKind outcome);

Verdict check_reentrancy(const History& history, const ReentrancyOptions& options = {});

}  // namespace locksim::model
