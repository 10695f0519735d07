#pragma once
// Where the shell's command lines come from. A stream (a pipe, a file) shows no prompt, as redis-cli
// reading a pipe shows none; a terminal's line editor (shell/line_editor.hpp) shows it.
#include <istream>
#include <optional>
#include <string>

namespace locksim::shell {

class LineSource {
 public:
  virtual ~LineSource() = default;
  // The next line, without its newline; nullopt at the end of the input.
  virtual std::optional<std::string> read_line(const std::string& prompt) = 0;
};

class StreamLines : public LineSource {
 public:
  explicit StreamLines(std::istream& in) : in_(in) {}
  std::optional<std::string> read_line(const std::string&) override {
    std::string line;
    if (!std::getline(in_, line)) return std::nullopt;
    return line;
  }

 private:
  std::istream& in_;
};

}  // namespace locksim::shell
