#include "shell/cli_session.hpp"

#include <cstdlib>

#include "engine/command_context.hpp"

namespace locksim::shell {

void CliSession::note(const std::vector<std::string>& words, const Reply& reply) {
  if (words.empty()) return;
  const auto is = [&](const char* name, size_t argc) {
    return words.size() == argc && engine::equals_ignore_case(words[0], name);
  };
  const bool failed = reply.is_error();
  // Inside MULTI a SELECT is only QUEUED, yet redis-cli takes it at once, as here.
  if (is("select", 2) && !failed) {
    db_ = std::atoi(words[1].c_str());
  } else if (is("multi", 1) && !failed) {
    in_multi_ = true;
    db_before_multi_ = db_;
  } else if (is("exec", 1) && in_multi_) {
    in_multi_ = false;
    if (failed || reply.kind == Reply::Kind::Nil) db_ = db_before_multi_;
  } else if (is("discard", 1) && !failed) {
    in_multi_ = false;
    db_ = db_before_multi_;
  } else if (is("reset", 1) && !failed) {
    in_multi_ = false;
    db_ = 0;
  }
}

std::string CliSession::prompt() const {
  std::string prompt = "locksim";
  if (db_ != 0) prompt += "[" + std::to_string(db_) + "]";
  if (in_multi_) prompt += "(TX)";
  return prompt + "> ";
}

}  // namespace locksim::shell
