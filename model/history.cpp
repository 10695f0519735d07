#include "model/history.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>
#include <istream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace locksim::model {
namespace {

constexpr std::string_view kKindNames[] = {"invoke", "ok",    "fail",  "info",    "hold",    "release",
                                           "exec",   "key",   "renew", "fault",   "message", "write",
                                           "end"};

EventKind kind_from(std::string_view name) {
  for (size_t i = 0; i < std::size(kKindNames); ++i)
    if (kKindNames[i] == name) return static_cast<EventKind>(i);
  throw std::runtime_error("unknown event type '" + std::string(name) + "'");
}

// An event's field, of its JSON type, or a message that names it: "'t' must be an integer, not \"x\"".
template <typename T>
T field_of(const nlohmann::json& j, const char* key, const T* fallback) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    if (fallback) return *fallback;
    throw std::runtime_error(std::string("missing '") + key + "'");
  }
  constexpr bool integer = std::is_same_v<T, int64_t>;
  if (integer ? !it->is_number_integer() : !it->is_string())
    throw std::runtime_error(std::string("'") + key + "' must be " + (integer ? "an integer" : "a string") + ", not " +
                             it->dump());
  return it->get<T>();
}
int64_t integer_field(const nlohmann::json& j, const char* key) { return field_of<int64_t>(j, key, nullptr); }
int64_t integer_field(const nlohmann::json& j, const char* key, int64_t fallback) {
  return field_of<int64_t>(j, key, &fallback);
}
std::string text_field(const nlohmann::json& j, const char* key) { return field_of<std::string>(j, key, nullptr); }
std::string text_field(const nlohmann::json& j, const char* key, const std::string& fallback) {
  return field_of<std::string>(j, key, &fallback);
}

}  // namespace

std::string_view to_string(EventKind kind) { return kKindNames[static_cast<size_t>(kind)]; }

const Event& History::add(Event event) {
  if (!events_.empty() && event.at_ms < events_.back().at_ms)
    throw std::logic_error("history events must arrive in time order");
  event.index = static_cast<int64_t>(events_.size());
  events_.push_back(std::move(event));
  return events_.back();
}

std::string History::to_jsonl() const {
  std::ostringstream out;
  write_jsonl(out);
  return std::move(out).str();
}

void History::write_jsonl(std::ostream& out) const {
  for (const Event& e : events_) {
    write_event_jsonl(out, e);
    out << '\n';
  }
}

void write_event_jsonl(std::ostream& out, const Event& e) {
  nlohmann::ordered_json j;
  j["i"] = e.index;
  j["t"] = e.at_ms;
  j["type"] = to_string(e.kind);
  j["p"] = e.process;
  if (e.thread != 0) j["thread"] = e.thread;
  if (e.op != 0) j["op"] = e.op;
  if (!e.lock.empty()) j["lock"] = e.lock;
  if (!e.f.empty()) j["f"] = e.f;
  if (e.value != 0) j["value"] = e.value;
  if (e.wait_ms != -1) j["wait_ms"] = e.wait_ms;
  if (e.lease_ms != -1) j["lease_ms"] = e.lease_ms;
  if (!e.text.empty()) j["text"] = e.text;
  if (!e.reply.empty()) j["reply"] = e.reply;
  if (!e.before.empty()) j["before"] = e.before;
  if (!e.after.empty()) j["after"] = e.after;
  if (!e.client.empty()) j["client"] = e.client;
  if (e.sent_ms != -1) j["sent"] = e.sent_ms;
  if (e.sent_index != -1) j["sent_i"] = e.sent_index;
  if (e.ttl_ms != -2) j["ttl"] = e.ttl_ms;
  if (!e.queue.empty()) j["queue"] = e.queue;
  if (e.for_ms != -1) j["for_ms"] = e.for_ms;
  out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

History History::from_jsonl(std::string_view text) {
  History history;
  HistoryReader reader;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (auto e = reader.read(line)) history.add(std::move(*e));
  }
  return history;
}

std::optional<Event> HistoryReader::next() {
  LS_ASSERT(in_);
  while (std::getline(*in_, line_))
    if (auto e = read(line_)) return e;
  if (in_->bad()) throw std::runtime_error("history line " + std::to_string(line_no_ + 1) + ": could not be read");
  return std::nullopt;
}

std::optional<Event> HistoryReader::read(std::string_view line) {
  ++line_no_;
  if (line.empty()) return std::nullopt;
  try {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      throw std::runtime_error("not a JSON object: a history has one event a line, as `locksim run` and `serve "
                               "--history` write it (a scenario file is run with `locksim run`, or searched with "
                               "`check --exhaustive`)");
    Event e;
    e.at_ms = integer_field(j, "t");
    // Times count from the run's start; the checkers search key states by time from 0 on.
    if (e.at_ms < 0) throw std::runtime_error("t " + std::to_string(e.at_ms) + " is before the run's start (0)");
    const int64_t own = count_;
    if (own > 0 && e.at_ms < recent_[static_cast<size_t>(own - 1) % kRecent])
      throw std::runtime_error("history events must arrive in time order");
    e.kind = kind_from(text_field(j, "type"));
    e.process = text_field(j, "p");
    e.thread = integer_field(j, "thread", 0);
    e.op = integer_field(j, "op", 0);
    e.lock = text_field(j, "lock", {});
    e.f = text_field(j, "f", {});
    e.value = integer_field(j, "value", 0);
    e.wait_ms = integer_field(j, "wait_ms", -1);
    e.lease_ms = integer_field(j, "lease_ms", -1);
    e.text = text_field(j, "text", {});
    e.reply = text_field(j, "reply", {});
    e.before = text_field(j, "before", {});
    e.after = text_field(j, "after", {});
    e.client = text_field(j, "client", {});
    e.sent_ms = integer_field(j, "sent", -1);
    e.sent_index = integer_field(j, "sent_i", -1);
    // Where the send fell among the events before this one, at its `sent` ms: a wrong place would
    // judge the sender's right by the wrong events.
    if (e.sent_index < -1 || e.sent_index > own)
      throw std::runtime_error("sent_i " + std::to_string(e.sent_index) +
                               ": expected -1 (not known) or the index of an event up to this one (" +
                               std::to_string(own) + ")");
    auto time_of = [&](int64_t i) { return recent_[static_cast<size_t>(i) % kRecent]; };
    auto kept = [&](int64_t i) { return i >= 0 && i < own && own - i <= static_cast<int64_t>(kRecent); };
    if (e.sent_index >= 0 && e.sent_ms >= 0 &&
        ((kept(e.sent_index - 1) && time_of(e.sent_index - 1) > e.sent_ms) ||
         (kept(e.sent_index) && time_of(e.sent_index) < e.sent_ms)))
      throw std::runtime_error("sent_i " + std::to_string(e.sent_index) + " does not fall at sent " +
                               std::to_string(e.sent_ms) + " ms: the events around that index are at other times");
    e.ttl_ms = integer_field(j, "ttl", -2);
    e.queue = text_field(j, "queue", {});
    e.for_ms = integer_field(j, "for_ms", -1);
    e.index = own;
    recent_[static_cast<size_t>(own) % kRecent] = e.at_ms;
    ++count_;
    return e;
  } catch (const std::exception& ex) {
    throw std::runtime_error("history line " + std::to_string(line_no_) + ": " + ex.what());
  }
}

}  // namespace locksim::model
