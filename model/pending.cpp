#include "model/pending.hpp"

#include <algorithm>
#include <map>

#include "model/checker_support.hpp"
#include "model/fault_events.hpp"

namespace locksim::model {

int64_t PendingOps::acquires() const {
  int64_t n = 0;
  for (const PendingOp& p : ops) n += support::is_acquire(p.f) ? 1 : 0;
  return n;
}

std::string PendingOps::describe() const {
  if (ops.empty()) return "no operation still under way at the end";
  // Counted by kind, in the order each kind first appears.
  std::vector<std::pair<std::string, int>> kinds;
  for (const PendingOp& p : ops) {
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == p.f; });
    if (it == kinds.end()) kinds.emplace_back(p.f, 1);
    else ++it->second;
  }
  std::string out;
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (i > 0) out += i + 1 == kinds.size() ? " and " : ", ";
    out += std::to_string(kinds[i].second) + " " + kinds[i].first + "() call" + (kinds[i].second > 1 ? "s" : "");
  }
  out += " still waiting at the end (";
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i > 0) out += ", ";
    out += ops[i].owner + " since " + support::ms(ops[i].since_ms);
  }
  return out + ")";
}

PendingOps pending_operations(const std::function<std::optional<Event>()>& next) {
  PendingOps out;
  std::map<int64_t, PendingOp> open;  // by op id; ids grow as operations are invoked
  while (const std::optional<Event> e = next()) {
    out.end_ms = e->at_ms;
    if (e->kind == EventKind::Fault && e->f == fault_name::kCrash) {
      std::erase_if(open, [&](const auto& entry) { return entry.second.owner.starts_with(e->process.str() + ":"); });
      continue;
    }
    if (e->op == 0) continue;
    if (e->kind == EventKind::Invoke) {
      if (!open.contains(e->op))
        open.emplace(e->op, PendingOp{e->op, e->owner(), e->f.str(), e->lock.str(), e->index, e->at_ms, e->wait_ms});
    } else if (is_outcome(e->kind)) {
      open.erase(e->op);
    }
  }
  for (auto& [id, p] : open) out.ops.push_back(std::move(p));
  std::sort(out.ops.begin(), out.ops.end(), [](const PendingOp& a, const PendingOp& b) { return a.invoke < b.invoke; });
  return out;
}

PendingOps pending_operations(const History& history) {
  size_t i = 0;
  return pending_operations([&]() -> std::optional<Event> {
    if (i == history.size()) return std::nullopt;
    return history[i++];
  });
}

}  // namespace locksim::model
