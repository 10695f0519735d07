#pragma once
// El: one SVG or HTML element written as text, its attributes and text escaped, with an optional
// <title> (the hover text) and children; num: a coordinate with at most one decimal.
#include <string>
#include <string_view>

namespace locksim::report {

std::string num(double v);

class El {
 public:
  explicit El(std::string tag) : tag_(std::move(tag)), open_("<" + tag_) {}
  El& a(std::string_view key, std::string_view value);
  El& a(std::string_view key, const char* value) { return a(key, std::string_view(value)); }
  El& a(std::string_view key, const std::string& value) { return a(key, std::string_view(value)); }
  El& a(std::string_view key, double value) { return a(key, num(value)); }
  El& a(std::string_view key, int value) { return a(key, std::to_string(value)); }
  El& tip(std::string text);
  El& text(std::string_view content);
  El& child(const std::string& markup);
  std::string str() const;

 private:
  std::string tag_;
  std::string open_;
  std::string tip_;
  std::string inner_;
};

}  // namespace locksim::report
