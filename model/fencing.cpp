#include "model/fencing.hpp"

#include <map>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"

namespace locksim::model {
namespace {

// The execution that handed out `token` to `owner` before event `before`: its acquire operation's
// fence request (role "fence") answering the token; -1 when the history shows none.
int64_t token_source(const Facts& facts, const std::string& owner, int64_t token, int64_t before) {
  int64_t found = -1;
  for (const Op& op : facts.ops()) {
    if (op.owner != owner || op.invoke > before) continue;
    for (int64_t i : op.execs) {
      const Event& x = facts.at(i);
      if (i < before && x.f == "fence" && x.reply == std::to_string(token)) found = i;
    }
  }
  return found;
}

}  // namespace

Verdict check_fencing(const Facts& facts, const FencingOptions& options) {
  // resource -> owner -> the accepted write with that owner's highest token so far
  std::map<std::string, std::map<std::string, int64_t>> highest;
  size_t accepted = 0;
  for (const Event& e : facts.history().events()) {
    if (e.kind != EventKind::Write || e.f != "accepted") continue;
    if (e.value == 0 && !options.unfenced_is_zero) continue;
    ++accepted;
    auto& owners = highest[e.lock];
    const std::string owner = e.owner();
    int64_t against = -1;  // another holder's write with a token >= this one (the highest such)
    for (const auto& [other, index] : owners) {
      if (other == owner) continue;
      const Event& w = facts.at(index);
      if (w.value >= e.value && (against < 0 || w.value > facts.at(against).value)) against = index;
    }
    if (against >= 0) {
      const Event& w = facts.at(against);
      std::vector<Evidence> ev{support::event_evidence(facts, "earlier_write", against),
                               support::event_evidence(facts, "later_write", e.index)};
      const int64_t earlier_source = token_source(facts, w.owner(), w.value, against);
      const int64_t later_source = token_source(facts, owner, e.value, e.index);
      if (earlier_source >= 0) ev.push_back(support::event_evidence(facts, "earlier_token", earlier_source));
      if (later_source >= 0) ev.push_back(support::event_evidence(facts, "later_token", later_source));
      if (earlier_source >= 0 && later_source >= 0) {
        const Event& a = facts.at(std::min(earlier_source, later_source));
        const Event& b = facts.at(std::max(earlier_source, later_source));
        for (Evidence& f : support::faults_beside(facts, a.at_ms, b.at_ms, {a.process, b.process}))
          if (f.event > a.index && f.event < b.index) ev.push_back(std::move(f));
      }
      const auto anomaly = w.value == e.value ? anomaly::kSharedToken : anomaly::kFencingOrder;
      return support::violated(property::kFencing, anomaly, std::move(ev));
    }
    const auto it = owners.find(owner);
    if (it == owners.end() || facts.at(it->second).value < e.value) owners[owner] = e.index;
  }
  return support::holds(property::kFencing, {support::figure("accepted_writes", static_cast<int64_t>(accepted))});
}

}  // namespace locksim::model
