#pragma once
// Where locksim's own files (the lock scripts, the scenario library) are: in the share/locksim
// folder beside its executable, found through /proc/self/exe, never through a path fixed at build
// time. Installed, that is <prefix>/share/locksim for <prefix>/bin/locksim; the build tree has
// build/share/locksim (links to the checkout's folders, made by CMakeLists.txt), which build/locksim
// finds in its own folder and the test binaries of build/verify/ one folder up.
#include <optional>
#include <string>
#include <vector>

namespace locksim::base {

// The share/locksim folders looked in, in order: <exe dir>/share/locksim, <exe dir>/../share/locksim.
// Empty when the executable's path cannot be read.
std::vector<std::string> share_dirs();

// `<share dir>/<name>` of the first share dir that has a folder `name` (scripts, scenarios).
std::optional<std::string> find_share_folder(const std::string& name);

}  // namespace locksim::base
