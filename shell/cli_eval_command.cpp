#include "shell/cli_eval_command.hpp"

#include <utility>

namespace locksim::shell {

std::vector<std::string> cli_eval_command(std::string script, const std::vector<std::string>& words) {
  std::vector<std::string> command = {"EVAL", std::move(script), ""};
  size_t keys = 0;
  bool got_comma = false;
  for (const std::string& word : words) {
    if (!got_comma && word == ",") {
      got_comma = true;
      continue;
    }
    command.push_back(word);
    if (!got_comma) ++keys;
  }
  command[2] = std::to_string(keys);
  return command;
}

}  // namespace locksim::shell
