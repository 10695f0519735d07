// The house keeps its shape (docs/architecture.md): every quoted include of a floor's file names a
// floor that floor stands on (the compiler already refuses the rest in .cpp files; this also covers
// headers that only higher floors include), and no two files of one floor include each other,
// directly or round a ring. A file's "unit" is its name without extension: foo.hpp and foo.cpp are
// one unit. The floors and what each sees come from CMake (build/floors/floors.txt), the one table.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Include {
  int line;
  std::string path;  // as written: "model/history.hpp"
};

struct SourceFile {
  std::string floor;
  std::string name;  // "history.hpp"
  std::vector<Include> includes;
};

using Sees = std::map<std::string, std::set<std::string>>;  // floor -> floors it may include

std::string unit_of(const std::string& file_name) { return fs::path(file_name).stem().string(); }

Sees read_floors(const std::string& path) {
  std::ifstream in(path);
  Sees sees;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::istringstream words(line.substr(colon + 1));
    std::set<std::string>& floors = sees[line.substr(0, colon)];
    for (std::string w; words >> w;) floors.insert(w);
  }
  return sees;
}

std::vector<Include> quoted_includes(std::istream& in) {
  static const std::regex kInclude(R"(^\s*#\s*include\s+"([^"]+)\")");
  std::vector<Include> out;
  std::string line;
  int number = 0;
  std::smatch m;
  while (std::getline(in, line)) {
    ++number;
    if (std::regex_search(line, m, kInclude)) out.push_back({number, m[1].str()});
  }
  return out;
}

std::vector<SourceFile> read_floor_files(const std::string& root, const Sees& sees) {
  std::vector<SourceFile> files;
  for (const auto& [floor, seen] : sees) {
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(fs::path(root) / floor)) {
      const std::string ext = entry.path().extension().string();
      if (ext == ".hpp" || ext == ".cpp") paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    for (const fs::path& p : paths) {
      std::ifstream in(p);
      files.push_back({floor, p.filename().string(), quoted_includes(in)});
    }
  }
  return files;
}

// "engine/keyspace.cpp:3 includes sim/node.hpp, but engine sees only base engine", one per include
// that reaches sideways or up.
std::vector<std::string> reaches(const std::vector<SourceFile>& files, const Sees& sees) {
  std::vector<std::string> out;
  for (const SourceFile& f : files) {
    const std::set<std::string>& allowed = sees.at(f.floor);
    for (const Include& inc : f.includes) {
      const std::string top = inc.path.substr(0, inc.path.find('/'));
      if (allowed.count(top)) continue;
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : " ") + a;
      out.push_back(f.floor + "/" + f.name + ":" + std::to_string(inc.line) + " includes " + inc.path + ", but " +
                    f.floor + " sees only " + list);
    }
  }
  return out;
}

// Every ring of units within one floor, each as "floor: a -> b -> a" (found by depth-first search
// in name order, so the same tree gives the same list).
std::vector<std::string> rings(const std::vector<SourceFile>& files) {
  std::map<std::string, std::map<std::string, std::set<std::string>>> edges;  // floor -> unit -> units
  for (const SourceFile& f : files) {
    auto& from = edges[f.floor][unit_of(f.name)];
    for (const Include& inc : f.includes) {
      const size_t slash = inc.path.find('/');
      if (inc.path.substr(0, slash) != f.floor) continue;
      const std::string to = unit_of(inc.path.substr(slash + 1));
      if (to != unit_of(f.name)) from.insert(to);
    }
  }
  std::vector<std::string> out;
  for (const auto& [floor, graph] : edges) {
    std::map<std::string, int> state;  // 1: on the path, 2: done
    std::vector<std::string> path;
    auto visit = [&](auto&& self, const std::string& unit) -> void {
      state[unit] = 1;
      path.push_back(unit);
      const auto it = graph.find(unit);
      if (it != graph.end()) {
        for (const std::string& next : it->second) {
          if (state[next] == 1) {
            std::string ring = floor + ":";
            for (auto p = std::find(path.begin(), path.end(), next); p != path.end(); ++p) ring += " " + *p + " ->";
            out.push_back(ring + " " + next);
          } else if (state[next] == 0) {
            self(self, next);
          }
        }
      }
      path.pop_back();
      state[unit] = 2;
    };
    for (const auto& [unit, targets] : graph)
      if (state[unit] == 0) visit(visit, unit);
  }
  return out;
}

const Sees& tree_floors() {
  static const Sees sees = read_floors(std::string(LOCKSIM_BINARY_DIR) + "/floors/floors.txt");
  return sees;
}

TEST(Layers, CMakeDeclaresTheFloors) {
  const Sees& sees = tree_floors();
  ASSERT_GE(sees.size(), 10u) << "build/floors/floors.txt is missing or short";
  for (const char* floor : {"base", "engine", "model", "client", "world", "sim", "live", "scenario", "report"})
    EXPECT_TRUE(sees.count(floor)) << floor;
  EXPECT_EQ(sees.at("base"), std::set<std::string>{"base"});
  EXPECT_FALSE(sees.at("model").count("engine"));
  EXPECT_FALSE(sees.at("sim").count("live"));
  EXPECT_FALSE(sees.at("live").count("sim"));
}

TEST(Layers, EveryFolderOfSourcesIsAFloor) {
  // A new folder of code must be declared with locksim_floor, or nothing would check its includes.
  const std::set<std::string> not_floors{"verify", "bench", "tools", "scripts", "scenarios", "docs", "reports", "cmake"};
  for (const auto& entry : fs::directory_iterator(LOCKSIM_SOURCE_DIR)) {
    if (!entry.is_directory()) continue;
    const std::string name = entry.path().filename().string();
    if (name[0] == '.' || name.rfind("build", 0) == 0 || not_floors.count(name)) continue;
    bool has_code = false;
    for (const auto& f : fs::directory_iterator(entry.path()))
      has_code |= f.path().extension() == ".cpp" || f.path().extension() == ".hpp";
    if (has_code) {
      EXPECT_TRUE(tree_floors().count(name)) << name << "/ holds code but is not a floor";
    }
  }
}

TEST(Layers, NoIncludeReachesSidewaysOrUp) {
  const auto files = read_floor_files(LOCKSIM_SOURCE_DIR, tree_floors());
  ASSERT_GT(files.size(), 100u);
  for (const std::string& r : reaches(files, tree_floors())) ADD_FAILURE() << r;
}

TEST(Layers, NoRingOfIncludesWithinAFloor) {
  const auto files = read_floor_files(LOCKSIM_SOURCE_DIR, tree_floors());
  for (const std::string& r : rings(files)) ADD_FAILURE() << r;
}

// The checks themselves find what they look for.
TEST(Layers, APlantedSidewaysIncludeIsFound) {
  const Sees sees{{"base", {"base"}}, {"model", {"model", "base"}}, {"engine", {"engine", "base"}}};
  const std::vector<SourceFile> files{
      {"model", "history.cpp", {{1, "model/history.hpp"}, {4, "base/reply.hpp"}, {5, "engine/keyspace.hpp"}}},
      {"base", "reply.hpp", {{3, "model/history.hpp"}}},
  };
  const auto found = reaches(files, sees);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0], "model/history.cpp:5 includes engine/keyspace.hpp, but model sees only base model");
  EXPECT_EQ(found[1], "base/reply.hpp:3 includes model/history.hpp, but base sees only base");
}

TEST(Layers, APlantedRingIsFoundAndAHeaderWithItsSourceIsNot) {
  const std::vector<SourceFile> files{
      {"engine", "engine.hpp", {}},
      {"engine", "engine.cpp", {{1, "engine/engine.hpp"}, {2, "engine/scripting.hpp"}}},
      {"engine", "scripting.hpp", {}},
      {"engine", "scripting.cpp", {{1, "engine/scripting.hpp"}, {2, "engine/lua_bridge.hpp"}}},
      {"engine", "lua_bridge.cpp", {{1, "engine/lua_bridge.hpp"}, {2, "engine/engine.hpp"}}},
      {"model", "a.cpp", {{1, "model/a.hpp"}, {2, "model/b.hpp"}}},
      {"model", "b.cpp", {{1, "model/b.hpp"}}},
  };
  const auto found = rings(files);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0], "engine: engine -> scripting -> lua_bridge -> engine");
}

}  // namespace
