#include "engine/script_flags.hpp"

#include <array>
#include <strings.h>

#include "base/split_args.hpp"

namespace locksim::engine::script_flags {
namespace {

constexpr std::array<std::pair<uint64_t, std::string_view>, 5> kNames{{
    {kNoWrites, "no-writes"},
    {kAllowOom, "allow-oom"},
    {kAllowStale, "allow-stale"},
    {kNoCluster, "no-cluster"},
    {kAllowCrossSlot, "allow-cross-slot-keys"},
}};

}  // namespace

std::span<const std::pair<uint64_t, std::string_view>> names() { return kNames; }

std::optional<uint64_t> named(std::string_view name, bool nocase) {
  for (const auto& [flag, flag_name] : kNames) {
    const bool same = nocase ? name.size() == flag_name.size() &&
                                   strncasecmp(name.data(), flag_name.data(), name.size()) == 0
                             : name == flag_name;
    if (same) return flag;
  }
  return std::nullopt;
}

std::variant<ShebangLine, ShebangProblem> shebang_line(std::string_view text) {
  text = text.substr(0, text.find('\0'));  // a C string to Redis
  const size_t end = text.find('\n');
  if (end == std::string_view::npos) return ShebangProblem::NoLineEnd;
  auto words = split_args(text.substr(0, end));
  if (!words || words->empty()) return ShebangProblem::NoWords;
  return ShebangLine{std::move(*words), end};
}

std::optional<Shebang> eval_shebang(std::string_view body, std::string& error) {
  Shebang shebang;
  if (!body.starts_with("#!")) return shebang;
  const auto line = shebang_line(body);
  if (const auto* problem = std::get_if<ShebangProblem>(&line)) {
    error = *problem == ShebangProblem::NoLineEnd ? "ERR Invalid script shebang" : "ERR Invalid engine in script shebang";
    return std::nullopt;
  }
  const std::vector<std::string>& parts = std::get<ShebangLine>(line).words;
  if (parts[0] != "#!lua") {
    error = "ERR Unexpected engine in script shebang: " + parts[0];
    return std::nullopt;
  }
  shebang.flags = 0;
  shebang.length = std::get<ShebangLine>(line).length;
  for (size_t j = 1; j < parts.size(); ++j) {
    const std::string& part = parts[j];
    if (!part.starts_with("flags=")) {
      error = "ERR Unknown lua shebang option: " + part;
      return std::nullopt;
    }
    // sdssplitlen on ",": nothing for an empty list, an empty name between two commas.
    std::string_view list = std::string_view(part).substr(6);
    while (!list.empty()) {
      const size_t comma = list.find(',');
      const std::string_view name = list.substr(0, comma);
      const auto flag = named(name, false);
      if (!flag) {
        error = "ERR Unexpected flag in script shebang: " + std::string(name);
        return std::nullopt;
      }
      shebang.flags |= *flag;
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
      if (list.empty()) {
        error = "ERR Unexpected flag in script shebang: ";
        return std::nullopt;
      }
    }
  }
  return shebang;
}

}  // namespace locksim::engine::script_flags
