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

using support::kForever;
using support::Span;
using support::free_spans;
using support::unavailable;
using support::usable;

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
      if (first) release = span.cause;
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
