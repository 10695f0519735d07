#pragma once
// `locksim demo`: the seeds' lock scripts run step by step on the fake Redis, on a simulated clock.
#include <iosfwd>
#include <string>

namespace locksim::shell {

int run_demo(std::ostream& out, const std::string& scripts_dir);

}  // namespace locksim::shell
