#pragma once
// Connection: one hiredis connection to a redis-server, driven by the fabric's poll loop. Requests
// are written at once; their replies come back in order to the callback each was sent with. A pub/sub
// connection hands pushed messages to its own callback instead. When the connection breaks, the
// requests in flight get no reply (the client's timeouts decide), and the next request reconnects.
#include <hiredis/hiredis.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "base/reply.hpp"

namespace locksim::live {

struct Address {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string text() const { return host + ":" + std::to_string(port); }
};

class Connection {
 public:
  using OnReply = std::function<void(Reply)>;

  Connection(Address address, std::string password, bool pubsub);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  struct Request {
    std::vector<std::string> argv;
    OnReply on_reply;  // may be empty
  };
  // Writes the requests in one go (a MULTI ... EXEC block stays on one connection); each callback
  // runs with its reply. False when the connection could not be opened or broke while writing:
  // nothing will come back.
  bool send(std::vector<Request> requests);
  bool send(std::vector<std::string> argv, OnReply on_reply) {
    std::vector<Request> one;
    one.push_back(Request{std::move(argv), std::move(on_reply)});
    return send(std::move(one));
  }
  // A pub/sub connection: what to do with a pushed ["message", channel, payload] (or pmessage).
  void on_push(OnReply push) { on_push_ = std::move(push); }
  // Runs once each time an open connection breaks (reads EOF or an error).
  void on_broken(std::function<void()> broken) { on_broken_ = std::move(broken); }

  bool open() const { return context_ != nullptr; }
  // Changes whenever the socket is closed: a poll result for an older socket must not be acted on.
  uint64_t generation() const { return generation_; }
  int fd() const { return context_ ? context_->fd : -1; }
  // Reads what the socket has and dispatches every complete reply.
  void readable();
  // Closes the socket; the replies still due are dropped.
  void close();
  // Points future connections elsewhere (a failover); the open one is closed.
  void retarget(Address address);
  const Address& address() const { return address_; }

 private:
  bool connect();
  void broken();

  Address address_;
  std::string password_;
  bool pubsub_;
  redisContext* context_ = nullptr;
  uint64_t generation_ = 0;  // bumped on close: a reply loop notices it was closed under it
  std::deque<OnReply> pending_;
  OnReply on_push_;
  std::function<void()> on_broken_;
};

}  // namespace locksim::live
