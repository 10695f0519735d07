#pragma once
// Script flags, as Redis 7.0's script.c: what a function declares when it registers, and what an
// EVAL script declares in its shebang line (`#!lua flags=no-writes`). A script without a shebang
// runs in EVAL's compatibility mode, which none of the flags' checks apply to.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace locksim::engine::script_flags {

inline constexpr uint64_t kNoWrites = 1u << 0;
inline constexpr uint64_t kAllowOom = 1u << 1;
inline constexpr uint64_t kAllowStale = 1u << 2;
inline constexpr uint64_t kNoCluster = 1u << 3;
inline constexpr uint64_t kAllowCrossSlot = 1u << 4;
inline constexpr uint64_t kEvalCompatMode = 1u << 5;  // an EVAL script with no shebang

// The flags in scripts_flags_def's order, with their names.
std::span<const std::pair<uint64_t, std::string_view>> names();

// The flag named `name` (exactly, or in any case when `nocase`), or nullopt.
std::optional<uint64_t> named(std::string_view name, bool nocase);

// The words of a first line that starts "#!" (sdssplitargs of it, cut at a NUL) and that line's
// length: what evalExtractShebangFlags and functionExtractLibMetaData both read. A line with no end,
// or with no words, is a problem each names its own way.
struct ShebangLine {
  std::vector<std::string> words;
  size_t length = 0;
};
enum class ShebangProblem { NoLineEnd, NoWords };
std::variant<ShebangLine, ShebangProblem> shebang_line(std::string_view text);

// evalExtractShebangFlags: an EVAL body's flags and the length of its shebang line (0, and
// kEvalCompatMode, when it has none), or nullopt with the error reply's text in `error`.
struct Shebang {
  uint64_t flags = kEvalCompatMode;
  size_t length = 0;
};
std::optional<Shebang> eval_shebang(std::string_view body, std::string& error);

// Whether a script with `flags` runs from a read-only command (EVAL_RO, FCALL_RO): one that may
// write does not (scriptPrepareForRun), unless it is in compatibility mode.
inline bool refused_read_only(uint64_t flags, bool read_only_command) {
  return read_only_command && !(flags & kEvalCompatMode) && !(flags & kNoWrites);
}
// Whether its run may call no write command (SCRIPT_READ_ONLY).
inline bool runs_read_only(uint64_t flags, bool read_only_command) {
  return read_only_command || (!(flags & kEvalCompatMode) && (flags & kNoWrites));
}

}  // namespace locksim::engine::script_flags
