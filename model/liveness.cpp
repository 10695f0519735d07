#include "model/liveness.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"

namespace locksim::model {
namespace {

using support::ms;

constexpr int64_t kForever = std::numeric_limits<int64_t>::max();

struct Span {
  int64_t from = 0;
  int64_t to = kForever;
  int64_t release = -1;  // the Release that began a free span, -1 when free from the start
};

// Per lock, the spans during which no live owner believed it held the lock.
std::map<std::string, std::vector<Span>> free_spans(const History& history) {
  std::map<std::string, std::set<std::string>> holders;
  std::map<std::string, std::vector<Span>> spans;
  auto spans_of = [&](const std::string& lock) -> std::vector<Span>& {
    auto [it, fresh] = spans.try_emplace(lock);
    if (fresh) it->second.push_back(Span{std::numeric_limits<int64_t>::min(), kForever, -1});
    return it->second;
  };
  for (const Event& e : history.events()) {
    if (e.kind == EventKind::Hold) {
      auto& on_lock = spans_of(e.lock);
      if (holders[e.lock].empty()) on_lock.back().to = e.at_ms;
      holders[e.lock].insert(e.owner());
    } else if (e.kind == EventKind::Release && e.value == 0) {
      auto& on_lock = spans_of(e.lock);
      if (holders[e.lock].erase(e.owner()) && holders[e.lock].empty())
        on_lock.push_back(Span{e.at_ms, kForever, e.index});
    }
  }
  for (auto& [lock, list] : spans)
    std::erase_if(list, [&](const Span& s) { return s.to != kForever && s.to <= s.from; });
  return spans;
}

// Spans during which `process` could not act: paused, partitioned, crashed.
std::vector<Span> unavailable(const History& history, const std::string& process) {
  std::vector<Span> out;
  int64_t paused = -1, partitioned = -1;
  for (const Event& e : history.events()) {
    if (e.kind != EventKind::Fault || e.process != process) continue;
    if (e.f == "crash") out.push_back(Span{e.at_ms, kForever, -1});
    if (e.f == "pause" && paused < 0) paused = e.at_ms;
    if (e.f == "resume" && paused >= 0) out.push_back(Span{std::exchange(paused, -1), e.at_ms, -1});
    if (e.f == "partition" && partitioned < 0) partitioned = e.at_ms;
    if (e.f == "heal" && partitioned >= 0) out.push_back(Span{std::exchange(partitioned, -1), e.at_ms, -1});
  }
  if (paused >= 0) out.push_back(Span{paused, kForever, -1});
  if (partitioned >= 0) out.push_back(Span{partitioned, kForever, -1});
  return out;
}

// How long [from, to) overlaps `span` minus the parts covered by `away` (which may overlap each other).
int64_t usable(int64_t from, int64_t to, const Span& span, const std::vector<Span>& away) {
  const int64_t lo = std::max(from, span.from), hi = std::min(to, span.to);
  if (hi <= lo) return 0;
  std::vector<std::pair<int64_t, int64_t>> cut;
  for (const Span& a : away) {
    const int64_t alo = std::max(lo, a.from), ahi = std::min(hi, a.to);
    if (alo < ahi) cut.emplace_back(alo, ahi);
  }
  std::sort(cut.begin(), cut.end());
  int64_t covered = 0, reach = lo;
  for (const auto& [a, b] : cut) {
    if (b <= reach) continue;
    covered += b - std::max(a, reach);
    reach = b;
  }
  return hi - lo - covered;
}

}  // namespace

Verdict check_liveness(const History& history, const LivenessOptions& options) {
  const auto ops = support::index_ops(history);
  const auto spans = free_spans(history);
  size_t attempts = 0;
  for (const Event& invoke : history.events()) {
    if (invoke.kind != EventKind::Invoke || !support::is_acquire(invoke.f)) continue;
    ++attempts;
    const auto op = ops.find(invoke.op);
    const int64_t outcome = invoke.op != 0 && op != ops.end() ? op->second.outcome : -1;
    if (outcome >= 0 && history[static_cast<size_t>(outcome)].kind != EventKind::Fail) continue;
    const int64_t end = outcome >= 0 ? history[static_cast<size_t>(outcome)].at_ms : history.end_ms();
    const int64_t from = invoke.at_ms + options.grace_ms;
    if (end <= from) continue;
    const auto lock_spans = spans.find(invoke.lock);
    // A lock nobody ever held has been free all along.
    const std::vector<Span> always_free{Span{std::numeric_limits<int64_t>::min(), kForever, -1}};
    const auto& free = lock_spans == spans.end() ? always_free : lock_spans->second;
    const auto away = unavailable(history, invoke.process);
    int64_t total = 0, release = -1;
    bool first = true;
    for (const Span& span : free) {
      const int64_t part = usable(from, end, span, away);
      if (part <= 0) continue;
      total += part;
      if (first) release = span.release;
      first = false;
    }
    if (total < options.grace_ms || total == 0) continue;
    std::string freed = "Let " + invoke.lock + " be free";
    if (release >= 0) {
      const Event& r = history[static_cast<size_t>(release)];
      freed = "Let " + r.owner() + " release " + invoke.lock + (r.f == "crash" ? " by crashing" : "") + " at " +
              ms(r.at_ms);
    }
    const std::string until = outcome >= 0 ? "until its failure at " + ms(end)
                                           : "until the history ended at " + ms(end) + " without an answer";
    return support::violated(property::kLiveness, anomaly::kStarved, {invoke.index, outcome, release},
                             freed + ". Then " + invoke.owner() + " waited for " + invoke.lock + " from " +
                                 ms(invoke.at_ms) + " " + until + ", while the lock was free for " + ms(total) +
                                 " of it (grace " + ms(options.grace_ms) + ").");
  }
  return support::holds(property::kLiveness,
                        std::to_string(attempts) + " acquire attempts, none starved of a free lock");
}

}  // namespace locksim::model
