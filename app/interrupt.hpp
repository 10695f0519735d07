#pragma once
// Ctrl-C, one way for every command. While a StopOnSignal lives, the signals it names do not end
// locksim: they ask the command to stop at its next check (between scenarios, cases or schedules),
// and it then says so and writes what it has. The handler only counts the request.
//
// A live run (Live::Yes) also tells the live servers' poll loop (live/interrupt.hpp), which ends the
// scenario running now; a second signal there stops every server locksim started and exits at once.
#include <initializer_list>
#include <utility>
#include <vector>

namespace locksim::app {

class StopOnSignal {
 public:
  enum class Live { No, Yes };
  // The handler on each of `signals`, the request cleared; the destructor puts the previous back.
  explicit StopOnSignal(std::initializer_list<int> signals, Live live = Live::No);
  ~StopOnSignal();
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

 private:
  std::vector<std::pair<int, void (*)(int)>> previous_;
};

// Whether a signal asked to stop since the last StopOnSignal was made (still true after it ends).
bool stop_requested();
// The signal that asked last (0: none).
int stop_signal();

}  // namespace locksim::app
