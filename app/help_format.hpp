#pragma once
// How locksim prints --help: descriptions reflowed and wrapped at words to the terminal's width (100
// columns into a pipe), and the list of commands one line each. Only the command line's main uses it.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>

#include "report/text_table.hpp"

namespace locksim::app {

// The descriptions are written in lines of about 100 columns. A line break there is kept where it
// ends a sentence or a heading ('.' or ':'), before a blank, indented or "- " line, and after a blank
// one; any other joins the lines into one paragraph, to be wrapped to the width at hand.
inline std::string reflowed(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      out += text[i];
      continue;
    }
    const size_t line_start = out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1;
    const std::string_view before = std::string_view(out).substr(line_start);
    const std::string_view after = text.substr(i + 1);
    const bool keep = before.empty() || before.ends_with('.') || before.ends_with(':') || after.empty() ||
                      after.starts_with('\n') || after.starts_with(' ') || after.starts_with("- ");
    out += keep ? '\n' : ' ';
  }
  return out;
}

// `text` reflowed and wrapped at spaces to `width` columns, each paragraph apart (a line's leading
// spaces indent the lines it wraps onto). No trailing newline is added.
inline std::string wrapped(std::string_view raw, size_t width) {
  const std::string text = reflowed(raw);
  std::string out;
  for (size_t at = 0; at <= text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = std::string_view(text).substr(at, end - at);
    const std::string indent(std::min(line.find_first_not_of(' '), line.size()), ' ');
    out += report::wrap_text(indent, line, indent, width);
    at = end + 1;
  }
  if (!out.empty()) out.pop_back();
  return out;
}

// Help that fits the terminal (100 columns into a pipe): descriptions are wrapped at words, an
// option's in the column beside its name. The list of commands names each by the first phrase of
// its description; `locksim help COMMAND` (or COMMAND --help) prints the whole description.
class HelpFormatter : public CLI::Formatter {
 public:
  explicit HelpFormatter(size_t width) : width_(width) {}
  std::string make_subcommand(const CLI::App* sub) const override {
    const std::string description = sub->get_description();
    size_t end = description.size();
    for (const char* stop : {":", " (", ". ", ".\n", "\n"}) end = std::min(end, description.find(stop));
    std::string summary = description.substr(0, end);
    if (!summary.empty() && summary.back() == '.') summary.pop_back();
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_name(), wrapped(summary, beside()), get_column_width());
    return out.str();
  }
  std::string make_option_desc(const CLI::Option* opt) const override { return wrapped(opt->get_description(), beside()); }
  std::string make_description(const CLI::App* app) const override {
    const std::string description = CLI::Formatter::make_description(app);
    return description.empty() ? description : wrapped(description, width_ - indent_);
  }
  // An option group (redis-cli's refused flags) is printed expanded: its heading wrapped, and all
  // under it indented two columns, which its descriptions leave room for.
  std::string make_expanded(const CLI::App* sub) const override {
    indent_ += 2;
    std::string body = CLI::Formatter::make_expanded(sub);
    indent_ -= 2;
    const size_t end = body.find('\n');
    const std::string heading = wrapped(body.substr(0, end), width_);
    return heading + (end == std::string::npos ? "" : body.substr(end));
  }
  std::string make_footer(const CLI::App* app) const override {
    const std::string footer = CLI::Formatter::make_footer(app);
    return footer.empty() ? footer : wrapped(footer, width_);
  }

 private:
  // The columns an option's description has, beside the column of names.
  size_t beside() const {
    const size_t taken = get_column_width() + indent_;
    return width_ > taken + 20 ? width_ - taken : 20;
  }
  size_t width_;
  mutable size_t indent_ = 0;  // while an expanded group is made
};

}  // namespace locksim::app
