#include "world/choice_scheduler.hpp"

#include <algorithm>
#include <stdexcept>

#include "base/assert.hpp"

namespace locksim::world {

std::string_view choice_kind_name(ChoiceKind kind) {
  switch (kind) {
    case ChoiceKind::Latency: return "latency";
    case ChoiceKind::Loss: return "loss";
    case ChoiceKind::Order: return "order";
    case ChoiceKind::Fault: return "fault";
    case ChoiceKind::Clock: return "clock";
  }
  return "?";
}

ChoiceScheduler::ChoiceScheduler(ScheduleBounds bounds, std::vector<uint32_t> choices)
    : bounds_(std::move(bounds)), list_(std::move(choices)) {
  if (bounds_.latencies.empty()) throw std::invalid_argument("a bounded search needs at least one latency");
  for (const int64_t l : bounds_.latencies)
    if (l < 1) throw std::invalid_argument("a latency is at least 1 ms, not " + std::to_string(l));
  // A value twice would be two options that are one: the same schedule counted twice.
  for (const auto* values : {&bounds_.latencies, &bounds_.clock_offsets})
    for (auto it = values->begin(); it != values->end(); ++it)
      if (std::find(values->begin(), it, *it) != it)
        throw std::invalid_argument(std::string(values == &bounds_.latencies ? "the latencies" : "the clock offsets") +
                                    " name " + std::to_string(*it) + " twice");
  if (bounds_.depth < 1) throw std::invalid_argument("the depth bound is at least 1");
  for (const int64_t o : bounds_.clock_offsets)
    if (const std::string problem = clock_offset_problem(o); !problem.empty()) throw std::invalid_argument(problem);
  for (const auto& budget : bounds_.faults) faults_left_.push_back(budget.count);
}

void ChoiceScheduler::on_client(int index, const std::string& name) {
  if (names_.size() <= static_cast<size_t>(index)) names_.resize(static_cast<size_t>(index) + 1);
  names_[static_cast<size_t>(index)] = name;
}

std::string clock_offset_problem(int64_t ms) {
  if (ms >= -kClockOffsetMaxMs && ms <= kClockOffsetMaxMs) return {};
  return "a clock offset is at most " + std::to_string(kClockOffsetMaxMs) + " ms either way, not " + std::to_string(ms);
}

int64_t ChoiceScheduler::clock_offset(int index) {
  if (bounds_.clock_offsets.empty()) return 0;
  const uint32_t taken = choose(ChoiceKind::Clock, allowed(static_cast<uint32_t>(bounds_.clock_offsets.size())));
  const int64_t offset = bounds_.clock_offsets[taken];
  if (taken != 0)
    describe(name(index) + "'s clock set " + std::to_string(offset < 0 ? -offset : offset) + " ms " + (offset < 0 ? "behind" : "ahead"));
  return offset;
}

const std::string& ChoiceScheduler::name(int client) const {
  static const std::string unknown = "?";
  return static_cast<size_t>(client) < names_.size() ? names_[static_cast<size_t>(client)] : unknown;
}

void ChoiceScheduler::describe(std::string what) {
  if (!made_.empty() && made_.back().taken != 0) made_.back().what = std::move(what);
}

uint32_t ChoiceScheduler::allowed(uint32_t options) {
  if (options <= 1 || bounds_.cost_max < 0 || cost_ < bounds_.cost_max) return options;
  capped_ = true;
  return 1;
}

uint32_t ChoiceScheduler::choose(ChoiceKind kind, uint32_t options, uint32_t pruned) {
  if (options <= 1) {
    if (pruned > 0) silent_prunes_.emplace_back(made_.size(), pruned);
    return 0;
  }
  if (made_.size() >= static_cast<size_t>(bounds_.depth)) {
    cut_ = true;
    return 0;
  }
  const size_t at = made_.size();
  const uint32_t taken = at < list_.size() ? list_[at]
                         : random_        ? static_cast<uint32_t>(random_->range(0, options - 1))
                                          : 0;
  if (taken >= options)
    throw std::invalid_argument("schedule choice " + std::to_string(at + 1) + " is " + std::to_string(taken) + ", but that " +
                                std::string(choice_kind_name(kind)) + " choice has only " + std::to_string(options) +
                                " options (0.." + std::to_string(options - 1) + "): the schedule does not fit this scenario");
  made_.push_back({kind, options, taken, pruned, {}});
  if (taken != 0) ++cost_;
  return taken;
}

int64_t ChoiceScheduler::latency(const MessageAsk& m) {
  // Only latencies that make a difference are options: without reordering, a message cannot
  // overtake the one before it, so latencies that all land it behind that one are the same.
  arrivals_.clear();
  std::vector<int64_t>& values = values_;
  values.clear();
  for (const int64_t l : bounds_.latencies) {
    const int64_t at = std::max(m.earliest_ms + l, m.fifo_floor_ms);
    if (std::find(arrivals_.begin(), arrivals_.end(), at) != arrivals_.end()) continue;
    arrivals_.push_back(at);
    values.push_back(l);
  }
  const bool slow_allowed = bounds_.slow_max < 0 || slow_ < bounds_.slow_max;
  const uint32_t k = choose(ChoiceKind::Latency, slow_allowed ? allowed(static_cast<uint32_t>(values.size())) : 1);
  if (k != 0) {
    ++slow_;
    describe((m.to_server ? name(m.client) + "'s request" : "a reply to " + name(m.client)) + " leaving at " +
             std::to_string(m.earliest_ms) + " ms takes " + std::to_string(values[k]) + " ms");
  }
  return values[k];
}

bool ChoiceScheduler::lost(const MessageAsk& m) {
  // A loss fault of the timeline losing every message loses it; a partial one is left to the budget.
  if (m.loss_denominator > 0 && m.loss_numerator >= m.loss_denominator) return true;
  const bool lose = choose(ChoiceKind::Loss, lost_ < bounds_.lost_max ? allowed(2) : 1) == 1;
  if (lose) {
    ++lost_;
    describe((m.to_server ? name(m.client) + "'s request" : "a message to " + name(m.client)) + " leaving at " +
             std::to_string(m.earliest_ms) + " ms is lost");
  }
  return lose;
}

size_t ChoiceScheduler::next_event(const std::vector<Actor>& due, int64_t at_ms) {
  LS_ASSERT(!due.empty());
  // The candidates: every event due now, or with the reduction the first one's and those of the
  // actors dependent on it (closed under dependence); the others commute with them.
  std::vector<size_t>& candidates = candidates_;
  candidates.clear();
  if (!bounds_.reduce) {
    for (size_t i = 0; i < due.size(); ++i) candidates.push_back(i);
  } else {
    std::vector<bool>& in = in_;
    in.assign(due.size(), false);
    in[0] = true;
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t i = 0; i < due.size(); ++i) {
        if (in[i]) continue;
        for (size_t j = 0; j < due.size() && !in[i]; ++j)
          if (in[j] && dependent(due[i], due[j])) in[i] = grew = true;
      }
    }
    for (size_t i = 0; i < due.size(); ++i)
      if (in[i]) candidates.push_back(i);
  }
  const auto pruned = static_cast<uint32_t>(due.size() - candidates.size());
  const uint32_t k = choose(ChoiceKind::Order, allowed(static_cast<uint32_t>(candidates.size())), pruned);
  if (k != 0) {
    const Actor& a = due[candidates[k]];
    describe("of " + std::to_string(candidates.size()) + " events due at " + std::to_string(at_ms) + " ms, one of " +
             (a.kind == Actor::Kind::Client ? name(a.index) + "'s" : a.kind == Actor::Kind::Server ? "redis" + std::to_string(a.index) + "'s" : "the world's") +
             " (scheduled " + std::to_string(k + 1) + ") runs first");
  }
  return candidates[k];
}

std::optional<Fault> ChoiceScheduler::fault_before(const Actor& next, const std::vector<std::string>& names, int64_t at_ms) {
  if (next.kind != Actor::Kind::Client && next.kind != Actor::Kind::Server) return std::nullopt;
  std::vector<size_t>& offered = offered_;
  offered.clear();
  for (size_t i = 0; i < bounds_.faults.size(); ++i) {
    if (faults_left_[i] <= 0) continue;
    const Fault& f = bounds_.faults[i].fault;
    const bool on_server = fault_info(f.kind).on_server;
    if (on_server != (next.kind == Actor::Kind::Server)) continue;
    if (on_server ? f.server != next.index : !f.client.empty() && f.client != names[static_cast<size_t>(next.index)])
      continue;
    offered.push_back(i);
  }
  if (offered.empty()) return std::nullopt;
  const uint32_t k = choose(ChoiceKind::Fault, allowed(static_cast<uint32_t>(offered.size()) + 1));
  if (k == 0) return std::nullopt;
  const size_t i = offered[k - 1];
  --faults_left_[i];
  Fault fault = bounds_.faults[i].fault;
  if (fault_info(fault.kind).on_server) fault.server = next.index;
  else fault.client = names[static_cast<size_t>(next.index)];
  describe(std::string(fault_name(fault)) + " " + (fault_info(fault.kind).on_server ? "redis" + std::to_string(fault.server) : fault.client) +
           (fault_info(fault.kind).takes(FaultParam::Thread) ? " thread " + std::to_string(fault.thread) : "") +
           (fault_info(fault.kind).lasts() ? " for " + std::to_string(fault.for_ms) + " ms" : "") + " at " +
           std::to_string(at_ms) + " ms");
  return fault;
}

std::vector<std::string> ChoiceScheduler::deviations() const {
  std::vector<std::string> out;
  for (const ChoiceRecord& r : made_)
    if (r.taken != 0) out.push_back(r.what);
  return out;
}

std::vector<uint32_t> ChoiceScheduler::taken() const {
  std::vector<uint32_t> out;
  for (const ChoiceRecord& c : made_) out.push_back(c.taken);
  while (!out.empty() && out.back() == 0) out.pop_back();
  return out;
}

void ChoiceScheduler::describe(StateWriter& out) const {
  out.field("slow", slow_).field("lost", lost_).field("cost", cost_);
  for (const int left : faults_left_) out.field("faults_left", left);
}

}  // namespace locksim::world
