#include "report/element.hpp"

#include <cstdio>

#include "report/markup.hpp"

namespace locksim::report {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s == "-0" ? "0" : s;
}

El& El::a(std::string_view key, std::string_view value) {
  open_ += ' ';
  open_ += key;
  open_ += "=\"" + escape_markup(value) + '"';
  return *this;
}

El& El::tip(std::string text) {
  tip_ = std::move(text);
  return *this;
}

El& El::text(std::string_view content) {
  inner_ += escape_markup(content);
  return *this;
}

El& El::child(const std::string& markup) {
  inner_ += markup;
  return *this;
}

std::string El::str() const {
  std::string inner = tip_.empty() ? inner_ : "<title>" + escape_markup(tip_) + "</title>" + inner_;
  if (inner.empty()) return open_ + "/>";
  return open_ + ">" + inner + "</" + tag_ + ">";
}

}  // namespace locksim::report
