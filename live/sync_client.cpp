#include "live/sync_client.hpp"

#include <stdexcept>

#include "live/hiredis_reply.hpp"

namespace locksim::live {

SyncClient::SyncClient(const std::string& host, int port, const std::string& password, int timeout_ms) {
  const timeval tv{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
  context_ = redisConnectWithTimeout(host.c_str(), port, tv);
  const std::string where = host + ":" + std::to_string(port);
  if (context_ == nullptr || context_->err) {
    const std::string why = context_ ? context_->errstr : "out of memory";
    if (context_) redisFree(context_);
    context_ = nullptr;
    throw std::runtime_error("cannot connect to Redis at " + where + ": " + why);
  }
  redisSetTimeout(context_, tv);
  if (!password.empty()) {
    const Reply reply = command({"AUTH", password});
    if (reply.is_error()) {
      redisFree(context_);
      context_ = nullptr;
      throw std::runtime_error("Redis at " + where + " refused the password: " + reply.str);
    }
  }
}

SyncClient::~SyncClient() {
  if (context_) redisFree(context_);
}

Reply SyncClient::command(const std::vector<std::string>& argv) {
  std::vector<const char*> args;
  std::vector<size_t> lengths;
  for (const auto& a : argv) {
    args.push_back(a.data());
    lengths.push_back(a.size());
  }
  auto* reply = static_cast<redisReply*>(
      redisCommandArgv(context_, static_cast<int>(argv.size()), args.data(), lengths.data()));
  if (reply == nullptr) return Reply::error(std::string("(hiredis: ") + context_->errstr + ")");
  Reply result = from_hiredis(reply);
  freeReplyObject(reply);
  return result;
}

Reply SyncClient::read_reply() {
  void* raw = nullptr;
  if (redisGetReply(context_, &raw) != REDIS_OK) return Reply::error("(hiredis: read failed)");
  auto* reply = static_cast<redisReply*>(raw);
  Reply result = from_hiredis(reply);
  freeReplyObject(reply);
  return result;
}

}  // namespace locksim::live
