#include "report/verdict_json.hpp"

#include "model/facts.hpp"

namespace locksim::report {

nlohmann::ordered_json evidence_json(const model::Verdict& verdict) {
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  for (const model::Evidence& e : verdict.evidence) {
    nlohmann::ordered_json j;
    j["role"] = e.role;
    if (e.event >= 0) j["event"] = e.event;
    if (e.end_event >= 0) j["end_event"] = e.end_event;
    if (e.from_ms >= 0) j["from_ms"] = e.from_ms;
    if (e.to_ms == model::kForever) j["to_ms"] = "end";
    else if (e.to_ms >= 0) j["to_ms"] = e.to_ms;
    if (!e.who.empty()) j["who"] = e.who;
    if (!e.where.empty()) j["where"] = e.where;
    if (!e.state.empty()) j["state"] = e.state;
    if (e.number != 0 || e.role == "figure") j["number"] = e.number;
    items.push_back(std::move(j));
  }
  return items;
}

}  // namespace locksim::report
