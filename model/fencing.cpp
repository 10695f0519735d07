#include "model/fencing.hpp"

#include <map>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"

namespace locksim::model {

Verdict check_fencing(const History& history, const FencingOptions& options) {
  std::map<std::string, int64_t> highest;  // resource -> index of the accepted write with the top token
  size_t accepted = 0;
  for (const Event& e : history.events()) {
    if (e.kind != EventKind::Write || e.f != "accepted") continue;
    if (e.value == 0 && !options.unfenced_is_zero) continue;
    ++accepted;
    const auto it = highest.find(e.lock);
    if (it == highest.end()) {
      highest.emplace(e.lock, e.index);
      continue;
    }
    const Event& top = history[static_cast<size_t>(it->second)];
    if (e.value < top.value) {
      const std::string resource = e.lock.empty() ? "the resource" : e.lock;
      return support::violated(
          property::kFencing, anomaly::kFencingOrder, {top.index, e.index},
          "Let " + resource + " accept a write from " + top.process + " with token " + std::to_string(top.value) +
              " at " + support::ms(top.at_ms) + ". Then it accepted a write from " + e.process + " with token " +
              std::to_string(e.value) + " at " + support::ms(e.at_ms) + ", lower than " +
              std::to_string(top.value) + ".");
    }
    if (e.value > top.value) it->second = e.index;
  }
  if (accepted == 0) return support::holds(property::kFencing, "no writes");
  return support::holds(property::kFencing,
                        std::to_string(accepted) + " accepted writes, tokens never going down");
}

}  // namespace locksim::model
