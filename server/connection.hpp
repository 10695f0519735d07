#pragma once
// One client connection of `locksim serve`: its socket, its query buffer, the state Redis keeps per
// client (name, protocol, authentication, database) and its replies on their way out.
#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <asio.hpp>

#include "engine/host.hpp"
#include "server/request_parser.hpp"
#include "server/resp_writer.hpp"

namespace locksim::server {

using SteadyTime = std::chrono::steady_clock::time_point;

// `from` plus `ms`, `ms` held within a century. A client may write any 64-bit count of milliseconds
// (WAIT's timeout, a fault's for_ms, a delay's extra_ms); turned into the steady clock's nanoseconds
// as it is, one past ~292 years overflows (undefined behaviour). A century waits as forever does.
inline SteadyTime steady_after(SteadyTime from, int64_t ms) {
  constexpr int64_t kCenturyMs = int64_t{100} * 365 * 24 * 3600 * 1000;
  return from + std::chrono::milliseconds(ms < 0 ? 0 : ms > kCenturyMs ? kCenturyMs : ms);
}

struct Connection : std::enable_shared_from_this<Connection> {
  Connection(asio::ip::tcp::socket s, uint64_t id, ParserLimits limits)
      : socket(std::move(s)), id(id), parser(limits), delay_timer(socket.get_executor()),
        block_timer(socket.get_executor()) {}

  asio::ip::tcp::socket socket;
  uint64_t id;
  RequestParser parser;
  std::vector<std::string> spare_argv;  // argument strings kept between commands, so as not to allocate them
  std::array<char, 16 * 1024> in{};
  engine::SessionId session = 0;
  std::string name;                 // CLIENT SETNAME
  Protocol protocol = Protocol::Resp2;
  bool authenticated = true;
  std::string addr, laddr;
  int64_t created_ms = 0;           // the run's time
  int64_t last_ms = 0;
  std::string last_command;
  bool control = false;             // it sent LOCKSIM.* commands: restarts and resets spare it
  bool closing = false;             // close once what is queued is written (QUIT, a protocol error)
  bool closed = false;
  bool black_holed = false;         // a loss fault ate a reply: nothing more in or out until it closes
  bool blocked = false;             // WAIT, BLPOP and kin: no command runs until it answers
  bool waiting_acks = false;        // blocked in WAIT (else, when blocked, on keys in the engine)
  Resp3Shape block_shape = Resp3Shape::Plain;  // the blocked command's reply shape
  bool reply_off = false;           // CLIENT REPLY OFF: replies are not sent (pushes are)
  bool reply_skip = false;          // CLIENT REPLY SKIP: the running command's reply is not sent
  bool reply_skip_next = false;     // ... set by SKIP, for the command after it
  int64_t woff_ms = -1;             // the run's time of the last write before its last command (-1: none)
  bool batching = false;            // running what one read brought: replies wait to leave together

  // Replies leave in order: `out` is being written or about to be; `delayed` waits for its time.
  std::string out;
  bool writing = false;
  std::deque<std::pair<SteadyTime, std::string>> delayed;
  asio::steady_timer delay_timer;
  asio::steady_timer block_timer;

  // What histories and CLIENT LIST call it: its name, or "conn<id>" before it has one.
  std::string who() const { return name.empty() ? "conn" + std::to_string(id) : name; }
};

}  // namespace locksim::server
