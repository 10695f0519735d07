#include "client/script_catalog.hpp"

#include <stdexcept>

#include "client/script_text_cache.hpp"

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
  // Read (and hashed) once per process and file version, or once per search: script_text_cache.hpp.
  const std::shared_ptr<const ScriptText> text = texts_ ? texts_->read(path) : read_script_text(path);
  if (!text) throw std::runtime_error(path + ": cannot read the script '" + name + "'");
  // The SHA is what EVALSHA names the script by; the client computes it as Redisson does.
  Script script{name, text->body, text->sha};
  return scripts_.emplace(name, std::move(script)).first->second;
}

std::vector<std::string> ScriptCatalog::names() const {
  std::vector<std::string> out;
  for (const auto& [name, script] : scripts_) out.push_back(name);
  return out;
}

}  // namespace locksim::client
