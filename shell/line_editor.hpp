#pragma once
// The shell's lines from a terminal, through libedit: a prompt, line editing (arrows, Ctrl-A/E,
// ...) and the session's history on the up and down arrows. Only for a terminal on standard input;
// the history lives as long as the process.
#include "shell/line_source.hpp"

namespace locksim::shell {

class LineEditor : public LineSource {
 public:
  LineEditor();
  ~LineEditor() override;
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  std::optional<std::string> read_line(const std::string& prompt) override;
};

}  // namespace locksim::shell
