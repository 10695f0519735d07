#pragma once
// What redis-cli remembers of its session to draw the prompt: the database a SELECT chose and
// whether a MULTI is open, updated from each command and its reply as cliSendCommand does. The
// prompt names the fake instead of an address: "locksim> ", "locksim[2]> ", "locksim[2](TX)> ".
#include <string>
#include <vector>

#include "base/reply.hpp"

namespace locksim::shell {

class CliSession {
 public:
  // After `words` (a command as sent, its name in any case) was answered with `reply`.
  void note(const std::vector<std::string>& words, const Reply& reply);
  std::string prompt() const;
  int db() const { return db_; }

 private:
  int db_ = 0;
  bool in_multi_ = false;
  int db_before_multi_ = 0;  // EXEC that fails and DISCARD give back the database MULTI began in
};

}  // namespace locksim::shell
