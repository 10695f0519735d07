#include "client/script_text_cache.hpp"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "base/sha1.hpp"
#include "client/script_files.hpp"

namespace locksim::client {
namespace {

std::mutex g_mutex;
std::map<std::string, std::shared_ptr<const ScriptText>, std::less<>> g_cache;

}  // namespace

std::shared_ptr<const ScriptText> read_script_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return nullptr;
  std::ostringstream read;
  read << file.rdbuf();
  std::string body = std::move(read).str();
  std::lock_guard<std::mutex> lock(g_mutex);
  std::shared_ptr<const ScriptText>& cached = g_cache[path];
  if (!cached || cached->body != body) {
    auto text = std::make_shared<ScriptText>();
    text->sha = sha1_hex(body);
    text->body = std::move(body);
    cached = std::move(text);
  }
  return cached;
}

const std::string& ScriptTexts::default_dir() {
  if (default_dir_.empty()) default_dir_ = default_scripts_dir();
  return default_dir_;
}

std::shared_ptr<const ScriptText> ScriptTexts::read(const std::string& path) {
  std::shared_ptr<const ScriptText>& text = read_[path];
  if (!text) text = read_script_text(path);
  return text;
}

}  // namespace locksim::client
