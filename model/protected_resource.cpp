#include "model/protected_resource.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

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

// Reads and writes are judged in the order the server ran them, as they are taken; what a later
// write may be judged against (each owner's latest read, the latest update) is kept as evidence, so
// that nothing before the latest event is read again.
class ProtectedResourceJudge final : public Judge {
 public:
  explicit ProtectedResourceJudge(const Facts& facts) : facts_(facts) {}

  void advance(const Settled& settled) override {
    if (verdict_) return;
    judge_taken_events(facts_, settled, next_, [&](const Event& e) { return judge(e); });
  }

  Verdict verdict() override {
    if (verdict_) return *verdict_;
    if (judged_ == 0)
      return support::nothing_to_judge(property::kResource,
                                       "no read followed by a write of the protected resource by the same client");
    return support::holds(property::kResource, {support::figure("judged_writes", judged_),
                                                support::figure("resources", static_cast<int64_t>(resources_.size()))});
  }

  int64_t needs() const override { return verdict_ ? kForever : next_; }

 private:
  struct Access {
    Evidence evidence;
    Atom owner;
    int64_t at_ms = 0;
  };
  struct Resource {
    std::map<std::string, Access> last_read;  // owner -> its latest read
    std::optional<Access> last_update;        // the latest update by anyone
  };

  // Whether `e` decided the verdict.
  bool judge(const Event& e) {
    if (e.kind != EventKind::Exec || (e.f != kResourceRead && e.f != kResourceWrite)) return false;
    Resource& r = resources_[e.lock];
    const std::string owner = e.owner();
    Access access{exec_evidence(facts_, e.f == kResourceRead ? "read" : "other_update", e.index), Atom(owner), e.at_ms};
    if (e.f == kResourceRead) {
      r.last_read[owner] = std::move(access);
      return false;
    }
    const auto read = r.last_read.find(owner);
    if (read != r.last_read.end()) {
      ++judged_;
      const auto& other = r.last_update;
      if (other && other->evidence.event > read->second.evidence.event && other->owner != owner) {
        std::vector<Evidence> ev{read->second.evidence, other->evidence, exec_evidence(facts_, "stale_write", e.index)};
        for (Evidence& f : support::faults_beside(facts_, read->second.at_ms, e.at_ms, {}))
          if (f.event < e.index) ev.push_back(std::move(f));
        verdict_ = support::violated(property::kResource, anomaly::kLostUpdate, std::move(ev));
        return true;
      }
      r.last_read.erase(read);  // one read judges one write
    }
    r.last_update = std::move(access);
    return false;
  }

  const Facts& facts_;
  std::map<std::string, Resource> resources_;
  int64_t judged_ = 0;
  int64_t next_ = 0;  // the next event to judge
  std::optional<Verdict> verdict_;
};

}  // namespace

std::unique_ptr<Judge> protected_resource_judge(const Facts& facts, const ProtectedResourceOptions&) {
  return std::make_unique<ProtectedResourceJudge>(facts);
}

Verdict check_protected_resource(const Facts& facts, const ProtectedResourceOptions& options) {
  return judge_whole(*protected_resource_judge(facts, options), facts);
}

}  // namespace locksim::model
