// World::describe: the world's state between two events as data, for a bounded search's
// fingerprint (issue 38, world-as-data.md). Times are relative to now; the ids the world counts up
// that act only as names (ops, calls, spawned tasks) are renumbered by first appearance
// (StateWriter::id); the connections' and incarnations' counts are written as they are.
#include "client/backend.hpp"
#include "client/command_words.hpp"
#include "world/world.hpp"

namespace locksim::world {
namespace {

using client::describe_command;
using client::describe_task;

void describe_entry(StateWriter& out, const EventTag& tag, int64_t in_ms, int64_t now) {
  out.begin(to_string(tag.kind)).field("in", in_ms);
  out.field("actor", static_cast<int64_t>(tag.actor.kind)).field("actor_index", tag.actor.index);
  out.field("client", tag.client).field("server", tag.server).field("item", tag.item);
  if (tag.command) {
    out.begin("command");
    describe_command(out, *tag.command);
    out.end();
  }
  if (tag.reply) out.field("reply", describe(*tag.reply));
  if (!tag.what.empty()) out.field("what", tag.what);
  if (tag.about) out.field("about", static_cast<int64_t>(tag.about));
  if (tag.waiter) describe_task(out, "task", tag.waiter->task).flag("waiter_done", tag.waiter->done);
  out.flag("value", tag.value).flag("as_eval", tag.as_eval).field("epoch", static_cast<int64_t>(tag.epoch));
  // When the request was sent is recorded where it runs (its Exec event): once it has run, the
  // stamp no longer acts, and two replies alike but for it are one.
  if (tag.sent_ms >= 0 && (tag.kind == EventKind::Request || tag.kind == EventKind::RequestHeld))
    out.field("sent_ago", now - tag.sent_ms);
  out.end();
}

void describe_client(StateWriter& out, const ClientProcess& c, int64_t now) {
  out.field("name", c.name).flag("crashed", c.crashed).field("generation", static_cast<int64_t>(c.generation));
  out.field("paused_for", std::max<int64_t>(c.paused_until - now, 0));
  // A clock that drifts reads differently at different times: then the time itself is state.
  out.field("clock_offset", c.clock.offset_ms).field("drift_ppm", c.clock.drift_ppm);
  if (c.clock.drift_ppm != 0) out.field("now", now);
  c.link.describe(out, now);
  c.draws.describe(out);
  int64_t running = 0;
  for (const auto& task : c.tasks) running += task.done() ? 0 : 1;
  out.field("tasks_running", running);
  for (const auto& d : c.deferred) describe_task(out, "deferred_task", d.task).flag("deferred_value", d.value);
  for (const auto& [id, thread] : c.threads) {
    out.begin("thread").field("id", id).flag("busy", thread.busy);
    if (thread.interrupted) out.flag("interrupted", true);
    for (const OpSpec& op : thread.pending) {
      out.field("pending", op_name(op.kind)).field("lock", op.lock).field("wait", op.wait_ms);
      out.field("lease", op.lease_ms).field("unit", op.lease_unit_ms).field("duration", op.duration_ms);
    }
    out.end();
  }
  for (const auto& [key, channel] : c.channels) {
    out.begin("channel").field("server", key.server).field("name", key.channel);
    out.field("references", channel.references).flag("confirmed", channel.confirmed).field("permits", channel.permits);
    for (const auto& waiter : channel.waiters) describe_task(out, "waiter_task", waiter->task).flag("waiter_done", waiter->done);
    if (channel.subscribing)
      describe_task(out, "subscribing_task", channel.subscribing->task)
          .flag("subscribing_done", channel.subscribing->done)
          .flag("subscribed", channel.subscribing->value);
    out.end();
  }
  c.backend->describe(out);
}

}  // namespace

bool World::describe(StateWriter& out) const {
  const int64_t now = this->now();
  out.field("left", until_ - now);
  out.field("faults_for", std::max<int64_t>(faults_until_ - now, 0)).field("failovers_awaited", failovers_awaited_);
  // The agenda in the order it runs, the servers' ticker in its place: its (time, insertion order).
  out.begin("agenda");
  std::vector<EventQueue::Scheduled> entries = queue_.scheduled();
  const std::optional<EventQueue::Tick> tick = queue_.next_tick();
  bool tick_written = !tick;
  for (const EventQueue::Scheduled& e : entries) {
    if (!tick_written && (tick->at_ms < e.at_ms || (tick->at_ms == e.at_ms && tick->seq < e.seq))) {
      out.field("tick_in", tick->at_ms - now);
      tick_written = true;
    }
    describe_entry(out, e.tag, e.at_ms - now, now);
  }
  if (!tick_written) out.field("tick_in", tick->at_ms - now);
  out.end();
  for (const auto& [name, resource] : resources_)
    out.field("resource", name).field("highest", resource.highest()).field("accepted", resource.accepted());
  bool whole = true;
  for (const auto& [name, process] : clients_) {
    out.begin("client");
    describe_client(out, *process, now);
    if (process->user) whole = process->user->describe(out, process->clock.now(epoch_now())) && whole;
    out.end();
  }
  return fabric_.describe(out) && whole;
}

}  // namespace locksim::world
