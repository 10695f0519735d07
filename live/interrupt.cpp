#include "live/interrupt.hpp"

#include <csignal>

namespace locksim::live {
namespace {
volatile std::sig_atomic_t g_requested = 0;
}

void request_interrupt() { g_requested = 1; }
bool interrupt_requested() { return g_requested != 0; }

}  // namespace locksim::live
