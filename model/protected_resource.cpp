#include "model/protected_resource.hpp"

#include <map>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"

namespace locksim::model {

namespace {

// An Exec's evidence names the client whose command it ran, not the server.
Evidence exec_evidence(const Facts& facts, std::string role, int64_t index) {
  Evidence e = support::event_evidence(facts, std::move(role), index);
  e.who = facts.at(index).client;
  return e;
}

}  // namespace

Verdict check_protected_resource(const Facts& facts, const ProtectedResourceOptions&) {
  struct Resource {
    std::map<std::string, int64_t> last_read;  // owner -> its latest read (event index)
    int64_t last_update = -1;                  // the latest update by anyone
  };
  std::map<std::string, Resource> resources;
  int64_t judged = 0;
  for (const Event& e : facts.history().events()) {
    if (e.kind != EventKind::Exec || (e.f != kResourceRead && e.f != kResourceWrite)) continue;
    Resource& r = resources[e.lock];
    const std::string owner = e.owner();
    if (e.f == kResourceRead) {
      r.last_read[owner] = e.index;
      continue;
    }
    const auto read = r.last_read.find(owner);
    if (read != r.last_read.end()) {
      ++judged;
      const int64_t other = r.last_update;
      if (other > read->second && facts.at(other).owner() != owner) {
        std::vector<Evidence> ev{exec_evidence(facts, "read", read->second),
                                 exec_evidence(facts, "other_update", other),
                                 exec_evidence(facts, "stale_write", e.index)};
        const Event& r0 = facts.at(read->second);
        for (Evidence& f : support::faults_beside(facts, r0.at_ms, e.at_ms, {}))
          if (f.event < e.index) ev.push_back(std::move(f));
        return support::violated(property::kResource, anomaly::kLostUpdate, std::move(ev));
      }
      r.last_read.erase(read);  // one read judges one write
    }
    r.last_update = e.index;
  }
  if (judged == 0)
    return support::unknown(property::kResource,
                            "no read followed by a write of the protected resource by the same client: nothing to judge");
  return support::holds(property::kResource, {support::figure("judged_writes", judged),
                                              support::figure("resources", static_cast<int64_t>(resources.size()))});
}

}  // namespace locksim::model
