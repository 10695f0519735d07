#include "model/fencing.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

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

// Accepted writes are judged in the order the resource took them, as they are taken. Of each owner's
// highest-token write, what a later write may be judged against is kept as evidence (with where its
// token came from, found while the operation that fetched it is still there), so that nothing before
// the latest event is read again.
class FencingJudge final : public Judge {
 public:
  FencingJudge(const Facts& facts, const FencingOptions& options) : facts_(facts), options_(options) {}

  void advance(const Settled& settled) override {
    if (verdict_) return;
    judge_taken_events(facts_, settled, next_, [&](const Event& e) { return judge(e, settled.end()); });
  }

  Verdict verdict() override {
    if (verdict_) return *verdict_;
    // No write was fenced (none refused, none accepted with a token): a "holds" would say fencing
    // was tested when it was not.
    if (accepted_ + rejected_ == 0)
      return support::nothing_to_judge(property::kFencing, "no write with a fencing token reached the fenced resource");
    return support::holds(property::kFencing, {support::figure("accepted_writes", accepted_)});
  }

  int64_t needs() const override { return verdict_ ? kForever : next_; }

 private:
  // A write, and the execution that handed out its token (-1: the history shows none).
  struct Write {
    int64_t index = -1;
    int64_t value = 0;
    Evidence evidence;
    int64_t source = -1;
    Evidence source_evidence;
    int64_t source_ms = 0;
    std::string source_process;
    std::string owner;
    bool sourced = false;
  };

  // A write, its token's source found now (a stream drops the operation that fetched it later) or
  // when a violation needs it (a whole history keeps everything: no search per write).
  Write write_of(const Event& e, const std::string& owner, bool now) const {
    Write w;
    w.index = e.index;
    w.value = e.value;
    w.evidence = support::event_evidence(facts_, "", e.index);
    w.owner = owner;
    if (now) find_source(w);
    return w;
  }

  void find_source(Write& w) const {
    if (w.sourced) return;
    w.sourced = true;
    w.source = token_source(facts_, w.owner, w.value, w.index);
    if (w.source < 0) return;
    const Event& x = facts_.at(w.source);
    w.source_evidence = support::event_evidence(facts_, "", w.source);
    w.source_ms = x.at_ms;
    w.source_process = x.process;
  }

  static Evidence as(Evidence e, std::string role) {
    e.role = std::move(role);
    return e;
  }

  // Whether `e` decided the verdict (`at_end`: the last call, a whole history's or a stream's).
  bool judge(const Event& e, bool at_end) {
    if (e.kind != EventKind::Write) return false;
    if (e.f != "accepted") {
      ++rejected_;
      return false;
    }
    if (e.value == 0 && !options_.unfenced_is_zero) return false;
    ++accepted_;
    auto& owners = highest_[e.lock];
    const std::string owner = e.owner();
    Write* against = nullptr;  // another holder's write with a token >= this one (the highest such)
    for (auto& [other, w] : owners) {
      if (other == owner) continue;
      if (w.value >= e.value && (!against || w.value > against->value)) against = &w;
    }
    if (against) {
      const Write later = write_of(e, owner, true);
      find_source(*against);
      std::vector<Evidence> ev{as(against->evidence, "earlier_write"), as(later.evidence, "later_write")};
      if (against->source >= 0) ev.push_back(as(against->source_evidence, "earlier_token"));
      if (later.source >= 0) ev.push_back(as(later.source_evidence, "later_token"));
      if (against->source >= 0 && later.source >= 0) {
        const Write& a = against->source < later.source ? *against : later;
        const Write& b = against->source < later.source ? later : *against;
        for (Evidence& f : support::faults_beside(facts_, a.source_ms, b.source_ms, {a.source_process, b.source_process}))
          if (f.event > a.source && f.event < b.source) ev.push_back(std::move(f));
      }
      const auto anomaly = against->value == e.value ? anomaly::kSharedToken : anomaly::kFencingOrder;
      verdict_ = support::violated(property::kFencing, anomaly, std::move(ev));
      return true;
    }
    const auto it = owners.find(owner);
    if (it == owners.end() || it->second.value < e.value) owners[owner] = write_of(e, owner, !at_end);
    return false;
  }

  const Facts& facts_;
  const FencingOptions options_;
  // resource -> owner -> the accepted write with that owner's highest token so far
  std::map<std::string, std::map<std::string, Write>> highest_;
  int64_t accepted_ = 0;
  int64_t rejected_ = 0;  // writes the resource refused for their token
  int64_t next_ = 0;  // the next event to judge
  std::optional<Verdict> verdict_;
};

}  // namespace

std::unique_ptr<Judge> fencing_judge(const Facts& facts, const FencingOptions& options) {
  return std::make_unique<FencingJudge>(facts, options);
}

Verdict check_fencing(const Facts& facts, const FencingOptions& options) {
  return judge_whole(*fencing_judge(facts, options), facts);
}

}  // namespace locksim::model
