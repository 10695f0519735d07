#pragma once
// A process-wide cache of script files by path: a world reads its scripts once per name, but
// exploration builds thousands of worlds a second, each reading the same files and hashing them
// (SHA1) again. The cache keeps each file's text and SHA; a file whose size, modification time or
// inode changed since it was read is read again, so an edited (or replaced) file is never served
// stale. A file modified in the last few seconds is not cached at all (git's "racily clean" rule):
// a rewrite of the same size within the file system's timestamp granularity would leave its stamp
// unchanged. Which branch is taken never changes what is returned, only what it costs. Safe from
// several threads.
#include <memory>
#include <string>

namespace locksim::client {

struct ScriptText {
  std::string body;
  std::string sha;  // SHA1 of body, lower-case hex (what EVALSHA names the script by)
};

// The text of the file at `path`, or nullptr when it cannot be read.
std::shared_ptr<const ScriptText> read_script_text(const std::string& path);

}  // namespace locksim::client
