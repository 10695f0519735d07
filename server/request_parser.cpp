#include "server/request_parser.hpp"

#include "base/split_args.hpp"

#include <cctype>
#include <charconv>
#include <climits>

namespace locksim::server {
namespace {

// Redis's string2ll: an optional '-', digits, no leading zeros or '+', no spaces, in range.
bool string_to_ll(std::string_view s, int64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  if (s == "0") {
    out = 0;
    return true;
  }
  size_t i = s[0] == '-' ? 1 : 0;
  if (i >= s.size() || s[i] < '1' || s[i] > '9') return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

bool RequestParser::feed(std::string_view bytes) {
  compact();
  buffer_.append(bytes);
  return buffer_.size() - pos_ <= limits_.client_query_buffer_limit;
}

// Drops consumed bytes once they dominate the buffer, so a long-lived connection does not grow it.
void RequestParser::compact() {
  if (pos_ > 0 && pos_ >= buffer_.size() / 2) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
}

RequestParser::Step RequestParser::fail(std::string text) {
  error_ = "ERR Protocol error: " + std::move(text);
  return Step::Failed;
}

bool RequestParser::next(std::vector<std::string>& argv) {
  while (!error_ && pos_ < buffer_.size()) {
    const bool multibulk = multibulk_left_ > 0 || buffer_[pos_] == '*';
    const Step step = multibulk ? parse_multibulk() : parse_inline();
    if (step != Step::Done) return false;
    if (argv_.empty()) continue;  // an empty line or "*0" is skipped, as Redis does
    // The caller's previous command comes back to be written over: its strings keep their
    // buffers, so a steady stream of commands allocates nothing for its arguments.
    argv.swap(argv_);
    return true;
  }
  return false;
}

void RequestParser::set_arg(size_t i, std::string_view value) {
  if (i < argv_.size()) argv_[i].assign(value);
  else argv_.emplace_back(value);
}

RequestParser::Step RequestParser::parse_inline() {
  const size_t newline = buffer_.find('\n', pos_);
  if (newline == std::string::npos) {
    if (buffered() > limits_.inline_max_size) return fail("too big inline request");
    return Step::NeedMore;
  }
  size_t end = newline;
  if (end != pos_ && buffer_[end - 1] == '\r') --end;
  auto args = split_args(std::string_view(buffer_).substr(pos_, end - pos_));
  if (!args) return fail("unbalanced quotes in request");
  pos_ = newline + 1;
  argv_ = std::move(*args);
  return Step::Done;
}

RequestParser::Step RequestParser::parse_multibulk() {
  if (multibulk_left_ == 0) {
    const size_t cr = buffer_.find('\r', pos_);
    if (cr == std::string::npos) {
      if (buffered() > limits_.inline_max_size) return fail("too big mbulk count string");
      return Step::NeedMore;
    }
    if (cr + 1 >= buffer_.size()) return Step::NeedMore;  // the '\n' has not come yet
    int64_t count = 0;
    const bool ok = string_to_ll(std::string_view(buffer_).substr(pos_ + 1, cr - pos_ - 1), count);
    if (!ok || count > INT_MAX) return fail("invalid multibulk length");
    if (count > 10 && !authenticated_) return fail("unauthenticated multibulk length");
    pos_ = cr + 2;
    argc_ = 0;
    if (count <= 0) {
      argv_.clear();
      return Step::Done;
    }
    multibulk_left_ = count;
    // Redis preallocates at most 1024 slots, so a huge count cannot make it hold anything.
    argv_.reserve(static_cast<size_t>(std::min<int64_t>(count, 1024)));
  }
  while (multibulk_left_ > 0) {
    if (bulk_len_ == -1) {
      const size_t cr = buffer_.find('\r', pos_);
      if (cr == std::string::npos) {
        if (buffered() > limits_.inline_max_size) return fail("too big bulk count string");
        return Step::NeedMore;
      }
      if (cr + 1 >= buffer_.size()) return Step::NeedMore;
      if (buffer_[pos_] != '$') return fail(std::string("expected '$', got '") + buffer_[pos_] + "'");
      int64_t len = 0;
      const bool ok = string_to_ll(std::string_view(buffer_).substr(pos_ + 1, cr - pos_ - 1), len);
      if (!ok || len < 0 || len > limits_.proto_max_bulk_len) return fail("invalid bulk length");
      if (len > 16384 && !authenticated_) return fail("unauthenticated bulk length");
      pos_ = cr + 2;
      bulk_len_ = len;
    }
    // The argument and its "\r\n"; like Redis, the two bytes after it are skipped unread.
    if (buffered() < static_cast<size_t>(bulk_len_) + 2) return Step::NeedMore;
    set_arg(argc_++, std::string_view(buffer_).substr(pos_, static_cast<size_t>(bulk_len_)));
    pos_ += static_cast<size_t>(bulk_len_) + 2;
    bulk_len_ = -1;
    --multibulk_left_;
  }
  argv_.resize(argc_);
  return Step::Done;
}

}  // namespace locksim::server
