#include "model/checker_support.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <set>
#include <utility>

namespace locksim::model::support {

std::string ms(int64_t t) { return std::to_string(t) + " ms"; }

Verdict holds(std::string_view property, std::string explanation) {
  return Verdict{std::string(property), Validity::Yes, "", {}, std::move(explanation)};
}

Verdict unknown(std::string_view property, std::string explanation) {
  return Verdict{std::string(property), Validity::Unknown, "", {}, std::move(explanation)};
}

Verdict violated(std::string_view property, std::string_view anomaly, std::vector<int64_t> witness,
                 std::string explanation) {
  std::erase_if(witness, [](int64_t i) { return i < 0; });
  std::sort(witness.begin(), witness.end());
  witness.erase(std::unique(witness.begin(), witness.end()), witness.end());
  return Verdict{std::string(property), Validity::No, std::string(anomaly), std::move(witness),
                 std::move(explanation)};
}

bool is_acquire(std::string_view f) { return f == "lock" || f == "try_lock"; }

bool is_outcome(EventKind kind) {
  return kind == EventKind::Ok || kind == EventKind::Fail || kind == EventKind::Info;
}

OpIndex index_ops(const History& history) {
  OpIndex ops;
  for (const Event& e : history.events()) {
    if (e.op == 0) continue;
    if (e.kind == EventKind::Invoke) {
      OpEvents& op = ops[e.op];
      if (op.invoke < 0) op.invoke = e.index;
    } else if (is_outcome(e.kind)) {
      OpEvents& op = ops[e.op];
      if (op.outcome < 0) op.outcome = e.index;
    } else if (e.kind == EventKind::Exec) {
      ops[e.op].execs.push_back(e.index);
    }
  }
  return ops;
}

int64_t find_exec(const History& history, const OpIndex& ops, int64_t op, std::string_view role) {
  const auto it = ops.find(op);
  if (op == 0 || it == ops.end()) return -1;
  int64_t found = -1;
  for (int64_t i : it->second.execs)
    if (history[static_cast<size_t>(i)].f == role) found = i;
  return found;
}

std::string owner_of_op(const History& history, const OpIndex& ops, int64_t op) {
  const auto it = ops.find(op);
  if (op == 0 || it == ops.end() || it->second.invoke < 0) return "";
  return history[static_cast<size_t>(it->second.invoke)].owner();
}

std::optional<std::map<std::string, int64_t>> parse_hash(std::string_view rendered) {
  std::map<std::string, int64_t> fields;
  while (!rendered.empty()) {
    const size_t comma = rendered.find(',');
    const std::string_view pair = rendered.substr(0, comma);
    rendered = comma == std::string_view::npos ? std::string_view() : rendered.substr(comma + 1);
    const size_t eq = pair.rfind('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    const std::string_view value = pair.substr(eq + 1);
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size() || value.empty()) return std::nullopt;
    fields[std::string(pair.substr(0, eq))] = n;
  }
  return fields;
}

void HolderFields::learn(const std::string& owner, int64_t thread, const std::map<std::string, int64_t>& before,
                         const std::map<std::string, int64_t>& after) {
  if (field_of_.contains(owner)) return;
  const std::string suffix = ":" + std::to_string(thread);
  std::set<std::string> changed;
  auto consider = [&](const std::string& field) {
    const auto b = before.find(field);
    const auto a = after.find(field);
    const bool differs = (b == before.end()) != (a == after.end()) ||
                         (b != before.end() && a != after.end() && b->second != a->second);
    if (differs && field.ends_with(suffix) && !owner_of_.contains(field)) changed.insert(field);
  };
  for (const auto& [field, n] : before) consider(field);
  for (const auto& [field, n] : after) consider(field);
  if (changed.size() != 1) return;
  field_of_[owner] = *changed.begin();
  owner_of_[*changed.begin()] = owner;
}

std::string HolderFields::field_of(const std::string& owner) const {
  const auto it = field_of_.find(owner);
  return it == field_of_.end() ? owner : it->second;
}

std::string HolderFields::owner_of(const std::string& field) const {
  const auto it = owner_of_.find(field);
  return it == owner_of_.end() ? field : it->second;
}

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
  int64_t paused = -1, partitioned = -1, paused_by = -1, partitioned_by = -1;
  for (const Event& e : history.events()) {
    if (e.kind != EventKind::Fault || e.process != process) continue;
    if (e.f == "crash") out.push_back(Span{e.at_ms, kForever, e.index});
    if (e.f == "pause" && paused < 0) paused = e.at_ms, paused_by = e.index;
    if (e.f == "resume" && paused >= 0) out.push_back(Span{std::exchange(paused, -1), e.at_ms, paused_by});
    if (e.f == "partition" && partitioned < 0) partitioned = e.at_ms, partitioned_by = e.index;
    if (e.f == "heal" && partitioned >= 0) out.push_back(Span{std::exchange(partitioned, -1), e.at_ms, partitioned_by});
  }
  if (paused >= 0) out.push_back(Span{paused, kForever, paused_by});
  if (partitioned >= 0) out.push_back(Span{partitioned, kForever, partitioned_by});
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

}  // namespace locksim::model::support
