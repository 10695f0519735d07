#include "base/state_writer.hpp"

#include <charconv>

#include "base/assert.hpp"
#include "base/sha1.hpp"

namespace locksim {

void StateWriter::indent() { text_.append(static_cast<size_t>(depth_) * 2, ' '); }

StateWriter& StateWriter::field(std::string_view name, int64_t value) {
  indent();
  text_ += name;
  text_ += ' ';
  char buffer[24];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  LS_ASSERT(ec == std::errc());
  text_.append(buffer, end);
  text_ += '\n';
  return *this;
}

StateWriter& StateWriter::field(std::string_view name, std::string_view value) {
  indent();
  text_ += name;
  text_ += ' ';
  text_ += std::to_string(value.size());
  text_ += ':';
  text_ += value;
  text_ += '\n';
  return *this;
}

StateWriter& StateWriter::id(std::string_view name, std::string_view space, int64_t raw) {
  auto it = spaces_.find(space);
  if (it == spaces_.end()) it = spaces_.emplace(std::string(space), std::map<int64_t, int64_t>{}).first;
  const auto [at, fresh] = it->second.try_emplace(raw, static_cast<int64_t>(it->second.size()));
  return field(name, at->second);
}

std::map<int64_t, int64_t> StateWriter::ids(std::string_view space) const {
  const auto it = spaces_.find(space);
  return it == spaces_.end() ? std::map<int64_t, int64_t>{} : it->second;
}

StateWriter& StateWriter::begin(std::string_view name) {
  indent();
  text_ += name;
  text_ += " {\n";
  ++depth_;
  return *this;
}

StateWriter& StateWriter::end() {
  LS_ASSERT(depth_ > 0);
  --depth_;
  indent();
  text_ += "}\n";
  return *this;
}

Fingerprint StateWriter::fingerprint() const {
  LS_ASSERT(depth_ == 0);
  const std::string hex = sha1_hex(text_);
  Fingerprint f;
  std::from_chars(hex.data(), hex.data() + 16, f.high, 16);
  std::from_chars(hex.data() + 16, hex.data() + 32, f.low, 16);
  return f;
}

}  // namespace locksim
