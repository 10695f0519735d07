#include "model/liveness.hpp"

#include <algorithm>
#include <optional>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"
#include "model/rendered.hpp"

namespace locksim::model {
namespace {

Evidence free_evidence(const FreeSpan& f) {
  Evidence e;
  e.role = "free";
  e.event = f.state_event;
  e.from_ms = f.span.from_ms;
  e.to_ms = f.span.to_ms;
  e.where = f.key ? f.key->name() : "";
  e.state = std::string(to_string(f.why));
  if (f.key) {
    // An expired key is absent, whatever it carried: the history may tell its expiry only later.
    const KeyState& s = f.key->at(f.span.from_ms);
    e.who = s.present_at(f.span.from_ms) ? s.value.str() : "";
    e.number = s.expire_at;
  }
  return e;
}

std::vector<Evidence> story(const Facts& facts, const Op& op, const std::vector<FreeSpan>& free, int64_t end,
                            int64_t total, int64_t grace) {
  std::vector<Evidence> ev{support::event_evidence(facts, "waiter", op.invoke)};
  ev.back().to_ms = end;
  if (op.outcome >= 0) ev.push_back(support::event_evidence(facts, "outcome", op.outcome));
  for (size_t i = 0; i < free.size() && i < 4; ++i) ev.push_back(free_evidence(free[i]));
  // A FairLock's queue told it to wait, but an entry ahead of it no longer kept it out.
  for (const FreeSpan& f : free)
    if (!f.dead_entry.owner.empty()) {
      Evidence q;
      q.role = "queue_ahead";
      q.who = f.dead_entry.owner;
      q.where = f.key ? f.key->name() : "";
      q.from_ms = f.dead_entry.heard_ms;  // when the server last heard from it
      q.to_ms = f.span.from_ms;           // from when it kept the waiter out for nobody
      q.number = f.dead_entry.wait_ms;
      ev.push_back(q);
      break;
    }
  ev.push_back(support::figure("free_ms", total));
  ev.push_back(support::figure("grace_ms", grace));
  std::vector<std::string> processes{op.process};
  for (const KeyTrack* k : facts.parts(op.lock)) processes.push_back(k->server);
  for (Evidence& f : support::faults_beside(facts, facts.at(op.invoke).at_ms, end, processes)) ev.push_back(std::move(f));
  return ev;
}

// An acquire is judged once no event of its can come any more (its outcome, or a request of its
// that ran late): the free time and the refusals over its whole wait are known then.
class LivenessJudge final : public Judge {
 public:
  LivenessJudge(const Facts& facts, const LivenessOptions& options) : facts_(facts), options_(options) {
    free_options_.queue_replies = facts.lock_type() && facts.lock_type()->fair;
    free_options_.thread_wait_ms = options.thread_wait_ms;
    free_options_.try_wait_replaces_thread_wait = options.try_wait_replaces_thread_wait;
  }

  void advance(const Settled& settled) override {
    if (verdict_) return;
    judge_settled_ops(facts_, settled, next_, [&](const Op& op) {
      if (!support::is_acquire(op.f)) return false;
      ++attempts_;
      verdict_ = judge(op);
      return verdict_.has_value();
    });
  }

  Verdict verdict() override {
    if (verdict_) return *verdict_;
    if (attempts_ == 0) return support::nothing_to_judge(property::kLiveness, "no acquire of the lock");
    return support::holds(property::kLiveness, {support::figure("attempts", attempts_)});
  }

  int64_t needs() const override { return verdict_ ? kForever : next_; }

 private:
  std::optional<Verdict> judge(const Op& op) const {
    const int64_t from = facts_.at(op.invoke).at_ms;
    const int64_t end = std::min(op.span.to_ms, facts_.end_ms());
    const std::vector<FreeSpan> free = facts_.free_spans(op, from, end, free_options_);
    // Not counted: time it could not act, and time its own requests were on their way to the server
    // (it was trying; a slow link is the network's).
    std::vector<Span> away = facts_.unavailable(op.process);
    for (int64_t i : op.execs) {
      const Event& x = facts_.at(i);
      if (x.sent_ms >= 0 && x.sent_ms < x.at_ms) away.push_back(Span{x.sent_ms, x.at_ms, i, i});
    }
    const int64_t total = [&] {
      std::vector<Span> spans;
      for (const FreeSpan& f : free) spans.push_back(f.span);
      return usable_ms(spans, from, end, away);
    }();
    if (total >= options_.grace_ms && total > 0)
      return support::violated(property::kLiveness, anomaly::kStarved, story(facts_, op, free, end, total, options_.grace_ms));
    // Refused by a key nobody could release, whatever the attempt's outcome.
    for (int64_t i : op.execs) {
      const Event& x = facts_.at(i);
      if ((x.f != "acquire" && x.f != "try_acquire") || x.reply.empty() || is_error_reply(x.reply)) continue;
      const KeyTrack* key = facts_.key(x.process, x.lock);
      if (!key || key->after_event(i).claim_of(op.owner, "")) continue;  // let in: no refusal
      const auto at_refusal = facts_.free_at(op, i);
      if (!at_refusal || at_refusal->why == FreeWhy::Open) continue;
      auto ev = story(facts_, op, {*at_refusal}, end, 0, options_.grace_ms);
      ev.push_back(support::event_evidence(facts_, "refusal", i));
      return support::violated(property::kLiveness, anomaly::kStarved, std::move(ev));
    }
    return std::nullopt;
  }

  const Facts& facts_;
  const LivenessOptions options_;
  FreeOptions free_options_;
  int64_t next_ = 0;  // the Invoke of the next operation to judge, or before it
  int64_t attempts_ = 0;
  std::optional<Verdict> verdict_;
};

}  // namespace

std::unique_ptr<Judge> liveness_judge(const Facts& facts, const LivenessOptions& options) {
  return std::make_unique<LivenessJudge>(facts, options);
}

Verdict check_liveness(const Facts& facts, const LivenessOptions& options) {
  return judge_whole(*liveness_judge(facts, options), facts);
}

}  // namespace locksim::model
