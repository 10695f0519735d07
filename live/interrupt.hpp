#pragma once
// A live run stops cleanly when asked (Ctrl-C): the signal handler only sets a flag, and the fabric's
// poll loop ends the run at the next turn, so servers are stopped and reports written as usual.
namespace locksim::live {

void request_interrupt();  // async-signal-safe
bool interrupt_requested();

}  // namespace locksim::live
