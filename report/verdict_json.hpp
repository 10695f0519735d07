#pragma once
// A verdict as JSON, the same in results.json and in explore's JSON lines: property, verdict,
// anomaly, the witness events and the evidence as data (each item with only the fields it has).
#include <nlohmann/json.hpp>

#include "model/verdict.hpp"

namespace locksim::report {

nlohmann::ordered_json evidence_json(const model::Verdict& verdict);

}  // namespace locksim::report
