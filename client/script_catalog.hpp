#pragma once
// ScriptCatalog: the Lua scripts a client may run, by name, read once from a directory (scripts/),
// with a user's own files taking the place of named ones.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "client/backend.hpp"
#include "client/script_text_cache.hpp"

namespace locksim::client {

class ScriptCatalog {
 public:
  // `texts`: a search's one reading of the files (script_text_cache.hpp); nullptr: read them here.
  explicit ScriptCatalog(std::string dir, std::shared_ptr<ScriptTexts> texts = nullptr)
      : dir_(std::move(dir)), texts_(std::move(texts)) {}
  // Replaces script `name` by the file at `path` (an audit of the user's own script).
  void override_with(const std::string& name, const std::string& path);
  // The script `name`; reads `<dir>/<name>.lua` on first use. Throws std::runtime_error with the
  // path when the file cannot be read.
  const Script& get(const std::string& name);
  // The names get() has been asked for, sorted: every script the locks built on it may run.
  std::vector<std::string> names() const;

 private:
  std::string dir_;
  std::shared_ptr<ScriptTexts> texts_;
  std::map<std::string, std::string> overrides_;
  std::map<std::string, Script> scripts_;
};

}  // namespace locksim::client
