#include "app/run_command.hpp"

#include <filesystem>
#include <ostream>

#include "app/report.hpp"
#include "app/scenario_loader.hpp"
#include "app/scenario_runner.hpp"

namespace locksim::app {
namespace {

// scenarios/ here, or else the checkout's own library.
std::vector<std::string> default_paths() {
  if (std::filesystem::is_directory("scenarios")) return {"scenarios"};
  return {std::string(LOCKSIM_SOURCE_DIR) + "/scenarios"};
}

}  // namespace

int run_scenarios(const RunOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  try {
    files = find_scenario_files(options.paths.empty() ? default_paths() : options.paths);
  } catch (const std::exception& e) {
    err << "locksim run: " << e.what() << "\n";
    return 2;
  }
  if (files.empty()) {
    err << "locksim run: no scenario files (*.yaml) found\n";
    return 2;
  }
  std::vector<ScenarioResult> results;
  results.reserve(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    if (options.progress) err << "\r[" << i + 1 << "/" << files.size() << "] " << files[i] << "\x1b[K" << std::flush;
    results.push_back(run_scenario_file(files[i]));
  }
  if (options.progress) err << "\r\x1b[K" << std::flush;
  print_table(out, results);
  try {
    write_reports(options.out, results);
    out << "reports: " << options.out << "/summary.md, results.json, junit.xml, <scenario>/timeline.html\n";
  } catch (const std::exception& e) {
    err << "locksim run: " << e.what() << "\n";
    return 2;
  }
  bool bad = false, failed = false;
  for (const auto& r : results) {
    bad = bad || r.bad_input;
    failed = failed || !r.passed();
  }
  return bad ? 2 : failed ? 1 : 0;
}

}  // namespace locksim::app
