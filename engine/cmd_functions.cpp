// Functions: FUNCTION LOAD | DELETE | FLUSH | LIST | STATS | DUMP | RESTORE | KILL | HELP, FCALL
// and FCALL_RO
// (Redis functions.c).
#include <optional>

#include "engine/commands.hpp"
#include "engine/engine.hpp"
#include "engine/errors.hpp"
#include "engine/functions.hpp"
#include "engine/numbers.hpp"
#include "engine/scripting.hpp"

namespace locksim::engine {
namespace {

// FUNCTION HELP, as functionHelpCommand and addReplyHelp write it.
constexpr std::string_view kHelp[] = {
    "FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "LOAD [REPLACE] <FUNCTION CODE>",
    "    Create a new library with the given library name and code.",
    "DELETE <LIBRARY NAME>",
    "    Delete the given library.",
    "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
    "    Return general information on all the libraries:",
    "    * Library name",
    "    * The engine used to run the Library",
    "    * Library description",
    "    * Functions list",
    "    * Library code (if WITHCODE is given)",
    "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
    "STATS",
    "    Return information about the current function running:",
    "    * Function name",
    "    * Command used to run the function",
    "    * Duration in MS that the function is running",
    "    If no function is running, return nil",
    "    In addition, returns a list of available engines.",
    "KILL",
    "    Kill the current running function.",
    "FLUSH [ASYNC|SYNC]",
    "    Delete all the libraries.",
    "    When called without the optional mode argument, the behavior is determined by the",
    "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
    "    * ASYNC: Asynchronously flush the libraries.",
    "    * SYNC: Synchronously flush the libraries.",
    "DUMP",
    "    Return a serialized payload representing the current libraries, can be restored using FUNCTION RESTORE command",
    "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
    "    Restore the libraries represented by the given payload, it is possible to give a restore policy to",
    "    control how to handle existing libraries (default APPEND):",
    "    * FLUSH: delete all existing libraries.",
    "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
    "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old",
    "      libraries with the new libraries (notice that even on this option there is a chance of failure",
    "      in case of functions name collision with another library).",
    "HELP",
    "    Prints this help.",
};

// FUNCTION LOAD [REPLACE] code
Reply function_load(CommandContext& ctx) {
  bool replace = false;
  size_t at = 2;
  for (; at + 1 < ctx.argc(); ++at) {
    if (!equals_ignore_case(ctx.arg(at), "replace"))
      return Reply::error(errors::err_format("Unknown option given: " + std::string(ctx.arg(at).substr(0, ctx.arg(at).find('\0')))));
    replace = true;
  }
  return ctx.engine.scripting().functions().load(ctx.arg(at), replace);
}

// FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE]
Reply function_list(CommandContext& ctx) {
  bool with_code = false;
  std::optional<std::string_view> pattern;
  for (size_t i = 2; i < ctx.argc(); ++i) {
    if (!with_code && equals_ignore_case(ctx.arg(i), "withcode")) {
      with_code = true;
      continue;
    }
    if (!pattern && equals_ignore_case(ctx.arg(i), "libraryname")) {
      if (i + 1 >= ctx.argc()) return Reply::error("ERR library name argument was not given");
      pattern = ctx.arg(++i);
      continue;
    }
    return Reply::error(errors::err_format("Unknown argument " + std::string(ctx.arg(i).substr(0, ctx.arg(i).find('\0')))));
  }
  return ctx.engine.scripting().functions().list(pattern, with_code);
}

// FUNCTION FLUSH [ASYNC | SYNC]
Reply function_flush(CommandContext& ctx) {
  if (ctx.argc() > 3) return Reply::error(errors::unknown_subcommand_or_arity(ctx.arg(1), "FUNCTION"));
  if (ctx.argc() == 3 && !equals_ignore_case(ctx.arg(2), "sync") && !equals_ignore_case(ctx.arg(2), "async"))
    return Reply::error("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
  ctx.engine.scripting().functions().flush();
  return Reply::ok();
}

// FUNCTION RESTORE payload [FLUSH | APPEND | REPLACE]
Reply function_restore(CommandContext& ctx) {
  if (ctx.argc() > 4) return Reply::error(errors::unknown_subcommand_or_arity(ctx.arg(1), "FUNCTION"));
  auto policy = Functions::RestorePolicy::Append;
  if (ctx.argc() == 4) {
    if (equals_ignore_case(ctx.arg(3), "append")) policy = Functions::RestorePolicy::Append;
    else if (equals_ignore_case(ctx.arg(3), "replace")) policy = Functions::RestorePolicy::Replace;
    else if (equals_ignore_case(ctx.arg(3), "flush")) policy = Functions::RestorePolicy::Flush;
    else return Reply::error("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
  }
  return ctx.engine.scripting().functions().restore(ctx.arg(2), policy);
}

// FCALL / FCALL_RO function numkeys [key ...] [arg ...]
Reply fcall(CommandContext& ctx, bool read_only) {
  const auto numkeys = parse_int64(ctx.arg(2));
  if (!numkeys) return Reply::error("ERR Bad number of keys provided");
  if (*numkeys > static_cast<int64_t>(ctx.argc() - 3)) return Reply::error(errors::kTooManyKeys);
  if (*numkeys < 0) return Reply::error(errors::kNegativeKeys);
  const auto n = static_cast<size_t>(*numkeys);
  ctx.engine.set_function_command(ctx.argv);
  return ctx.engine.scripting().functions().call(ctx.arg(1), ctx.argv.subspan(3, n), ctx.argv.subspan(3 + n), read_only);
}

}  // namespace

Reply function_command(CommandContext& ctx) {
  Functions& functions = ctx.engine.scripting().functions();
  const std::string_view sub = ctx.arg(1);
  if (equals_ignore_case(sub, "load")) return function_load(ctx);
  if (equals_ignore_case(sub, "list")) return function_list(ctx);
  if (equals_ignore_case(sub, "flush")) return function_flush(ctx);
  if (equals_ignore_case(sub, "delete")) return functions.remove(ctx.arg(2));
  if (equals_ignore_case(sub, "stats")) {
    // Only a busy script's hook lets FUNCTION STATS in while a script runs.
    Reply running = ctx.engine.running_script();
    if (running.is_error()) return running;
    Reply stats = functions.stats();
    stats.elements[1] = std::move(running);
    return stats;
  }
  if (equals_ignore_case(sub, "dump")) return functions.dump();
  if (equals_ignore_case(sub, "restore")) return function_restore(ctx);
  if (equals_ignore_case(sub, "kill")) return ctx.engine.kill_script(/*eval=*/false);
  if (equals_ignore_case(sub, "help")) {
    Reply help = Reply::array();
    for (const std::string_view line : kHelp) help.elements.push_back(Reply::status(line));
    return help;
  }
  return Reply::error(errors::unknown_subcommand(sub, "FUNCTION"));
}

Reply fcall_command(CommandContext& ctx) { return fcall(ctx, false); }
Reply fcall_ro_command(CommandContext& ctx) { return fcall(ctx, true); }

}  // namespace locksim::engine
