#include "live/redis_process.hpp"

#include <arpa/inet.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace locksim::live {
namespace {

// The pids a signal handler must kill: a fixed table of atomics (no allocation in the handler).
constexpr int kMaxServers = 256;
std::atomic<pid_t> g_started[kMaxServers];

void remember(pid_t pid) {
  for (auto& slot : g_started) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pid)) return;
  }
}

void forget(pid_t pid) {
  for (auto& slot : g_started) {
    pid_t expected = pid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

bool answers(int port) {
  const timeval tv{0, 200000};
  redisContext* c = redisConnectWithTimeout("127.0.0.1", port, tv);
  bool up = c != nullptr && c->err == 0;
  if (up) {
    auto* reply = static_cast<redisReply*>(redisCommand(c, "PING"));
    // A server still loading its AOF answers -LOADING: not up yet.
    up = reply != nullptr && reply->type == REDIS_REPLY_STATUS;
    if (reply) freeReplyObject(reply);
  }
  if (c) redisFree(c);
  return up;
}

}  // namespace

void kill_started_servers() {
  for (auto& slot : g_started) {
    const pid_t pid = slot.load();
    if (pid > 0) ::kill(pid, SIGKILL);
  }
}

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket() failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    throw std::runtime_error("bind() failed");
  }
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// A locksim that was SIGKILLed took its servers with it (PDEATHSIG) but left their directories:
// the next one removes those whose owner is gone.
static void remove_stale_dirs() {
  static bool done = false;
  if (done) return;
  done = true;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/tmp", ec)) {
    if (entry.path().filename().string().rfind("locksim-redis-", 0) != 0) continue;
    std::ifstream owner(entry.path() / "owner");
    pid_t pid = 0;
    if (!(owner >> pid) || pid <= 0) continue;  // not ours to judge
    if (::kill(pid, 0) != 0 && errno == ESRCH) std::filesystem::remove_all(entry.path(), ec);
  }
}

RedisProcess::RedisProcess(RedisProcessOptions options) : options_(std::move(options)) {
  remove_stale_dirs();
  char dir_template[] = "/tmp/locksim-redis-XXXXXX";
  if (::mkdtemp(dir_template) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = dir_template;
  std::ofstream(dir_ + "/owner") << ::getpid() << "\n";
  try {
    launch(true);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
    throw;
  }
}

void RedisProcess::launch(bool fresh_port) {
  for (int attempt = 0; attempt < 5 && pid_ < 0; ++attempt) {
    if (fresh_port) port_ = free_port();
    const std::string port = std::to_string(port_);
    std::vector<std::string> args = sentinel_args(port);
    if (args.empty()) args = {"redis-server", "--bind", "127.0.0.1", "--port", port, "--save", "",
                                     "--appendonly", options_.aof ? "yes" : "no", "--appendfsync", "everysec",
                                     "--enable-debug-command", options_.debug_command ? "yes" : "no", "--dir", dir_,
                                     "--daemonize", "no", "--loglevel", "warning", "--logfile", dir_ + "/redis.log",
                                     // A replica syncs from an RDB file on disk: a diskless sync starts at
                                     // once but holds the write stream back until the replica's first
                                     // ACK, up to a second later (a failover then lost a lock)
                                     "--repl-diskless-sync", "no"};
    if (!options_.replica_of.empty() && options_.sentinel_of.empty()) {
      const auto space = options_.replica_of.find(' ');
      args.insert(args.end(), {"--replicaof", options_.replica_of.substr(0, space), options_.replica_of.substr(space + 1)});
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t parent = ::getpid();
    const pid_t child = ::fork();
    if (child < 0) throw std::runtime_error("fork failed");
    if (child == 0) {
      // The server goes when locksim goes, however it goes.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);
      ::execvp(argv[0], argv.data());
      ::_exit(127);
    }
    remember(child);
    // Wait (bounded) until it answers.
    for (int i = 0; i < 400; ++i) {
      int status = 0;
      if (::waitpid(child, &status, WNOHANG) == child) {  // died: port taken? try another
        forget(child);
        break;
      }
      if (answers(port_)) {
        pid_ = child;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (pid_ < 0 && ::kill(child, 0) == 0) {
      ::kill(child, SIGKILL);
      ::waitpid(child, nullptr, 0);
      forget(child);
    }
    if (!fresh_port && pid_ < 0) break;  // the port is this server's; another would not do
  }
  if (pid_ < 0)
    throw std::runtime_error(std::string("could not start ") + (options_.sentinel_of.empty() ? "redis-server" : "redis-sentinel") +
                             " on 127.0.0.1:" + std::to_string(port_) + " (is Debian's " +
                             (options_.sentinel_of.empty() ? "redis-server" : "redis-sentinel") + " installed? see " + dir_ +
                             "/*.log)");
}

// Sentinel reads (and rewrites) a config file; a server takes everything on the command line.
std::vector<std::string> RedisProcess::sentinel_args(const std::string& port) const {
  if (options_.sentinel_of.empty()) return {};
  const std::string conf = dir_ + "/sentinel.conf";
  std::ofstream out(conf);
  out << "port " << port << "\nbind 127.0.0.1\ndir " << dir_ << "\nlogfile " << dir_ << "/sentinel.log\n"
      << "sentinel monitor locksim " << options_.sentinel_of << " 1\n"
      << "sentinel down-after-milliseconds locksim " << options_.down_after_ms << "\n"
      << "sentinel failover-timeout locksim 10000\n";
  if (!out) throw std::runtime_error("cannot write " + conf);
  return {"redis-sentinel", conf};
}

void RedisProcess::reap() {
  if (pid_ <= 0) return;
  ::waitpid(pid_, nullptr, 0);
  forget(pid_);
  pid_ = -1;
}

void RedisProcess::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  reap();
  stopped_ = false;
}

void RedisProcess::start_again(bool aof) {
  kill();
  if (!aof) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_ + "/appendonlydir", ignored);
  }
  options_.aof = aof;
  launch(false);
}

void RedisProcess::stop_signal() {
  if (pid_ > 0 && ::kill(pid_, SIGSTOP) == 0) stopped_ = true;
}

void RedisProcess::continue_signal() {
  if (pid_ > 0 && ::kill(pid_, SIGCONT) == 0) stopped_ = false;
}

bool RedisProcess::alive() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    forget(pid_);
    pid_ = -1;
    return false;
  }
  return true;
}

RedisProcess::~RedisProcess() {
  if (pid_ > 0) {
    if (stopped_) ::kill(pid_, SIGCONT);
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 200 && pid_ > 0; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        forget(pid_);
        pid_ = -1;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    if (pid_ > 0) kill();
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

}  // namespace locksim::live
