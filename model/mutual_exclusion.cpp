#include "model/mutual_exclusion.hpp"

#include <algorithm>
#include <map>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"
#include "model/holder_story.hpp"

namespace locksim::model {

Verdict check_mutual_exclusion(const Facts& facts, const MutualExclusionOptions&) {
  std::map<std::string, std::vector<const Belief*>> by_lock;
  size_t intervals = 0;
  for (const Belief& b : facts.beliefs()) {
    ++intervals;
    auto& earlier = by_lock[b.lock];
    // Beliefs come in the order they began: one ended by the time this one began has ended for
    // every later one too, so it is dropped, and each belief is compared with those still open.
    std::erase_if(earlier, [&](const Belief* a) { return a->span.end >= 0 && a->span.end <= b.span.begin; });
    const Belief* first = nullptr;
    for (const Belief* a : earlier) {
      if (a->owner == b.owner) continue;
      const bool open = a->span.end < 0 || a->span.end > b.span.begin;
      if (open && (!first || a->span.begin < first->span.begin)) first = a;
    }
    earlier.push_back(&b);
    if (!first) continue;
    std::vector<Evidence> ev;
    ev.push_back(support::belief_evidence(facts, "first_hold", *first));
    ev.push_back(support::event_evidence(facts, "second_hold", b.span.begin));
    const auto first_grants = grant_evidence(facts, "first_grant", first->span.begin);
    const auto second_grants = grant_evidence(facts, "second_grant", b.span.begin);
    ev.insert(ev.end(), first_grants.begin(), first_grants.end());
    ev.insert(ev.end(), second_grants.begin(), second_grants.end());
    // Key by key, what the server had done with the other's hold when it let the next one in.
    for (const Evidence& g2 : second_grants)
      for (const Evidence& g1 : first_grants) {
        if (g1.where != g2.where) continue;
        const auto fate = g1.event < g2.event
                              ? claim_fate(facts, "first_claim", first->owner, first->lock, g1.event, g2.event)
                              : claim_fate(facts, "second_claim", b.owner, b.lock, g2.event, g1.event);
        ev.insert(ev.end(), fate.begin(), fate.end());
      }
    for (Evidence& f : support::faults_beside(facts, first->span.from_ms, b.span.from_ms,
                                              [&] {
                                                std::vector<std::string> who{first->process, b.process};
                                                for (const KeyTrack* k : facts.parts(b.lock)) who.push_back(k->server);
                                                return who;
                                              }()))
      ev.push_back(std::move(f));
    return support::violated(property::kMutualExclusion, anomaly::kMutexOverlap, std::move(ev));
  }
  return support::holds(property::kMutualExclusion,
                        {support::figure("intervals", static_cast<int64_t>(intervals)),
                         support::figure("locks", static_cast<int64_t>(by_lock.size()))});
}

}  // namespace locksim::model
