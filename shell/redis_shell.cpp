#include "shell/redis_shell.hpp"

#include <cstdlib>
#include <istream>
#include <ostream>
#include <string>

#include "shell/redis_cli_format.hpp"
#include "engine/command_context.hpp"
#include "engine/engine.hpp"

namespace locksim::shell {

int run_redis_shell(std::istream& in, std::ostream& out, const RedisShellOptions& options) {
  engine::ManualHost host(options.start_ms);
  engine::Engine fake(host);
  const engine::SessionId session = fake.open_session();
  std::string line;
  while (std::getline(in, line)) {
    auto words = split_cli_args(line);
    if (!words) {
      out << "Invalid argument(s)\n";
      continue;
    }
    if (words->empty()) continue;
    if (engine::equals_ignore_case((*words)[0], "quit") || engine::equals_ignore_case((*words)[0], "exit")) break;
    // redis-cli repeats a command given a leading count: "3 INCR k".
    long repeat = 1;
    if (words->size() > 1) {
      char* end = nullptr;
      const long n = std::strtol((*words)[0].c_str(), &end, 10);
      if (!(*words)[0].empty() && *end == '\0' && n > 0) {
        repeat = n;
        words->erase(words->begin());
      }
    }
    for (long i = 0; i < repeat; ++i) out << format_cli_reply(fake.execute(session, *words));
    out.flush();
  }
  return 0;
}

}  // namespace locksim::shell
