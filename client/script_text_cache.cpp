#include "client/script_text_cache.hpp"

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "base/sha1.hpp"

namespace locksim::client {
namespace {

// What identifies one version of a file: any change to it (rewrite, rename over it) changes one.
struct Stamp {
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  int64_t mtime_ns = 0;
  bool operator==(const Stamp&) const = default;
};

bool stamp_of(const std::string& path, Stamp& stamp) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  stamp = {st.st_dev, st.st_ino, st.st_size, int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec};
  return true;
}

// Modification times are coarse (a kernel tick): a file changed this recently may change again
// without its time moving, so it is read afresh every time until it has aged.
constexpr int64_t kSettledNs = 2'000'000'000;

bool settled(const Stamp& stamp) {
  const int64_t now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::system_clock::now().time_since_epoch()).count();
  return now_ns - stamp.mtime_ns > kSettledNs;
}

struct Cached {
  Stamp stamp;
  std::shared_ptr<const ScriptText> text;
};

std::mutex g_mutex;
std::map<std::string, Cached, std::less<>> g_cache;

}  // namespace

std::shared_ptr<const ScriptText> read_script_text(const std::string& path) {
  Stamp before;
  if (!stamp_of(path, before)) return nullptr;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_cache.find(path);
    if (it != g_cache.end() && it->second.stamp == before) return it->second.text;
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return nullptr;
  std::ostringstream body;
  body << file.rdbuf();
  auto text = std::make_shared<ScriptText>();
  text->body = body.str();
  text->sha = sha1_hex(text->body);
  // Kept only when the file did not change while it was read (else the next reader reads again).
  Stamp after;
  if (stamp_of(path, after) && after == before && settled(before)) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_cache[path] = Cached{before, text};
  }
  return text;
}

}  // namespace locksim::client
