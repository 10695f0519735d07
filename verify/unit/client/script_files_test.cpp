// Where locksim finds its lock scripts (client/script_files.hpp): LOCKSIM_SCRIPTS when set (refused by
// name when it lacks them), else share/locksim/scripts beside the executable, here the build tree's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "client/script_files.hpp"

namespace locksim::client {
namespace {

namespace fs = std::filesystem;

// Sets LOCKSIM_SCRIPTS for one test and puts the old value back.
class ScriptsVariable {
 public:
  explicit ScriptsVariable(const std::optional<std::string>& value) {
    if (const char* old = std::getenv("LOCKSIM_SCRIPTS")) old_ = old;
    if (value) ::setenv("LOCKSIM_SCRIPTS", value->c_str(), 1);
    else ::unsetenv("LOCKSIM_SCRIPTS");
  }
  ~ScriptsVariable() {
    if (old_) ::setenv("LOCKSIM_SCRIPTS", old_->c_str(), 1);
    else ::unsetenv("LOCKSIM_SCRIPTS");
  }

 private:
  std::optional<std::string> old_;
};

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("locksim-script-files-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(ScriptFiles, WithoutTheVariableTheScriptsBesideTheExecutableAreTheCheckouts) {
  ScriptsVariable unset(std::nullopt);
  const std::string dir = default_scripts_dir();
  EXPECT_NE(dir.find("share/locksim/scripts"), std::string::npos) << dir;
  EXPECT_EQ(read_script(dir, "rlock_unlock"), read_script(std::string(LOCKSIM_SOURCE_DIR) + "/scripts", "rlock_unlock"));
}

TEST(ScriptFiles, TheVariableNamesAnotherFolder) {
  const fs::path dir = fresh_dir("good");
  std::ofstream(dir / "rlock_unlock.lua") << "return 42";
  ScriptsVariable set(dir.string());
  EXPECT_EQ(default_scripts_dir(), dir.string());
  EXPECT_EQ(read_script(default_scripts_dir(), "rlock_unlock"), "return 42");
  fs::remove_all(dir);
}

TEST(ScriptFiles, AFolderWithoutTheScriptsIsRefusedByName) {
  const fs::path dir = fresh_dir("empty");
  ScriptsVariable set(dir.string());
  try {
    default_scripts_dir();
    ADD_FAILURE() << "an empty folder was taken for the scripts";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("LOCKSIM_SCRIPTS=" + dir.string() + ": not a folder of locksim's lock scripts"),
              std::string::npos)
        << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace locksim::client
