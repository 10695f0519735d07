#pragma once
// RequestParser: a client's query buffer, read as Redis 7.0's networking.c reads it
// (processInlineBuffer, processMultibulkBuffer): RESP arrays of bulk strings, or inline commands,
// with Redis's limits and its exact protocol error texts. After a protocol error the connection is
// answered with the error and closed, as Redis does.
//
// Why not hiredis's reader: it parses replies, so it accepts every RESP type and nesting where
// Redis accepts only a flat array of bulk strings, reports its own error texts, and has no inline
// form.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace locksim::server {

struct ParserLimits {
  int64_t proto_max_bulk_len = 512LL * 1024 * 1024;      // proto-max-bulk-len
  size_t client_query_buffer_limit = 1024UL * 1024 * 1024;  // client-query-buffer-limit
  size_t inline_max_size = 64 * 1024;                     // PROTO_INLINE_MAX_SIZE
};

class RequestParser {
 public:
  explicit RequestParser(ParserLimits limits = {}) : limits_(limits) {}

  // Appends bytes read from the socket. False when the query buffer went past its limit: Redis
  // closes such a client without a reply.
  bool feed(std::string_view bytes);

  // The next complete command into `argv` (never empty): true; false when more bytes are needed
  // or a protocol error stopped the parser (error() then says which). What `argv` held before is
  // reused for a later command.
  bool next(std::vector<std::string>& argv);

  // The protocol error ("ERR Protocol error: ..."), or nullopt.
  const std::optional<std::string>& error() const { return error_; }
  // Before AUTH, Redis bounds a multibulk to 10 arguments and a bulk to 16 KiB.
  void set_authenticated(bool authenticated) { authenticated_ = authenticated; }
  // Bytes held and not yet parsed.
  size_t buffered() const { return buffer_.size() - pos_; }

 private:
  enum class Step { Done, NeedMore, Failed };
  Step parse_inline();
  Step parse_multibulk();
  void set_arg(size_t i, std::string_view value);
  Step fail(std::string text);
  void compact();

  ParserLimits limits_;
  bool authenticated_ = true;
  std::string buffer_;
  size_t pos_ = 0;  // the first byte not yet consumed
  // Multibulk state kept between reads, as Redis keeps c->multibulklen and c->bulklen, so a large
  // argument arriving in pieces is not scanned again from its start.
  int64_t multibulk_left_ = 0;
  int64_t bulk_len_ = -1;
  std::vector<std::string> argv_;  // the command being read: its first argc_ slots are filled
  size_t argc_ = 0;
  std::optional<std::string> error_;
};


}  // namespace locksim::server
