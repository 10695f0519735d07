#include "shell/line_editor.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
// libedit's readline-compatible interface (Debian's libedit-dev).
#include <editline/readline.h>

namespace locksim::shell {

LineEditor::LineEditor() { using_history(); }

LineEditor::~LineEditor() { clear_history(); }

std::optional<std::string> LineEditor::read_line(const std::string& prompt) {
  std::unique_ptr<char, decltype(&std::free)> line(readline(prompt.c_str()), &std::free);
  if (!line) {
    std::fputs("\n", stdout);  // as redis-cli: after Ctrl-D the terminal goes on from a line of its own
    return std::nullopt;
  }
  if (line.get()[0] != '\0') add_history(line.get());
  return std::string(line.get());
}

}  // namespace locksim::shell
