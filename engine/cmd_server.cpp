// Server: PING, ECHO, TIME, DEBUG SLEEP (Redis server.c, debug.c).
#include "engine/commands.hpp"
#include "engine/engine.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"
#include "engine/scripting.hpp"

namespace locksim::engine {

// PING [message]: in subscriber mode the reply is ["pong", message].
Reply ping_command(CommandContext& ctx) {
  if (ctx.argc() > 2) return Reply::error(errors::wrong_arity("ping"));
  if (ctx.session != kScriptCaller && !ctx.engine.resp3(ctx.session) && ctx.engine.pubsub().count_of(ctx.session) > 0)
    return Reply::array({Reply::bulk("pong"), Reply::bulk(ctx.argc() == 2 ? ctx.arg(1) : "")});
  return ctx.argc() == 2 ? Reply::bulk(ctx.arg(1)) : Reply::status("PONG");
}

// ECHO message
Reply echo_command(CommandContext& ctx) { return Reply::bulk(ctx.arg(1)); }

// TIME: [unix seconds, microseconds] from the host's clock.
Reply time_command(CommandContext& ctx) {
  const int64_t now_ms = ctx.db.now();
  return Reply::array({Reply::bulk(format_int64(now_ms / 1000)), Reply::bulk(format_int64((now_ms % 1000) * 1000))});
}

// DEBUG SLEEP seconds: the host decides what sleeping means (the simulated clock moves). Every other
// subcommand, and SLEEP with the wrong argument count, gets Redis's generic refusal (locksim has no
// other DEBUG subcommands; the real ones are listed in docs/fidelity.md as unsupported).
Reply debug_command(CommandContext& ctx) {
  if (!equals_ignore_case(ctx.arg(1), "sleep") || ctx.argc() != 3) {
    return Reply::error(errors::unknown_subcommand_or_arity(ctx.arg(1), "DEBUG"));
  }
  auto seconds = parse_double(ctx.arg(2));
  // Redis reads the argument with strtod and sleeps for what it parsed (0 on junk).
  const double s = seconds ? *seconds : 0.0;
  const auto ms = static_cast<int64_t>(s * 1000.0);
  if (ms > 0) ctx.engine.host().sleep_ms(ms);
  return Reply::ok();
}

// CLUSTER <subcommand> ...: this server has no cluster support, as a redis-server started without
// cluster-enabled answers (after the subcommand's name and arity are checked).
Reply cluster_command(CommandContext&) { return Reply::error(errors::kClusterDisabled); }

}  // namespace locksim::engine
