#pragma once
// What a live backend needs of the servers it talks to: where each one is (a failover moves it),
// the password, a name for messages, and the one poll loop that carries every connection. The
// LiveFabric implements it; the backends know the fabric only through it.
#include <string>

#include "live/connection.hpp"

namespace locksim::live {

// Told when a server moves to a new address (a failover promoted its replica).
class MoveListener {
 public:
  virtual void moved(int server) = 0;

 protected:
  ~MoveListener() = default;
};

class Endpoints {
 public:
  virtual const Address& address(int server) const = 0;
  virtual const std::string& password() const = 0;
  // "redis-1 at 127.0.0.1:6379", for messages.
  virtual std::string describe(int server) const = 0;
  // A connection the poll loop reads for, until unwatched.
  virtual void watch(Connection* connection) = 0;
  virtual void unwatch(Connection* connection) = 0;
  // A listener hears of every move until it is forgotten.
  virtual void listen(MoveListener* listener) = 0;
  virtual void forget(MoveListener* listener) = 0;

 protected:
  ~Endpoints() = default;
};

}  // namespace locksim::live
