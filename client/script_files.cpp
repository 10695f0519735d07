#include "client/script_files.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace locksim::client {

std::string default_scripts_dir() {
  if (const char* env = std::getenv("LOCKSIM_SCRIPTS"); env != nullptr && *env != '\0') return env;
  return LOCKSIM_SCRIPTS_DIR;
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
