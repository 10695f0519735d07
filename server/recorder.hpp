#pragma once
// Recorder: the history of a `locksim serve` run, in the vocabulary the checkers read
// (model/history.hpp): every client command as an Exec event of server "redis0" (with the content of
// the lock keys it names before and after, and the protected resource's reads and writes), key
// events, faults, and what clients note of their own beliefs (LOCKSIM.NOTE). Bounded: past its limit
// it stops recording and its history says so.
#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <string>
#include <string_view>
#include <vector>

#include "base/reply.hpp"
#include "engine/keyspace.hpp"
#include "model/history.hpp"

namespace locksim::server {

inline constexpr std::string_view kServerName = "redis0";

class Recorder {
 public:
  // `now` reads the run's time (ms since serve started) for each event. A disabled recorder keeps
  // nothing (serve without --history), so that it costs nothing.
  Recorder(bool enabled, std::function<int64_t()> now, std::vector<std::string> lock_keys, std::string resource,
           size_t limit);
  bool enabled() const { return enabled_; }

  // What a command will be recorded with, taken before it runs (the lock key's content).
  struct Before {
    std::string lock;
    std::string content;
  };
  Before before(const engine::Keyspace& keyspace, int64_t epoch_ms, const std::vector<std::string>& argv) const;
  void exec(const std::string& client, const std::vector<std::string>& argv, const Reply& reply, const Before& before,
            const engine::Keyspace& keyspace, int64_t epoch_ms);
  void key_event(std::string_view key, std::string_view f, int64_t expire_at_ms);
  void fault(const std::string& process, std::string_view f, int64_t value, int64_t for_ms, std::string text = {});
  // A client's belief: `acquired` (a Hold, re-entries counted) or released (a Release) of `lock`,
  // with the lease it asked for (-1: none, renewed). False for a release of a lock not noted held.
  bool note(const std::string& client, int64_t thread, const std::string& lock, bool acquired, int64_t lease_ms);
  // A reply a loss fault ate.
  void lost_reply(const std::string& client, const std::vector<std::string>& argv);
  void end();

  const model::History& history() const { return history_; }
  bool cut() const { return cut_; }

 private:
  void add(model::Event event);

  bool enabled_;
  std::function<int64_t()> now_;
  std::vector<std::string> lock_keys_;
  std::string resource_;
  size_t limit_;
  bool cut_ = false;
  int64_t last_ms_ = 0;
  model::History history_;
  std::map<std::tuple<std::string, int64_t, std::string>, int64_t> depth_;  // (client, thread, lock) -> holds
};

// How a command reads in a history: its words, a script shown by its SHA1, long arguments cut.
std::string command_text(const std::vector<std::string>& argv);

}  // namespace locksim::server
