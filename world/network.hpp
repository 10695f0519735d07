#pragma once
// Link: one client's connection to the servers, in both directions. Each message gets a one-way
// latency drawn from a range; it may be lost, held back by a partition, slowed by an injected delay,
// or (when reordering is on) overtake earlier ones. Without reordering a direction is FIFO, as TCP.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "base/state_writer.hpp"
#include "world/scheduler.hpp"

namespace locksim::world {

struct LinkOptions {
  int64_t latency_min_ms = 1;
  int64_t latency_max_ms = 3;
  uint64_t loss_numerator = 0;  // probability of losing a message = numerator / denominator
  uint64_t loss_denominator = 1000;
  bool reorder = false;
};

class Link {
 public:
  explicit Link(LinkOptions options) : options_(options) {}

  // When a message sent at `now` arrives, or nullopt when it is lost: its latency and loss are the
  // scheduler's to decide. `to_server` picks the direction; `client` is the link's owner; `identity`
  // names the message (MessageAsk::identity).
  std::optional<int64_t> arrival(int64_t now, bool to_server, int client, uint64_t identity, Scheduler& scheduler) {
    int64_t& last = to_server ? last_to_server_ : last_to_client_;
    const MessageAsk ask{client,
                         to_server,
                         options_.latency_min_ms,
                         options_.latency_max_ms,
                         now + (now < delayed_until_ ? extra_delay_ms_ : 0),
                         options_.reorder ? -1 : last,
                         current_loss_numerator(now),
                         options_.loss_denominator,
                         identity};
    const int64_t latency = scheduler.latency(ask);
    const bool lost_by_chance = scheduler.lost(ask);
    if (now < partitioned_until_ || lost_by_chance) return std::nullopt;
    int64_t at = ask.earliest_ms + latency;
    if (!options_.reorder) at = std::max(at, last);
    last = std::max(last, at);
    return at;
  }

  void partition_until(int64_t t) { partitioned_until_ = std::max(partitioned_until_, t); }
  void delay_until(int64_t t, int64_t extra_ms) {
    delayed_until_ = t;
    extra_delay_ms_ = extra_ms;
  }
  void loss_until(int64_t t, uint64_t numerator) {
    lossy_until_ = t;
    fault_loss_numerator_ = numerator;
  }
  bool partitioned(int64_t now) const { return now < partitioned_until_; }
  // Its fault windows and the last arrivals each way (a message behind them cannot overtake),
  // relative to `now`, as state (base/state_writer.hpp). The options are the scenario's.
  void describe(StateWriter& out, int64_t now) const {
    const auto left = [now](int64_t t) { return std::max<int64_t>(t - now, 0); };
    out.field("partitioned_for", left(partitioned_until_));
    if (left(delayed_until_) > 0) out.field("delayed_for", left(delayed_until_)).field("delay", extra_delay_ms_);
    if (left(lossy_until_) > 0)
      out.field("lossy_for", left(lossy_until_)).field("loss", static_cast<int64_t>(fault_loss_numerator_));
    out.field("to_server_behind", left(last_to_server_)).field("to_client_behind", left(last_to_client_));
  }
  const LinkOptions& options() const { return options_; }

 private:
  uint64_t current_loss_numerator(int64_t now) const {
    return now < lossy_until_ ? std::max(fault_loss_numerator_, options_.loss_numerator) : options_.loss_numerator;
  }

  LinkOptions options_;
  int64_t partitioned_until_ = 0;
  int64_t delayed_until_ = 0;
  int64_t extra_delay_ms_ = 0;
  int64_t lossy_until_ = 0;
  uint64_t fault_loss_numerator_ = 0;
  int64_t last_to_server_ = 0;
  int64_t last_to_client_ = 0;
};

// ClientClock: what a client's System.currentTimeMillis() says: true time, plus a fixed offset,
// plus drift in parts per million, plus the jumps injected so far.
struct ClientClock {
  int64_t offset_ms = 0;
  int64_t drift_ppm = 0;
  int64_t now(int64_t true_ms) const { return true_ms + offset_ms + true_ms * drift_ppm / 1'000'000; }
};

}  // namespace locksim::world
