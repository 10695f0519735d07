#include "live/connection.hpp"

#include <sys/time.h>

#include "live/hiredis_reply.hpp"

namespace locksim::live {
namespace {

bool is_push(const Reply& r) {
  if (r.kind != Reply::Kind::Array || r.elements.empty()) return false;
  const std::string& kind = r.elements[0].str;
  return (kind == "message" && r.elements.size() == 3) || (kind == "pmessage" && r.elements.size() == 4);
}

}  // namespace

Connection::Connection(Address address, std::string password, bool pubsub)
    : address_(std::move(address)), password_(std::move(password)), pubsub_(pubsub) {}

Connection::~Connection() { close(); }

bool Connection::connect() {
  // Loopback connects or is refused at once; a remote server gets a short bound so one client's
  // reconnect does not stall the others for long.
  const timeval tv{0, 250000};
  context_ = redisConnectWithTimeout(address_.host.c_str(), address_.port, tv);
  if (context_ == nullptr || context_->err) {
    if (context_) redisFree(context_);
    context_ = nullptr;
    return false;
  }
  if (!password_.empty()) {
    const char* argv[] = {"AUTH", password_.c_str()};
    const size_t lengths[] = {4, password_.size()};
    redisAppendCommandArgv(context_, 2, argv, lengths);
    pending_.push_back(nullptr);  // the fabric checked the password when the run began
  }
  return true;
}

bool Connection::send(std::vector<Request> requests) {
  if (!context_ && !connect()) return false;
  std::vector<const char*> args;
  std::vector<size_t> lengths;
  for (Request& request : requests) {
    args.clear();
    lengths.clear();
    for (const auto& a : request.argv) {
      args.push_back(a.data());
      lengths.push_back(a.size());
    }
    if (redisAppendCommandArgv(context_, static_cast<int>(args.size()), args.data(), lengths.data()) != REDIS_OK) {
      broken();
      return false;
    }
    pending_.push_back(std::move(request.on_reply));
  }
  int done = 0;
  while (!done) {
    if (redisBufferWrite(context_, &done) != REDIS_OK) {
      broken();
      return false;
    }
  }
  return true;
}

void Connection::readable() {
  if (!context_) return;
  const bool ok = redisBufferRead(context_) == REDIS_OK;
  const uint64_t reading = generation_;
  for (;;) {
    if (generation_ != reading) return;  // a callback closed or replaced the connection
    void* raw = nullptr;
    if (redisGetReplyFromReader(context_, &raw) != REDIS_OK) {
      broken();
      return;
    }
    if (raw == nullptr) break;
    Reply reply = from_hiredis(static_cast<redisReply*>(raw));
    freeReplyObject(raw);
    if (pubsub_ && is_push(reply)) {
      if (on_push_) on_push_(std::move(reply));
      continue;
    }
    if (pending_.empty()) continue;  // a reply nobody asked for (cannot happen on RESP2)
    OnReply callback = std::move(pending_.front());
    pending_.pop_front();
    if (callback) callback(std::move(reply));
  }
  if (!ok) broken();
}

void Connection::broken() {
  const bool was_open = context_ != nullptr;
  close();
  if (was_open && on_broken_) on_broken_();
}

void Connection::close() {
  ++generation_;
  if (context_) redisFree(context_);
  context_ = nullptr;
  pending_.clear();
}

void Connection::retarget(Address address) {
  close();
  address_ = std::move(address);
}

}  // namespace locksim::live
