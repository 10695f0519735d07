#include "base/share_dir.hpp"

#include <filesystem>
#include <system_error>

namespace locksim::base {

std::vector<std::string> share_dirs() {
  // The executable does not move while it runs: read its path once.
  static const std::vector<std::string> dirs = [] {
    std::error_code error;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error || exe.empty()) return std::vector<std::string>{};
    const std::filesystem::path dir = exe.parent_path();
    return std::vector<std::string>{(dir / "share" / "locksim").string(),
                                    (dir.parent_path() / "share" / "locksim").string()};
  }();
  return dirs;
}

std::optional<std::string> find_share_folder(const std::string& name) {
  for (const std::string& dir : share_dirs()) {
    std::error_code error;
    const std::string folder = dir + "/" + name;
    if (std::filesystem::is_directory(folder, error)) return folder;
  }
  return std::nullopt;
}

}  // namespace locksim::base
