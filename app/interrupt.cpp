#include "app/interrupt.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>

#include "live/interrupt.hpp"
#include "live/redis_process.hpp"

namespace locksim::app {
namespace {

std::atomic<int> g_requests{0};
std::atomic<int> g_signal{0};
std::atomic<bool> g_live{false};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free,
              "set from a signal handler");

void on_stop_signal(int signal) {
  g_signal.store(signal);
  const int requests = g_requests.fetch_add(1) + 1;
  if (!g_live.load()) return;
  if (requests > 1) {
    live::kill_started_servers();
    ::_exit(128 + signal);
  }
  live::request_interrupt();
}

}  // namespace

StopOnSignal::StopOnSignal(std::initializer_list<int> signals, Live live) {
  g_requests.store(0);
  g_signal.store(0);
  g_live.store(live == Live::Yes);
  for (const int signal : signals) previous_.emplace_back(signal, std::signal(signal, on_stop_signal));
}

StopOnSignal::~StopOnSignal() {
  for (const auto& [signal, handler] : previous_) std::signal(signal, handler);
}

bool stop_requested() { return g_requests.load() > 0; }
int stop_signal() { return g_signal.load(); }

}  // namespace locksim::app
