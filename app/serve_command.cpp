#include "app/serve_command.hpp"

#include <filesystem>
#include <ostream>
#include <stdexcept>

#include "server/fault_schedule.hpp"
#include "server/server.hpp"

namespace locksim::app {

int run_serve(const server::ServeOptions& options, std::ostream& err) {
  try {
    std::vector<server::ScheduledFault> schedule;
    if (!options.schedule.empty()) schedule = server::load_fault_schedule(options.schedule);
    if (!options.history.empty()) {
      const auto dir = std::filesystem::path(options.history).parent_path();
      if (!dir.empty()) std::filesystem::create_directories(dir);
    }
    server::Server server(options);
    server.listen();
    server.schedule(std::move(schedule));
    if (!options.quiet)
      err << "locksim serve: listening on " << options.bind << ":" << server.port() << " (clock: "
          << (options.clock == server::ClockMode::Virtual ? "virtual" : "real") << ", history: "
          << (options.history.empty() ? "not kept" : options.history) << "); LOCKSIM.HELP lists the control commands"
          << std::endl;
    server.run();
    return 0;
  } catch (const std::exception& e) {
    err << "locksim serve: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace locksim::app
