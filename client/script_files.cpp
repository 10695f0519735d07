#include "client/script_files.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/share_dir.hpp"

namespace locksim::client {
namespace {

// A script every lock-script folder has (RLock's unlock): a folder without it is not one.
constexpr const char* kWitness = "rlock_unlock.lua";

bool has_scripts(const std::string& dir) {
  std::error_code error;
  return std::filesystem::is_regular_file(dir + "/" + kWitness, error);
}

}  // namespace

std::string default_scripts_dir() {
  if (const char* env = std::getenv("LOCKSIM_SCRIPTS"); env != nullptr && *env != '\0') {
    if (!has_scripts(env))
      throw std::runtime_error(std::string("LOCKSIM_SCRIPTS=") + env + ": not a folder of locksim's lock scripts (no " +
                               kWitness + " there); unset it or name the scripts/ folder of a checkout or of " +
                               "PREFIX/share/locksim");
    return env;
  }
  std::string looked;
  for (const std::string& share : base::share_dirs()) {
    const std::string dir = share + "/scripts";
    if (has_scripts(dir)) return dir;
    looked += (looked.empty() ? "" : ", ") + dir;
  }
  throw std::runtime_error("cannot find locksim's lock scripts (looked in " +
                           (looked.empty() ? std::string("no folder: /proc/self/exe cannot be read") : looked) +
                           "); set LOCKSIM_SCRIPTS to the folder that has them (a checkout's scripts/, or "
                           "PREFIX/share/locksim/scripts after `make install PREFIX=...`)");
}

std::string read_script(const std::string& dir, const std::string& name) {
  const std::string path = dir + "/" + name + ".lua";
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path + ": cannot read the script (is --scripts right?)");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace locksim::client
