// docs/lock-types.md must stay true: every row names a library scenario that runs the section's lock
// type, as the row's Redisson version, with exactly the row's faults, and expects the row's verdict
// (the library test then checks the run shows it). Every lock type has a section, and every library
// scenario that expects something is cited, so the page keeps up with the table and the library.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "model/lock_types.hpp"
#include "scenario/loader.hpp"
#include "world/fault.hpp"

namespace locksim::scenario {
namespace {

namespace fs = std::filesystem;
const fs::path kSource = LOCKSIM_SOURCE_DIR;

struct Row {
  int line = 0;
  std::string type;  // the section's lock type
  std::vector<std::string> cells;
};

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

struct Page {
  std::vector<std::string> sections;  // lock types, in page order
  std::vector<Row> rows;              // rows that cite a scenario
};

Page read_page() {
  std::ifstream in(kSource / "docs/lock-types.md");
  EXPECT_TRUE(in) << "docs/lock-types.md is missing";
  Page page;
  const std::regex section(R"(^## `([a-z-]+)`)");
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::smatch m;
    if (std::regex_search(line, m, section)) {
      page.sections.push_back(m[1]);
      continue;
    }
    if (line.rfind("| ", 0) != 0 || line.find("](../scenarios/") == std::string::npos) continue;
    Row row{.line = n, .type = page.sections.empty() ? "" : page.sections.back(), .cells = {}};
    std::stringstream cells(line.substr(1));
    for (std::string cell; std::getline(cells, cell, '|');) row.cells.push_back(trim(cell));
    page.rows.push_back(row);
  }
  return page;
}

std::set<std::string> backticked(const std::string& cell) {
  std::set<std::string> out;
  const std::regex word("`([a-z_]+)`");
  for (std::sregex_iterator it(cell.begin(), cell.end(), word), end; it != end; ++it) out.insert((*it)[1]);
  return out;
}

TEST(LockTypesDoc, HasASectionPerLockType) {
  const Page page = read_page();
  std::set<std::string> sections(page.sections.begin(), page.sections.end());
  for (const model::LockType& t : model::lock_types())
    EXPECT_TRUE(sections.count(std::string(t.name))) << "docs/lock-types.md has no section for " << t.name;
  for (const std::string& s : page.sections)
    EXPECT_NE(model::find_lock_type(s), nullptr) << "docs/lock-types.md has a section for an unknown lock type " << s;
  EXPECT_GE(page.rows.size(), 30u) << "the page's scenario rows were not found";
}

TEST(LockTypesDoc, EveryRowIsWhatItsScenarioExpects) {
  for (const Row& row : read_page().rows) {
    const std::string where = "docs/lock-types.md:" + std::to_string(row.line);
    ASSERT_EQ(row.cells.size(), 6u) << where << ": a row has 6 cells (property, verdict, faults, Redisson, what, scenario)";
    const std::string& property = row.cells[0];
    const std::string& verdict = row.cells[1];
    const std::string& faults = row.cells[2];
    const std::string& redisson = row.cells[3];
    std::smatch m;
    ASSERT_TRUE(std::regex_search(row.cells[5], m, std::regex(R"(\]\(\.\./(scenarios/[^)]+)\))"))) << where;
    const Scenario s = load_scenario((kSource / std::string(m[1])).string());

    EXPECT_EQ(s.lock.type, row.type) << where << ": the scenario runs another lock type";
    // A lock that is not Redisson's has no version, whatever the spec it started from says.
    const model::LockType* type = model::find_lock_type(s.lock.type);
    ASSERT_NE(type, nullptr) << where;
    EXPECT_EQ(type->redisson ? s.lock.redisson_version : "—", redisson) << where;
    std::set<std::string> ran;
    for (const TimelineEntry& e : s.timeline)
      if (e.fault) ran.insert(std::string(world::fault_name(*e.fault)));
    EXPECT_EQ(faults == "none" ? std::set<std::string>{} : backticked(faults), ran) << where << ": the faults differ";
    bool expected = false;
    for (const auto& [p, v] : s.expect) expected = expected || (p == property && v == verdict);
    EXPECT_TRUE(expected) << where << ": " << m[1] << " does not expect " << property << ": " << verdict;
  }
}

TEST(LockTypesDoc, CitesEveryLibraryScenarioThatExpectsSomething) {
  std::set<std::string> cited;
  for (const Row& row : read_page().rows) {
    std::smatch m;
    if (std::regex_search(row.cells.back(), m, std::regex(R"(\(\.\./scenarios/([^)]+)\))"))) cited.insert(m[1]);
  }
  for (const auto& entry : fs::directory_iterator(kSource / "scenarios")) {
    if (entry.path().extension() != ".yaml") continue;
    const Scenario s = load_scenario(entry.path().string());
    if (s.expect.empty()) continue;
    EXPECT_TRUE(cited.count(entry.path().filename().string()))
        << "docs/lock-types.md cites no row of scenarios/" << entry.path().filename().string();
  }
}

}  // namespace
}  // namespace locksim::scenario
