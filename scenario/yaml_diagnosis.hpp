#pragma once
// Why a scenario file is not valid YAML, said as what to fix. yaml-cpp reports only where it gave up
// and a terse reason ("end of map flow not found", "illegal map value"); the usual mistakes behind
// them (a '{', '[' or quote never closed, a tab in the indentation, a key or list item indented
// unlike the lines it belongs with, a key without ': ') are found again in the file's lines and
// reported at the line to fix, with the parser's own words after them.
#include <optional>
#include <string>
#include <string_view>

namespace locksim::scenario {

struct YamlProblem {
  int line = 1;    // 1-based
  int column = 1;  // 1-based
  std::string message;
};

// The mistake in `text` that made yaml-cpp give up at `line`, `column` (1-based) with `message`; when
// none is recognised, yaml-cpp's message at its own place.
YamlProblem explain_yaml_error(std::string_view text, int line, int column, const std::string& message);

// A quote that yaml-cpp (0.7) lets run to the end of the file instead of refusing it: the value then
// swallows every line after it, and the file's real mistake would be reported as a missing key.
std::optional<YamlProblem> unclosed_quote(std::string_view text);

}  // namespace locksim::scenario
