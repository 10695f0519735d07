#include "server/recorder.hpp"

#include <algorithm>
#include <charconv>

#include "base/sha1.hpp"
#include "engine/command_context.hpp"
#include "model/events.hpp"
#include "model/protected_resource.hpp"
#include "sim/rendered_key.hpp"

namespace locksim::server {
namespace {

constexpr size_t kShownArgument = 120;

bool names_key(const std::vector<std::string>& argv, const std::string& key) {
  return std::find(argv.begin() + 1, argv.end(), key) != argv.end();
}

int64_t as_integer(std::string_view s) {
  int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

}  // namespace

std::string command_text(const std::vector<std::string>& argv) {
  std::string out;
  const bool eval = !argv.empty() && (engine::equals_ignore_case(argv[0], "eval") ||
                                      engine::equals_ignore_case(argv[0], "eval_ro"));
  for (size_t i = 0; i < argv.size(); ++i) {
    if (i) out += ' ';
    if (eval && i == 1) {
      out += "<script " + sha1_hex(argv[i]).substr(0, 12) + ">";
    } else if (argv[i].size() > kShownArgument) {
      out += argv[i].substr(0, kShownArgument) + "...(" + std::to_string(argv[i].size()) + " bytes)";
    } else {
      out += argv[i];
    }
  }
  return out;
}

Recorder::Recorder(bool enabled, std::function<int64_t()> now, std::vector<std::string> lock_keys, std::string resource,
                   size_t limit)
    : enabled_(enabled),
      now_(std::move(now)), lock_keys_(std::move(lock_keys)), resource_(std::move(resource)), limit_(limit) {}

void Recorder::add(model::Event event) {
  if (!enabled_ || cut_) return;
  // The virtual clock never goes back, but a history must be in time order whatever feeds it.
  last_ms_ = std::max(last_ms_, now_());
  event.at_ms = last_ms_;
  if (history_.size() + 1 >= limit_) {
    cut_ = true;
    model::Event end = model::end_event();
    end.at_ms = last_ms_;
    end.text = "the history was cut at " + std::to_string(limit_) + " events (serve --history-limit)";
    history_.add(std::move(end));
    return;
  }
  history_.add(std::move(event));
}

Recorder::Before Recorder::before(const engine::Keyspace& keyspace, int64_t epoch_ms,
                                  const std::vector<std::string>& argv) const {
  Before b;
  if (!enabled_) return b;
  for (const std::string& key : lock_keys_)
    if (names_key(argv, key)) {
      b.lock = key;
      b.content = sim::render_key(keyspace, key, epoch_ms);
      break;
    }
  return b;
}

void Recorder::exec(const std::string& client, const std::vector<std::string>& argv, const Reply& reply,
                    const Before& before, const engine::Keyspace& keyspace, int64_t epoch_ms) {
  // Without --history nothing is built: an event's atoms are interned for good, so a serve that
  // records nothing must not grow with every distinct command it answers.
  if (!enabled_ || cut_) return;
  model::Execution x{.server = 0, .client = client, .command = Atom(client + " " + command_text(argv)),
                     .reply = Atom(locksim::describe(reply))};
  int64_t value = 0;
  if (!before.lock.empty()) {
    x.lock = before.lock;
    x.before = before.content;
    x.after = sim::render_key(keyspace, before.lock, epoch_ms);
    x.ttl_ms = sim::key_ttl(keyspace, before.lock, epoch_ms);
  } else if (!resource_.empty() && !reply.is_error() && names_key(argv, resource_)) {
    // The protected resource: a GET reads it, anything else that names it updates it.
    x.lock = resource_;
    const bool read = engine::equals_ignore_case(argv[0], "get") && argv.size() == 2;
    x.role = read ? model::kResourceRead : model::kResourceWrite;
    if (read && reply.kind == Reply::Kind::Bulk) value = as_integer(reply.str);
    if (!read && engine::equals_ignore_case(argv[0], "set") && argv.size() >= 3) value = as_integer(argv[2]);
  }
  model::Event e = model::exec_event(std::move(x));
  e.value = value;
  add(std::move(e));
}

void Recorder::key_event(std::string_view key, std::string_view f, int64_t expire_at_ms) {
  if (!enabled_) return;
  add(model::key_event(std::string(kServerName), std::string(key), std::string(f), expire_at_ms));
}

void Recorder::fault(const std::string& process, std::string_view f, int64_t value, int64_t for_ms, std::string text) {
  add(model::fault_event(process, f, value, for_ms, std::move(text)));
}

bool Recorder::note(const std::string& client, int64_t thread, const std::string& lock, bool acquired,
                    int64_t lease_ms) {
  const auto key = std::make_tuple(client, thread, lock);
  auto it = depth_.find(key);
  if (!acquired && it == depth_.end()) return false;
  model::Event e = model::op_event(acquired ? model::EventKind::Hold : model::EventKind::Release, thread, 0, lock,
                                   acquired ? "lock" : "unlock");
  e.process = client;
  if (acquired) {
    e.value = ++depth_[key];
    e.lease_ms = lease_ms;
  } else {
    e.value = --it->second;
    if (it->second == 0) depth_.erase(it);
  }
  add(std::move(e));
  return true;
}

void Recorder::lost_reply(const std::string& client, const std::vector<std::string>& argv) {
  model::Event e = model::lost_message("reply to " + command_text(argv));
  e.process = client;
  add(std::move(e));
}

void Recorder::end() {
  if (cut_) return;
  add(model::end_event());
}

}  // namespace locksim::server
