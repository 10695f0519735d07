#pragma once
// A process-wide cache of script texts by path: a world reads its scripts once per name, but
// exploration builds thousands of worlds a second, each reading the same files and hashing them
// (SHA1) again. The file is read every time (so an edited file is never served stale, and nothing
// depends on file times or the clock); only when its bytes equal the cached ones is the cached text
// and SHA returned instead of hashing again. Safe from several threads.
#include <map>
#include <memory>
#include <string>

namespace locksim::client {

struct ScriptText {
  std::string body;
  std::string sha;  // SHA1 of body, lower-case hex (what EVALSHA names the script by)
};

// The text of the file at `path`, or nullptr when it cannot be read.
std::shared_ptr<const ScriptText> read_script_text(const std::string& path);

// One reading of the script files, shared by the worlds of one search: where locksim's scripts are
// is looked up once, and each path is read once, so every schedule of the search runs the same text
// (an edit made meanwhile is not half-seen), and the thousands of worlds do not each look again.
// Not for sharing between threads.
class ScriptTexts {
 public:
  // As read_script_text, at most once per path; a file that could not be read is tried again.
  std::shared_ptr<const ScriptText> read(const std::string& path);
  // As default_scripts_dir (script_files.hpp), looked up on first use; throws as it does.
  const std::string& default_dir();

 private:
  std::map<std::string, std::shared_ptr<const ScriptText>> read_;
  std::string default_dir_;
};

}  // namespace locksim::client
