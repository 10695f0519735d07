// LOCKSIM.* : what a test drives `locksim serve` with, on any connection (which then counts as a
// control connection that restarts and resets spare). Faults take the names and parameters of
// scenario files' fault steps (world/fault.hpp), acted out on real connections.
#include <charconv>
#include <filesystem>
#include <fstream>

#include "engine/command_context.hpp"
#include "model/fault_events.hpp"
#include "server/fault_command.hpp"
#include "server/server.hpp"
#include "world/fault.hpp"
#include "world/fault_param_reader.hpp"

namespace locksim::server {
namespace {

using engine::equals_ignore_case;
namespace fe = model::fault_name;

bool parse_ll(std::string_view s, int64_t& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

constexpr std::string_view kHelp =
    "LOCKSIM.CLOCK GET | ADVANCE <ms> | JUMP <ms>; LOCKSIM.FAULT <kind> [<param> <value>]... [client <name>]; "
    "LOCKSIM.NOTE acquired|released <lock> [thread <n>] [lease_ms <ms>]; LOCKSIM.HISTORY SAVE [<file name>] | LEN; "
    "LOCKSIM.SHUTDOWN";

}  // namespace

Reply Server::control_command(const ConnPtr& c, const std::vector<std::string>& argv) {
  const std::string_view cmd = argv[0];
  const size_t argc = argv.size();
  if (equals_ignore_case(cmd, "locksim.help")) return Reply::status(kHelp);
  if (equals_ignore_case(cmd, "locksim.clock")) {
    if (argc == 2 && equals_ignore_case(argv[1], "get")) return Reply::integer_of(clock_.now_ms());
    int64_t ms = 0;
    if (argc == 3 && equals_ignore_case(argv[1], "advance")) {
      if (clock_.mode() != ClockMode::Virtual)
        return Reply::error("ERR LOCKSIM.CLOCK ADVANCE needs serve --clock virtual (the real clock moves by itself)");
      if (!parse_ll(argv[2], ms) || ms < 0) return Reply::error("ERR LOCKSIM.CLOCK ADVANCE: expected ms >= 0");
      if (const std::string problem = clock_.advance_problem(ms); !problem.empty())
        return Reply::error("ERR LOCKSIM.CLOCK ADVANCE: " + problem);
      clock_.advance(ms);
      after_clock_moved();
      return Reply::integer_of(clock_.now_ms());
    }
    if (argc == 3 && equals_ignore_case(argv[1], "jump")) return fault_command({"LOCKSIM.FAULT", "clock_jump", "by_ms", argv[2]});
    return Reply::error(std::string("ERR usage: ") + std::string(kHelp));
  }
  if (equals_ignore_case(cmd, "locksim.fault")) return fault_command(argv);
  if (equals_ignore_case(cmd, "locksim.note")) {
    if (argc < 3 || (!equals_ignore_case(argv[1], "acquired") && !equals_ignore_case(argv[1], "released")) ||
        argc % 2 == 0)
      return Reply::error("ERR usage: LOCKSIM.NOTE acquired|released <lock> [thread <n>] [lease_ms <ms>]");
    int64_t thread = 0, lease_ms = -1;
    for (size_t i = 3; i + 1 < argc; i += 2) {
      int64_t v = 0;
      if (!parse_ll(argv[i + 1], v)) return Reply::error("ERR LOCKSIM.NOTE: " + argv[i] + " expects an integer");
      if (equals_ignore_case(argv[i], "thread")) thread = v;
      else if (equals_ignore_case(argv[i], "lease_ms")) lease_ms = v;
      else return Reply::error("ERR LOCKSIM.NOTE: unknown option '" + argv[i] + "' (expected thread or lease_ms)");
    }
    const bool acquired = equals_ignore_case(argv[1], "acquired");
    if (!recorder_.note(c->who(), thread, argv[2], acquired, lease_ms))
      return Reply::error("ERR LOCKSIM.NOTE released: " + c->who() + " thread " + std::to_string(thread) +
                          " noted no hold of '" + argv[2] + "'");
    return Reply::ok();
  }
  if (equals_ignore_case(cmd, "locksim.history")) {
    if (!recorder_.enabled()) return Reply::error("ERR serve keeps no history: start it with --history FILE");
    if (argc == 2 && equals_ignore_case(argv[1], "len"))
      return Reply::integer_of(static_cast<int64_t>(recorder_.history().size()));
    if ((argc == 2 || argc == 3) && equals_ignore_case(argv[1], "save")) {
      // A client names a file, never a path: what a socket may make serve write stays beside the
      // history the person who started it chose.
      if (argc == 3 && (argv[2].empty() || argv[2] == "." || argv[2] == ".." ||
                        argv[2].find_first_of(std::string_view("/\0", 2)) != std::string::npos))
        return Reply::error("ERR LOCKSIM.HISTORY SAVE: expected a file name (no '/'), written beside --history");
      const std::string path =
          argc == 3 ? (std::filesystem::path(options_.history).parent_path() / argv[2]).string() : options_.history;
      std::ofstream f(path, std::ios::binary);
      recorder_.history().write_jsonl(f);
      if (!f) return Reply::error("ERR LOCKSIM.HISTORY SAVE: cannot write " + path);
      return Reply::integer_of(static_cast<int64_t>(recorder_.history().size()));
    }
    return Reply::error(std::string("ERR usage: ") + std::string(kHelp));
  }
  if (equals_ignore_case(cmd, "locksim.shutdown")) {
    stop();
    return Reply::ok();
  }
  return Reply::error("ERR unknown command '" + argv[0] + "': " + std::string(kHelp));
}

std::string parse_fault(const std::vector<std::string>& argv, ServedFault& out) {
  world::Fault& f = out.fault;
  std::string& client = out.client;
  if (argv.size() < 2) return std::string("ERR usage: LOCKSIM.FAULT <kind> [<param> <value>]... [client <name>]");
  const world::FaultInfo* info = world::find_fault(argv[1]);
  if (!info) return std::string("ERR unknown fault '" + argv[1] + "' (expected " + world::fault_list() + ")");
  if (!info->not_served.empty())
    return std::string("ERR fault '" + argv[1] + "' cannot be acted out by serve: " + std::string(info->not_served));
  f.kind = info->kind;
  client = "*";
  std::vector<world::FaultParam> given;
  for (size_t i = 2; i < argv.size(); i += 2) {
    const std::string& key = argv[i];
    if (i + 1 >= argv.size()) return std::string("ERR LOCKSIM.FAULT " + argv[1] + ": " + key + " has no value");
    const std::string& value = argv[i + 1];
    if (key == "client" && !info->on_server) {
      client = value;
      continue;
    }
    const world::FaultParamInfo* param = nullptr;
    for (const world::FaultParamInfo& p : world::fault_params())
      if (p.key == key && info->takes(p.param)) param = &p;
    if (!param || param->param == world::FaultParam::Server) {
      std::string expected;
      for (world::FaultParam p : info->params)
        if (p != world::FaultParam::Server) expected += std::string(expected.empty() ? "" : ", ") + std::string(world::param_info(p).key);
      if (!info->on_server) expected += std::string(expected.empty() ? "" : ", ") + "client";
      return std::string("ERR LOCKSIM.FAULT " + argv[1] + ": unknown parameter '" + key + "' (expected " +
                          (expected.empty() ? "none" : expected) + ")");
    }
    if (std::string problem = world::read_fault_param(f, param->param, value); !problem.empty())
      return "ERR LOCKSIM.FAULT " + argv[1] + ": " + problem;
    given.push_back(param->param);
  }
  // What serve cannot act out, though a scenario file may write it.
  if (f.sentinel)
    return std::string("ERR LOCKSIM.FAULT failover: serve promotes its in-process replica directly (via direct); "
                       "there is no Sentinel");
  if (const auto problem = world::fault_params_problem(f, given))
    return "ERR LOCKSIM.FAULT " + argv[1] + ": " + problem->text;
  return "";
}

Reply Server::fault_command(const std::vector<std::string>& argv) {
  ServedFault parsed;
  if (std::string problem = parse_fault(argv, parsed); !problem.empty()) return Reply::error(problem);
  const world::Fault& f = parsed.fault;
  const std::string& client = parsed.client;
  const std::string server(kServerName);
  const SteadyTime until = steady_after(std::chrono::steady_clock::now(), f.for_ms);
  switch (f.kind) {
    case world::FaultKind::Crash:
    case world::FaultKind::Pause:
    case world::FaultKind::Interrupt:
      break;  // refused above (not_served)
    case world::FaultKind::Partition:
      partitions_[client] = {until, 0, 0};
      recorder_.fault(client, fe::kPartition, 0, f.for_ms);
      timer_at(until, [this, client] {
        recorder_.fault(client, fe::kHeal, 0, -1);
        process_all();
      });
      break;
    case world::FaultKind::Delay:
      delays_[client] = {until, f.extra_ms, 0};
      recorder_.fault(client, fe::kDelay, f.extra_ms, f.for_ms);
      break;
    case world::FaultKind::Loss:
      losses_[client] = {until, 0, f.per_thousand};
      recorder_.fault(client, fe::kLoss, static_cast<int64_t>(f.per_thousand), f.for_ms);
      break;
    case world::FaultKind::ClockJump:
      // Here the clock that jumps is the server's: a real client's own clock is not serve's to move.
      if (const std::string problem = clock_.jump_problem(f.by_ms); !problem.empty())
        return Reply::error("ERR LOCKSIM.FAULT clock_jump: " + problem);
      clock_.jump(f.by_ms);
      recorder_.fault(server, fe::kClockJump, f.by_ms, -1, "the server's clock");
      after_clock_moved();
      break;
    case world::FaultKind::RedisRestart:
      if (f.persistence == world::Persistence::AofEverySec && !options_.appendonly)
        return Reply::error("ERR LOCKSIM.FAULT redis_restart persistence aof needs serve --appendonly (as Redis needs appendonly yes)");
      replace_engine(f.persistence == world::Persistence::AofEverySec ? aof_ : engine::Snapshot{});
      if (f.persistence == world::Persistence::None) aof_.clear();
      recorder_.fault(server, fe::kRestart, 0, -1,
                      f.persistence == world::Persistence::AofEverySec ? "aof everysec" : "no persistence");
      break;
    case world::FaultKind::Failover:
      if (options_.replica_lag_ms < 0)
        return Reply::error("ERR LOCKSIM.FAULT failover needs serve --replica-lag-ms <ms> (the replica it promotes)");
      if (f.lag_ms > options_.replica_lag_ms)
        return Reply::error("ERR LOCKSIM.FAULT failover: lag_ms " + std::to_string(f.lag_ms) +
                            " is beyond serve --replica-lag-ms " + std::to_string(options_.replica_lag_ms));
      replace_engine(replica_.promoted(clock_.run_ms(), f.lag_ms));
      recorder_.fault(server, fe::kFailover, f.lag_ms, -1,
                      "replica lagging " + std::to_string(f.lag_ms) + " ms promoted");
      break;
    case world::FaultKind::RedisPause:
      paused_until_ = std::max(paused_until_, until);
      recorder_.fault(server, fe::kPause, 0, f.for_ms);
      timer_at(until, [this, server] {
        recorder_.fault(server, fe::kResume, 0, -1);
        process_all();
      });
      break;
    case world::FaultKind::ErrorReply:
      errors_until_ = until;
      error_text_ = f.text;
      recorder_.fault(server, fe::kErrorReply, 0, f.for_ms, f.text);
      break;
    case world::FaultKind::Reset: {
      std::vector<ConnPtr> victims;
      for (const auto& [id, c] : connections_)
        if (!c->control && (client == "*" || c->who() == client)) victims.push_back(c);
      recorder_.fault(client, fe::kReset, 0, -1);
      for (const ConnPtr& c : victims) close(c);
      return Reply::integer_of(static_cast<int64_t>(victims.size()));
    }
  }
  return Reply::ok();
}

}  // namespace locksim::server
