#pragma once
// ChoiceScheduler: a scheduler that takes every decision from a list of choices, so that a run is a
// pure function of its scenario and that list. Each decision with more than one option is a choice
// point; a choice is the option's index, 0 being the default (the first latency, no loss, the event
// scheduled first, no fault, the first clock offset). Past the list every choice is the default. The scheduler records the
// choice points it met and how many options each had: an enumerating search (explore/exhaustive.hpp)
// tries every list within the bounds, and a counterexample's list replays it (`schedule:` in a
// scenario file).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/state_writer.hpp"
#include "world/rng.hpp"
#include "world/scheduler.hpp"
#include "world/time_limits.hpp"

namespace locksim::world {

enum class ChoiceKind : uint8_t { Latency, Loss, Order, Fault, Clock };
// How far a clock may be set off, either way: about 31 years, so that a clock's reading (its offset
// and a run's time added to the servers' epoch) never overflows. "" when `ms` is within it, else why not.
inline constexpr int64_t kClockOffsetMaxMs = kDurationMsMax;
std::string clock_offset_problem(int64_t ms);
inline constexpr size_t kChoiceKinds = 5;
std::string_view choice_kind_name(ChoiceKind kind);

// What a bounded search may vary. A deviation is a choice other than the default; a schedule's cost
// is its number of deviations.
struct ScheduleBounds {
  std::vector<int64_t> latencies{1};  // a message's one-way latency is one of these (ms); the first is the default
  int slow_max = -1;                  // messages with a latency other than the first, at most (-1: no bound)
  int lost_max = 0;                   // messages lost, at most
  struct FaultBudget {
    Fault fault;  // a client's fault (its client "" : any client) or a server's
    int count = 1;
    bool operator==(const FaultBudget&) const = default;
  };
  // Faults the search places, each just before an event of the client (or server) it falls on:
  // between two of them nothing of that client changes.
  std::vector<FaultBudget> faults;
  // Each client's clock is set off from the file's by one of these (ms; the first is the default):
  // empty, clocks are as the file gives them. Each within kClockOffsetMaxMs either way.
  std::vector<int64_t> clock_offsets;
  // Partial-order reduction: of the events due at one instant, only those of the first one's actor
  // (and the actors dependent on it, scheduler.hpp) are reordered; independent ones keep their order.
  bool reduce = true;
  int depth = 400;          // choice points per schedule at most; past it every choice is the default
  int cost_max = -1;        // deviations per schedule at most (-1: no bound); the search's level
  bool operator==(const ScheduleBounds&) const = default;
};

struct ChoiceRecord {
  ChoiceKind kind = ChoiceKind::Latency;
  uint32_t options = 0;
  uint32_t taken = 0;
  uint32_t pruned = 0;  // Order: same-time events of independent actors not offered
  std::string what;     // a deviation, in words ("B's request takes 10 ms"); "" for a default
};

class ChoiceScheduler final : public Scheduler {
 public:
  // Throws std::invalid_argument for bounds that cannot run (no latency, one below 1 ms).
  ChoiceScheduler(ScheduleBounds bounds, std::vector<uint32_t> choices);
  // Past the list, choices are drawn uniformly from `rng` instead of taken as the defaults: random
  // schedules of the same bounded world, to compare with the enumeration.
  void draw_past_list(uint64_t seed) { random_.emplace(seed); }

  void on_client(int index, const std::string& name) override;
  int64_t clock_offset(int index) override;
  int64_t latency(const MessageAsk& message) override;
  bool lost(const MessageAsk& message) override;
  bool decides_order() const override { return true; }
  size_t next_event(const std::vector<Actor>& due, int64_t at_ms) override;
  std::optional<Fault> fault_before(const Actor& next, const std::vector<std::string>& names, int64_t at_ms) override;

  // The choice points met, in order, with what was taken at each.
  const std::vector<ChoiceRecord>& choices() const { return made_; }
  // The list of choices taken, without its trailing defaults: what replays the run.
  std::vector<uint32_t> taken() const;
  // What each non-default choice was, in words, in order (a counterexample's bounded.deviations).
  std::vector<std::string> deviations() const;
  int cost() const { return cost_; }
  // What the bounds have left to spend (slow messages, losses, deviations, each fault), as state
  // (base/state_writer.hpp): two equal worlds with as much left have the same schedules ahead,
  // unless the depth bound cuts one of them first.
  void describe(StateWriter& out) const;
  // Whether an option was withheld because the schedule had spent cost_max, or a choice point came
  // past the depth bound.
  bool capped() const { return capped_; }
  bool cut() const { return cut_; }
  // Same-time events left in their order by the reduction where no choice point was made, each with
  // the number of choice points met before it.
  const std::vector<std::pair<size_t, uint32_t>>& silent_prunes() const { return silent_prunes_; }

 private:
  // The option taken at the next choice point of `kind` with `options` options (>= 1), `pruned`
  // options of it left out by the reduction.
  uint32_t choose(ChoiceKind kind, uint32_t options, uint32_t pruned = 0);
  // Says in words what the last choice deviated to (when it did).
  void describe(std::string what);
  const std::string& name(int client) const;
  // `options`, or only the default once the schedule has spent cost_max (then capped()).
  uint32_t allowed(uint32_t options);

  ScheduleBounds bounds_;
  std::vector<uint32_t> list_;
  std::vector<ChoiceRecord> made_;
  std::vector<std::pair<size_t, uint32_t>> silent_prunes_;
  std::vector<int> faults_left_;
  int slow_ = 0;
  int lost_ = 0;
  int cost_ = 0;
  bool capped_ = false;
  bool cut_ = false;
  std::optional<Rng> random_;
  std::vector<std::string> names_;  // the world's clients, by index
  // Scratch, reused from choice to choice: the distinct arrivals of one message and their latencies,
  // the order choice's candidates (and which are in), the faults offered before an event.
  std::vector<int64_t> arrivals_;
  std::vector<int64_t> values_;
  std::vector<size_t> candidates_;
  std::vector<bool> in_;
  std::vector<size_t> offered_;
};

}  // namespace locksim::world
