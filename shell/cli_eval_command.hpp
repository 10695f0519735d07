#pragma once
// `redis-cli --eval FILE key1 key2 , arg1 arg2`: the EVAL command it sends for a script file and
// the words after it (evalMode in redis-cli.c).
#include <string>
#include <vector>

namespace locksim::shell {

// {"EVAL", script, numkeys, keys..., args...}: the words before the first lone "," are keys, the
// words after it arguments (a later "," is an argument like any other); with no "," all are keys.
std::vector<std::string> cli_eval_command(std::string script, const std::vector<std::string>& words);

}  // namespace locksim::shell
