#include "client/script_catalog.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/sha1.hpp"

namespace locksim::client {

void ScriptCatalog::override_with(const std::string& name, const std::string& path) {
  overrides_[name] = path;
  scripts_.erase(name);
}

const Script& ScriptCatalog::get(const std::string& name) {
  auto it = scripts_.find(name);
  if (it != scripts_.end()) return it->second;
  auto over = overrides_.find(name);
  const std::string path = over != overrides_.end() ? over->second : dir_ + "/" + name + ".lua";
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path + ": cannot read the script '" + name + "'");
  std::ostringstream text;
  text << file.rdbuf();
  Script script{name, text.str(), {}};
  // The SHA is what EVALSHA names the script by; the client computes it as Redisson does.
  script.sha = sha1_hex(script.body);
  return scripts_.emplace(name, std::move(script)).first->second;
}

}  // namespace locksim::client
