#pragma once
// RedisProcess: a redis-server (or redis-sentinel) locksim starts itself: Debian's binary on 127.0.0.1, a free port, its
// own directory, no persistence unless asked. It dies with locksim (PR_SET_PDEATHSIG), is killed by
// kill_started_servers() from a signal handler, and is stopped with its directory removed when the
// object goes away. Faults act on the real process: kill and start again, SIGSTOP and SIGCONT.
#include <cstdint>
#include <string>
#include <sys/types.h>

#include <vector>

namespace locksim::live {

struct RedisProcessOptions {
  bool aof = false;          // appendonly yes, appendfsync everysec
  std::string replica_of;    // "host port": start as a replica of that master
  bool debug_command = true; // DEBUG (the differential suite uses DEBUG SLEEP)
  // A Sentinel (Debian's redis-sentinel) instead of a server: it watches the master at this
  // "host port" as "locksim", alone (quorum 1), and calls it down after `down_after_ms`.
  std::string sentinel_of;
  int64_t down_after_ms = 1000;
};

class RedisProcess {
 public:
  // Starts the server and waits until it answers PING; throws std::runtime_error when it cannot.
  explicit RedisProcess(RedisProcessOptions options = {});
  ~RedisProcess();
  RedisProcess(const RedisProcess&) = delete;
  RedisProcess& operator=(const RedisProcess&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  const std::string& dir() const { return dir_; }

  // SIGKILL, as a crash: the AOF keeps what Redis had written to it (the page cache survives a
  // process crash; only a machine crash would lose the last second).
  void kill();
  // Starts the server again on the same port and directory; `aof` chooses whether it loads the AOF.
  void start_again(bool aof);
  // The replica became a master: started again, it comes back as a master, not a replica.
  void promoted() { options_.replica_of.clear(); }
  void stop_signal();      // SIGSTOP
  void continue_signal();  // SIGCONT
  // True while the process runs (a crash or kill we did not ask for shows here).
  bool alive();

 private:
  void launch(bool fresh_port);
  std::vector<std::string> sentinel_args(const std::string& port) const;
  void reap();

  RedisProcessOptions options_;
  pid_t pid_ = -1;
  int port_ = 0;
  std::string dir_;
  bool stopped_ = false;
};

// A port nobody listens on right now (bound and released).
int free_port();

// SIGKILLs every redis-server this process started and has not stopped: safe in a signal handler.
void kill_started_servers();

}  // namespace locksim::live
