#include "verify/support/redis_server.hpp"

#include <arpa/inet.h>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <netinet/in.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace locksim::test {

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

RedisServer::RedisServer() {
  char dir_template[] = "/tmp/locksim-redis-XXXXXX";
  if (::mkdtemp(dir_template) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = dir_template;
  for (int attempt = 0; attempt < 5 && pid_ < 0; ++attempt) {
    port_ = free_port();
    const std::string port = std::to_string(port_);
    const pid_t child = ::fork();
    if (child < 0) throw std::runtime_error("fork failed");
    if (child == 0) {
      ::execlp("redis-server", "redis-server", "--bind", "127.0.0.1", "--port", port.c_str(), "--save", "",
               "--appendonly", "no", "--enable-debug-command", "yes", "--dir", dir_.c_str(), "--daemonize", "no",
               "--loglevel", "warning", "--logfile", (dir_ + "/redis.log").c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // Wait (bounded) until it answers.
    for (int i = 0; i < 200; ++i) {
      int status = 0;
      if (::waitpid(child, &status, WNOHANG) == child) break;  // died: port taken? try another
      redisContext* c = redisConnect("127.0.0.1", port_);
      const bool up = c != nullptr && c->err == 0;
      if (c) redisFree(c);
      if (up) {
        pid_ = child;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    if (pid_ < 0) {
      ::kill(child, SIGKILL);
      ::waitpid(child, nullptr, 0);
    }
  }
  if (pid_ < 0) {
    std::filesystem::remove_all(dir_);
    throw std::runtime_error("could not start redis-server (is Debian's redis-server installed?)");
  }
}

RedisServer::~RedisServer() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 200; ++i) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

engine::Reply from_hiredis(const redisReply* reply) {
  using engine::Reply;
  if (reply == nullptr) return Reply::error("(hiredis: no reply)");
  switch (reply->type) {
    case REDIS_REPLY_STRING: return Reply::bulk(std::string_view(reply->str, reply->len));
    case REDIS_REPLY_STATUS: return Reply::status(std::string_view(reply->str, reply->len));
    case REDIS_REPLY_ERROR: return Reply::error(std::string_view(reply->str, reply->len));
    case REDIS_REPLY_INTEGER: return Reply::integer_of(reply->integer);
    case REDIS_REPLY_NIL: return Reply::nil();
    case REDIS_REPLY_ARRAY: {
      Reply array = Reply::array();
      for (size_t i = 0; i < reply->elements; ++i) array.elements.push_back(from_hiredis(reply->element[i]));
      return array;
    }
    default: return Reply::error("(hiredis: unexpected reply type " + std::to_string(reply->type) + ")");
  }
}

RedisClient::RedisClient(int port) {
  context_ = redisConnect("127.0.0.1", port);
  if (context_ == nullptr || context_->err) throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
}

RedisClient::~RedisClient() {
  if (context_) redisFree(context_);
}

engine::Reply RedisClient::command(const std::vector<std::string>& argv) {
  std::vector<const char*> args;
  std::vector<size_t> lengths;
  for (const auto& a : argv) {
    args.push_back(a.data());
    lengths.push_back(a.size());
  }
  auto* reply = static_cast<redisReply*>(
      redisCommandArgv(context_, static_cast<int>(argv.size()), args.data(), lengths.data()));
  engine::Reply result = from_hiredis(reply);
  if (reply) freeReplyObject(reply);
  return result;
}

engine::Reply RedisClient::read_reply() {
  void* raw = nullptr;
  if (redisGetReply(context_, &raw) != REDIS_OK) return engine::Reply::error("(hiredis: read failed)");
  auto* reply = static_cast<redisReply*>(raw);
  engine::Reply result = from_hiredis(reply);
  freeReplyObject(reply);
  return result;
}

}  // namespace locksim::test
