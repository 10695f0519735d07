// Scripting: EVAL, EVALSHA, their _RO forms, SCRIPT LOAD | EXISTS | FLUSH (Redis eval.c).
#include "engine/commands.hpp"
#include "engine/engine.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"
#include "engine/scripting.hpp"

namespace locksim::engine {
namespace {

// Splits "EVAL script numkeys key... arg..." into keys and args, or returns an error.
bool split_keys(CommandContext& ctx, std::span<const std::string_view>& keys,
                std::span<const std::string_view>& args, Reply& error) {
  auto numkeys = parse_int64(ctx.arg(2));
  if (!numkeys) {
    error = Reply::error(errors::kNotInteger);
    return false;
  }
  const auto available = static_cast<int64_t>(ctx.argc() - 3);
  if (*numkeys > available) {
    error = Reply::error(errors::kTooManyKeys);
    return false;
  }
  if (*numkeys < 0) {
    error = Reply::error(errors::kNegativeKeys);
    return false;
  }
  const auto n = static_cast<size_t>(*numkeys);
  keys = ctx.argv.subspan(3, n);
  args = ctx.argv.subspan(3 + n);
  return true;
}

// EVAL / EVAL_RO script numkeys [key ...] [arg ...]
Reply eval(CommandContext& ctx, bool read_only) {
  std::span<const std::string_view> keys, args;
  Reply error;
  if (!split_keys(ctx, keys, args, error)) return error;
  return ctx.engine.scripting().eval(ctx.arg(1), keys, args, read_only);
}

// EVALSHA / EVALSHA_RO sha1 numkeys [key ...] [arg ...]
Reply evalsha(CommandContext& ctx, bool read_only) {
  std::span<const std::string_view> keys, args;
  Reply error;
  if (!split_keys(ctx, keys, args, error)) return error;
  return ctx.engine.scripting().evalsha(ctx.arg(1), keys, args, read_only);
}

}  // namespace

Reply eval_command(CommandContext& ctx) { return eval(ctx, false); }
Reply eval_ro_command(CommandContext& ctx) { return eval(ctx, true); }
Reply evalsha_command(CommandContext& ctx) { return evalsha(ctx, false); }
Reply evalsha_ro_command(CommandContext& ctx) { return evalsha(ctx, true); }

// SCRIPT LOAD script | SCRIPT EXISTS sha1 [sha1 ...] | SCRIPT FLUSH [ASYNC | SYNC] | SCRIPT KILL
Reply script_command(CommandContext& ctx) {
  Scripting& scripting = ctx.engine.scripting();
  const std::string_view sub = ctx.arg(1);
  if (equals_ignore_case(sub, "load")) {
    if (ctx.argc() != 3) return Reply::error(errors::wrong_arity("script|load"));
    return scripting.load(ctx.arg(2));
  }
  if (equals_ignore_case(sub, "exists")) {
    if (ctx.argc() < 3) return Reply::error(errors::wrong_arity("script|exists"));
    Reply reply = Reply::array();
    for (size_t j = 2; j < ctx.argc(); ++j) reply.elements.push_back(Reply::integer_of(scripting.exists(ctx.arg(j))));
    return reply;
  }
  if (equals_ignore_case(sub, "flush")) {
    // Redis answers any argument list other than [SYNC | ASYNC] with the same error, even a long one.
    if (ctx.argc() > 3 ||
        (ctx.argc() == 3 && !equals_ignore_case(ctx.arg(2), "sync") && !equals_ignore_case(ctx.arg(2), "async")))
      return Reply::error(errors::kScriptFlushOption);
    scripting.flush();
    return Reply::ok();
  }
  // Only a busy script's hook lets a client's SCRIPT KILL in while the script runs; at any other
  // time there is none to kill (NOTBUSY).
  if (equals_ignore_case(sub, "kill")) return ctx.engine.kill_script(/*eval=*/true);
  return Reply::error(errors::unknown_subcommand(sub, "SCRIPT"));
}

}  // namespace locksim::engine
