#pragma once
// Reply: the one value every command returns. It mirrors RESP2 as Redis 7.0 sends it, so tests
// compare values and the Lua bridge and the shell each convert it in one place.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace locksim {

struct Reply {
  // Nil is both RESP2 nils ($-1 and *-1): clients, hiredis and Lua cannot tell them apart.
  // Sequence is several top-level replies in a row (SUBSCRIBE a b answers twice); never nested.
  enum class Kind : uint8_t { Nil, Integer, Bulk, Status, Error, Array, Sequence };

  Kind kind = Kind::Nil;
  // A Nil that RESP2 writes as the null array (*-1) rather than the null bulk ($-1), where Redis 7.0
  // does (addReplyNullArray). Everything else, Lua and histories included, sees it as nil.
  bool null_array = false;
  int64_t integer = 0;
  std::string str;  // Bulk, Status, Error: the text (errors carry their code, e.g. "ERR ...")
  std::vector<Reply> elements;  // Array, Sequence

  static Reply nil() { return {}; }
  static Reply nil_array() { Reply r; r.null_array = true; return r; }
  static Reply integer_of(int64_t v) { Reply r; r.kind = Kind::Integer; r.integer = v; return r; }
  static Reply bulk(std::string_view s) { Reply r; r.kind = Kind::Bulk; r.str = s; return r; }
  static Reply status(std::string_view s) { Reply r; r.kind = Kind::Status; r.str = s; return r; }
  static Reply ok() { return status("OK"); }
  // `text` is the whole error line as Redis sends it, code included ("ERR ...", "WRONGTYPE ...").
  static Reply error(std::string_view text) { Reply r; r.kind = Kind::Error; r.str = text; return r; }
  static Reply array(std::vector<Reply> items = {}) {
    Reply r; r.kind = Kind::Array; r.elements = std::move(items); return r;
  }
  static Reply sequence(std::vector<Reply> items) {
    Reply r; r.kind = Kind::Sequence; r.elements = std::move(items); return r;
  }

  bool is_error() const { return kind == Kind::Error; }
  bool operator==(const Reply&) const = default;
};

// A compact, unambiguous rendering for test failure messages: 5, "bulk", +OK, -ERR x, nil, [..].
std::string describe(const Reply& reply);

}  // namespace locksim
