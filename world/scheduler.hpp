#pragma once
// Scheduler: everything a world leaves to chance, decided in one place. A message's latency and
// whether it is lost, which of the events due at one instant runs first, whether a fault falls
// just before an event, and how far a client's clock is off: the random scheduler draws them from the
// world's seed and each message's identity (chance.hpp; what `run` and `explore` use); a choice scheduler
// (choice_scheduler.hpp) takes them from a list of choices, so that a run is a pure function of its
// scenario and that list, and an enumerating search can try every list within its bounds.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "world/fault.hpp"
#include "world/chance.hpp"

namespace locksim::world {

// What an event on the agenda acts on. Two events due at the same instant on different actors
// commute: each touches only its actor's state, and what one sends reaches another a millisecond
// later at the earliest. A World event (a fenced write, a fault's end) may touch anything; the
// servers' housekeeping touches every server. A Timeline event is the scenario's own input (an
// operation handed to a thread, a fault at its time): never reordered, so a thread's operations
// keep the order the file gives them.
struct Actor {
  enum class Kind : uint8_t { World, Client, Server, Housekeeping, Timeline };
  Kind kind = Kind::World;
  int index = 0;  // the client's place in the order clients were added; the server's number

  static Actor world() { return {}; }
  static Actor client(int i) { return {Kind::Client, i}; }
  static Actor server(int i) { return {Kind::Server, i}; }
  static Actor housekeeping() { return {Kind::Housekeeping, 0}; }
  static Actor timeline() { return {Kind::Timeline, 0}; }
  bool operator==(const Actor&) const = default;
};

// Whether running `a` and `b` in either order may end differently.
inline bool dependent(const Actor& a, const Actor& b) {
  using K = Actor::Kind;
  if (a.kind == K::World || b.kind == K::World || a.kind == K::Timeline || b.kind == K::Timeline || a == b) return true;
  const auto server_side = [](const Actor& x) { return x.kind == K::Server || x.kind == K::Housekeeping; };
  return (a.kind == K::Housekeeping && server_side(b)) || (b.kind == K::Housekeeping && server_side(a));
}

// One message about to cross a client's link.
struct MessageAsk {
  int client = 0;            // whose link
  bool to_server = false;
  int64_t latency_min_ms = 1, latency_max_ms = 1;  // the link's range
  int64_t earliest_ms = 0;   // sent + any injected delay: arrival is this plus the latency
  int64_t fifo_floor_ms = -1;  // without reordering, it cannot arrive before this (-1: it can)
  uint64_t loss_numerator = 0, loss_denominator = 1000;
  // What the message is, stable across configurations (chance.hpp): which client, which way, which
  // request and its how-manieth like it. A reply's identity is its request's, turned.
  uint64_t identity = 0;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // The world added client `index` (for the scheduler's own words about what it chose).
  virtual void on_client(int index, const std::string& name) { (void)index, (void)name; }
  // How far client `index`'s clock is set off (ms) beyond what its scenario gives it; asked once,
  // when the world adds it. A random world leaves clocks as the file says.
  virtual int64_t clock_offset(int index) { (void)index; return 0; }
  // The message's one-way latency (ms). Asked for every message, before lost().
  virtual int64_t latency(const MessageAsk& message) = 0;
  // Whether the message is lost (besides any partition).
  virtual bool lost(const MessageAsk& message) = 0;
  // Whether the world asks next_event() and fault_before(); when not, events due at one instant run
  // in the order they were scheduled and no fault is placed.
  virtual bool decides_order() const { return false; }
  // Which of the events due at `at_ms` (their actors, in the order they were scheduled) runs next.
  virtual size_t next_event(const std::vector<Actor>& due, int64_t at_ms) { (void)due, (void)at_ms; return 0; }
  // A fault to act out at `at_ms`, just before the next event, which acts on `next`: nullopt for
  // none. `names` gives the world's clients by index.
  virtual std::optional<Fault> fault_before(const Actor& next, const std::vector<std::string>& names, int64_t at_ms) {
    (void)next, (void)names, (void)at_ms;
    return std::nullopt;
  }
};

// The world's seeded chance, keyed to each message's identity: a message's latency and fate depend
// on the seed and on what the message is, not on how many messages went before it.
class RandomScheduler final : public Scheduler {
 public:
  explicit RandomScheduler(uint64_t seed) : seed_(seed) {}
  int64_t latency(const MessageAsk& m) override {
    return chance_of(seed_, m.identity, "latency").range(m.latency_min_ms, m.latency_max_ms);
  }
  bool lost(const MessageAsk& m) override {
    return chance_of(seed_, m.identity, "loss").chance(m.loss_numerator, m.loss_denominator);
  }

 private:
  uint64_t seed_;
};

}  // namespace locksim::world
