// Transactions: MULTI, EXEC, DISCARD, WATCH, UNWATCH (Redis multi.c). Queuing belongs to the
// dispatcher (Engine::execute), as it is processCommand's in Redis; what a WATCH sees is the
// keyspace's (keyspace.hpp: Watches). EXEC runs the queue here, each command through Engine::call,
// at the one instant the dispatcher read from the clock.
#include <utility>
#include <vector>

#include "base/assert.hpp"
#include "engine/commands.hpp"
#include "engine/engine.hpp"
#include "engine/errors.hpp"

namespace locksim::engine {
namespace {

// EXEC's reply is an array as long as the queue. A command that answers more than once (SUBSCRIBE a
// b) sends all its replies into that array, as Redis writes them after the array's header: what
// does not fit in it is read after it, as replies of their own.
Reply exec_reply(std::vector<Reply> replies, size_t commands) {
  if (replies.size() == commands) return Reply::array(std::move(replies));
  LS_ASSERT(replies.size() > commands);
  std::vector<Reply> rest(std::make_move_iterator(replies.begin() + static_cast<std::ptrdiff_t>(commands)),
                          std::make_move_iterator(replies.end()));
  replies.resize(commands);
  rest.insert(rest.begin(), Reply::array(std::move(replies)));
  return Reply::sequence(std::move(rest));
}

}  // namespace

// MULTI
Reply multi_command(CommandContext& ctx) {
  Transaction& multi = ctx.engine.transaction(ctx.session);
  if (multi.open) return Reply::error(errors::kMultiNested);
  multi.open = true;
  return Reply::ok();
}

// DISCARD
Reply discard_command(CommandContext& ctx) {
  if (!ctx.engine.transaction(ctx.session).open) return Reply::error(errors::kDiscardWithoutMulti);
  ctx.engine.discard_transaction(ctx.session);
  return Reply::ok();
}

// EXEC: nil when a watched key was touched, EXECABORT when a command was refused while queuing,
// else every queued command's reply, errors included.
Reply exec_command(CommandContext& ctx) {
  Engine& engine = ctx.engine;
  Watches& watches = engine.databases().watches();
  Transaction& multi = engine.transaction(ctx.session);
  if (!multi.open) return Reply::error(errors::kExecWithoutMulti);
  // A watched key that has expired since (at this EXEC's instant) counts as touched.
  const bool dirty_cas = watches.dirty(ctx.session) || watches.watched_key_expired(ctx.session, engine.databases());
  if (multi.dirty_exec || dirty_cas) {
    Reply reply = multi.dirty_exec ? Reply::error(errors::kExecAbort) : Reply::nil_array();
    engine.discard_transaction(ctx.session);
    return reply;
  }

  watches.unwatch_all(ctx.session);
  // The transaction stays open while its commands run, as CLIENT_MULTI stays set in Redis.
  const std::vector<QueuedCommand> queued = std::exchange(multi.queued, {});
  std::vector<Reply> replies;
  replies.reserve(queued.size());
  for (const QueuedCommand& command : queued) {
    const std::vector<std::string_view> argv(command.argv.begin(), command.argv.end());
    // The db is read for each command: a queued SELECT moves the ones after it.
    CommandContext queued_ctx{engine, engine.db_of(ctx.session), argv, ctx.session};
    Reply reply = engine.call(*command.spec, queued_ctx);
    if (reply.kind == Reply::Kind::Sequence) {
      for (Reply& each : reply.elements) replies.push_back(std::move(each));
    } else {
      replies.push_back(std::move(reply));
    }
  }
  engine.discard_transaction(ctx.session);
  return exec_reply(std::move(replies), queued.size());
}

// WATCH key [key ...]
Reply watch_command(CommandContext& ctx) {
  LS_ASSERT(ctx.session != kScriptCaller);  // NOSCRIPT
  if (ctx.engine.transaction(ctx.session).open) return Reply::error(errors::kWatchInsideMulti);
  Watches& watches = ctx.engine.databases().watches();
  // No point in watching once a watched key was touched: EXEC will fail anyway.
  if (watches.dirty(ctx.session)) return Reply::ok();
  for (size_t j = 1; j < ctx.argc(); ++j) watches.watch(ctx.session, ctx.db, ctx.arg(j));
  return Reply::ok();
}

// UNWATCH
Reply unwatch_command(CommandContext& ctx) {
  Watches& watches = ctx.engine.databases().watches();
  watches.unwatch_all(ctx.session);
  watches.clear_dirty(ctx.session);
  return Reply::ok();
}

}  // namespace locksim::engine
