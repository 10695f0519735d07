#include "scenario/yaml_diagnosis.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace locksim::scenario {
namespace {

// A '{', '[' or quote, where it opened (1-based).
struct Opener {
  char ch = 0;
  int line = 0;
  int column = 0;
  int key_line = 0;  // a '{' whose current entry has had its ': ': on this line (0: none yet)
};

struct Line {
  std::string_view text;  // without its line break
  int indent = 0;         // leading spaces
  int tab_column = 0;     // 1-based column of a tab among the leading whitespace; 0: none
  // Starts in block context and holds something: not blank, not a comment, not inside a flow
  // collection, a quote or a block scalar. Only such lines say how the file is nested.
  bool structural = false;
};

// What one pass over the text finds: its lines, and the first bracket or quote that does not pair up.
struct Scan {
  std::vector<Line> lines;
  std::optional<YamlProblem> bracket;  // a closer that closes nothing, or one that meets another opener
  std::optional<Opener> unclosed;      // the earliest opener still open at the end (a quote first)
};

bool blank(char c) { return c == ' ' || c == '\t'; }
char opener_of(char closer) { return closer == '}' ? '{' : '['; }
// How a message shows a bracket ('{') or a quote (the quote ").
std::string quoted(char c) { return c == '"' || c == '\'' ? std::string("quote ") + c : std::string("'") + c + "'"; }

// The text's lines, each without its line break ("\r\n" too).
std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(start, end - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back({l});
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

// Reads the text as YAML's scanner does as far as nesting goes: flow collections, quotes (which hide
// brackets and '#'), comments, block scalars (`|`, `>`: their lines are content). A bracket or quote
// counts only where a value can start, as in YAML: `about: see [1]` holds no flow sequence.
class Scanner {
 public:
  Scan scan(std::string_view text) {
    out_.lines = split_lines(text);
    for (size_t n = 0; n < out_.lines.size(); ++n)
      if (!scan_line(n)) return std::move(out_);
    if (quote_.ch != 0) out_.unclosed = quote_;
    else if (!stack_.empty()) out_.unclosed = stack_.front();
    return std::move(out_);
  }

 private:
  // What a character leaves the rest of its line to: the next character, nothing (a block scalar
  // begins), or the scan ends (out_.bracket says why).
  enum class Next { Char, EndLine, Stop };

  // Line n's indent, and its characters: false when the scan ends there.
  bool scan_line(size_t n) {
    Line& line = out_.lines[n];
    t_ = line.text;
    line_no_ = static_cast<int>(n) + 1;
    const size_t first = t_.find_first_not_of(" \t");
    while (line.indent < static_cast<int>(t_.size()) && t_[line.indent] == ' ') ++line.indent;
    for (size_t i = 0; i < first && i < t_.size(); ++i)
      if (t_[i] == '\t' && line.tab_column == 0) line.tab_column = static_cast<int>(i) + 1;
    if (block_scalar_indent_ >= 0) {
      if (first == std::string_view::npos || line.indent > block_scalar_indent_) return true;
      block_scalar_indent_ = -1;
    }
    if (first == std::string_view::npos) return true;
    line.structural = quote_.ch == 0 && stack_.empty() && t_[first] != '#';
    value_start_ = quote_.ch == 0 && stack_.empty();
    flow_value_start_ = !stack_.empty();
    after_flow_ = false;
    for (size_t i = first; i < t_.size(); ++i) {
      if (in_quote(i) || blank(t_[i])) continue;
      if (t_[i] == '#' && (i == 0 || blank(t_[i - 1]))) break;
      const Next next = stack_.empty() ? block_char(i, line) : flow_char(i);
      if (next == Next::Stop) return false;
      if (next == Next::EndLine) break;
    }
    return true;
  }

  // Whether character i is inside a quote (and so hides what it is); a quote's end closes it.
  bool in_quote(size_t& i) {
    const char c = t_[i];
    if (quote_.ch == '\'') {
      if (c == '\'' && i + 1 < t_.size() && t_[i + 1] == '\'') ++i;  // '' is a quote inside
      else if (c == '\'') quote_.ch = 0;
      return true;
    }
    if (quote_.ch == '"') {
      if (c == '\\') ++i;
      else if (c == '"') quote_.ch = 0;
      return true;
    }
    return false;
  }

  bool space_after(size_t i) const { return i + 1 == t_.size() || blank(t_[i + 1]); }

  // A character inside a flow collection: brackets nest, and a '{' entry's keys are counted.
  Next flow_char(size_t i) {
    const char c = t_[i];
    const int column = static_cast<int>(i) + 1;
    if (c == '{' || c == '[') {
      stack_.push_back({c, line_no_, column});
      flow_value_start_ = true;
    } else if (c == '}' || c == ']') {
      if (stack_.back().ch != opener_of(c)) {
        const Opener& open = stack_.back();
        out_.bracket = YamlProblem{open.line, open.column,
                                   "the " + quoted(open.ch) + " opened here is never closed: a " + quoted(c) +
                                       " at line " + std::to_string(line_no_) + ", column " + std::to_string(column) +
                                       " comes first"};
        return Next::Stop;
      }
      stack_.pop_back();
      flow_value_start_ = false;
      after_flow_ = stack_.empty();
    } else if ((c == '"' || c == '\'') && flow_value_start_) {
      quote_ = {c, line_no_, column};
    } else {
      flow_value_start_ = c == ',' || (c == ':' && space_after(i));
      if (c == ',') stack_.back().key_line = 0;
      if (c == ':' && space_after(i) && stack_.back().ch == '{') {
        // "{at: 0 client: A}": the second key runs into the first one's value. (On a later line, the
        // likelier mistake is a '{' never closed: the scan's end names it.)
        if (stack_.back().key_line == line_no_) {
          const size_t word = t_.find_last_of(" \t,{", i) + 1;
          out_.bracket = YamlProblem{line_no_, static_cast<int>(word) + 1,
                                     "a ',' is missing before '" + std::string(t_.substr(word, i - word)) +
                                         "': the entries of a '{...}' are separated by commas"};
          return Next::Stop;
        }
        stack_.back().key_line = line_no_;
      }
    }
    return Next::Char;
  }

  // A character in block context: where a node may start, a bracket, quote or block scalar opens.
  Next block_char(size_t i, const Line& line) {
    const char c = t_[i];
    const int column = static_cast<int>(i) + 1;
    if ((c == '}' || c == ']') && (value_start_ || after_flow_)) {
      out_.bracket = YamlProblem{line_no_, column,
                                 "this " + quoted(c) + " closes nothing: no " + quoted(opener_of(c)) + " is open here"};
      return Next::Stop;
    }
    after_flow_ = false;
    if (!value_start_) {
      if (c == ':' && space_after(i)) value_start_ = true;
      return Next::Char;
    }
    if (c == '{' || c == '[') {
      stack_.push_back({c, line_no_, column});
      flow_value_start_ = true;
      value_start_ = false;
    } else if (c == '"' || c == '\'') {
      quote_ = {c, line_no_, column};
      value_start_ = false;
    } else if (c == '|' || c == '>') {
      block_scalar_indent_ = line.indent;
      return Next::EndLine;
    } else if (!((c == '-' || c == '?') && space_after(i))) {
      value_start_ = false;  // a plain scalar or a key; "- " and "? " leave room for a node
    }
    return Next::Char;
  }

  Scan out_;
  std::vector<Opener> stack_;
  Opener quote_;
  int block_scalar_indent_ = -1;  // in a block scalar: its lines are those indented more than this
  // The line being read, and where it is.
  std::string_view t_;
  int line_no_ = 0;           // 1-based
  bool value_start_ = false;  // block context: a node may start here
  bool flow_value_start_ = false;  // flow context: a scalar may start here
  bool after_flow_ = false;   // a flow collection just closed in block context
};

Scan scan(std::string_view text) { return Scanner().scan(text); }

// One level of block nesting that a line opens or stands in: a "- " list item or a "key:".
struct Entry {
  int column = 0;    // 0-based, where the "-" or the key starts
  bool item = false;
  std::string key;   // a key's name
  std::string value;  // what follows the key's ': ' or the item's '- ' on its line (no comment)
  int line = 0;      // 1-based
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view without_comment(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == '#' && (i == 0 || blank(s[i - 1]))) return s.substr(0, i);
  return s;
}

// The key of `s` (a line's rest) if it starts "key:" followed by a space or its end.
std::optional<size_t> key_colon(std::string_view s) {
  if (s.empty() || std::string_view("{[\"'|>#&*!%@`-").find(s.front()) != std::string_view::npos) return std::nullopt;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '#' && i > 0 && blank(s[i - 1])) return std::nullopt;
    if (s[i] == ':' && (i + 1 == s.size() || blank(s[i + 1]))) return i;
  }
  return std::nullopt;
}

// The entries of a structural line: "  - at: 0" is an item at column 2 and the key 'at' at 4.
std::vector<Entry> entries(const Line& line, int number) {
  std::vector<Entry> out;
  const std::string_view t = without_comment(line.text);
  size_t pos = static_cast<size_t>(line.indent);
  while (pos < t.size() && t[pos] == '-' && (pos + 1 == t.size() || blank(t[pos + 1]))) {
    Entry item{static_cast<int>(pos), true, "", std::string(trim(t.substr(pos + 1))), number};
    out.push_back(item);
    pos = t.find_first_not_of(" \t", pos + 1);
    if (pos == std::string_view::npos) return out;
  }
  const std::string_view rest = t.substr(pos);
  if (const auto colon = key_colon(rest)) {
    if (!out.empty()) out.back().value.clear();  // the item holds a mapping, not a scalar
    out.push_back({static_cast<int>(pos), false, std::string(trim(rest.substr(0, *colon))),
                   std::string(trim(rest.substr(*colon + 1))), number});
  }
  return out;
}

// A value already written on its line: nothing deeper can belong to it.
bool complete(const Entry& e) { return !e.value.empty() && e.value.front() != '|' && e.value.front() != '>'; }

std::string spaces(int n) { return std::to_string(n) + (n == 1 ? " space" : " spaces"); }

std::string describe(const Entry& e) {
  return e.item ? "the list item on line " + std::to_string(e.line) : "'" + e.key + "' on line " + std::to_string(e.line);
}

std::string like(const Entry& e) { return "like " + describe(e) + " (" + spaces(e.column) + ")"; }

// A value as a message quotes it: short.
std::string shown(const std::string& value) { return value.size() <= 40 ? value : value.substr(0, 37) + "..."; }

// "clients [A]" or "type:rlock": a line meant as a key, without the ': ' that makes it one.
std::optional<YamlProblem> keyless(const Line& line, int number) {
  const std::string text(trim(without_comment(line.text)));
  const size_t colon = text.find(':');
  if (colon != std::string::npos && colon + 1 < text.size())
    return YamlProblem{number, line.indent + static_cast<int>(colon) + 1,
                       "'" + text + "' needs a space after its ':' (" + text.substr(0, colon) + ": " + text.substr(colon + 1) + ")"};
  return YamlProblem{number, line.indent + 1, "'" + text + "' is no 'key: value' line: a key needs ': ' after it"};
}

// "about: this: that": a second ': ' in a plain value starts a key where none can be.
std::optional<YamlProblem> colon_in_value(const Line& line, int number, const std::vector<Entry>& own) {
  if (own.empty() || own.back().item) return std::nullopt;
  const Entry& key = own.back();
  const size_t inside = key.value.find(": ");
  if (inside == std::string::npos || std::string_view("{[\"'").find(key.value.front()) != std::string_view::npos)
    return std::nullopt;
  return YamlProblem{number, static_cast<int>(line.text.rfind(key.value)) + static_cast<int>(inside) + 1,
                     "the value of '" + key.key + "' holds ': ', which would start a key: put the value in quotes (" +
                         key.key + ": \"" + key.value + "\")"};
}

// The levels a line below `previous` (1-based, structural, with entries) can belong to: the entries
// of that line, deepest first, then of each shallower line above it.
std::vector<Entry> levels_above(const Scan& s, int previous) {
  std::vector<Entry> chain;
  int shallowest = 1 << 30;
  for (int n = previous; n >= 1 && shallowest > 0; --n) {
    if (!s.lines[n - 1].structural) continue;
    const std::vector<Entry> es = entries(s.lines[n - 1], n);
    if (es.empty()) continue;
    for (auto e = es.rbegin(); e != es.rend(); ++e)
      if (e->column < shallowest) chain.push_back(*e);
    shallowest = std::min(shallowest, es.front().column);
  }
  return chain;
}

// A line deeper than the nearest level, which already has its value.
YamlProblem deeper_than_complete(int number, int indent, const std::string& what, const Entry& nearest) {
  std::string message = what + " is indented " + spaces(indent) + ", more than " + describe(nearest) + " (" +
                        spaces(nearest.column) + "), which ";
  if (nearest.item) return YamlProblem{number, indent + 1, message + "is complete: indent it like that item"};
  return YamlProblem{number, indent + 1,
                     message + "already has its value '" + shown(nearest.value) + "': indent it like '" + nearest.key +
                         "', or remove that value to nest it under '" + nearest.key + "'"};
}

// A line in line with no level above: the levels of its own kind it could mean, nearest first.
YamlProblem between_levels(int number, int indent, const std::string& what, bool is_item, bool has_kind,
                           const std::vector<Entry>& chain) {
  std::vector<Entry> options;
  for (const Entry& e : chain)
    if (!has_kind || e.item == is_item) options.push_back(e);
  if (options.empty()) options = chain;
  std::stable_sort(options.begin(), options.end(), [&](const Entry& a, const Entry& b) {
    return std::abs(a.column - indent) < std::abs(b.column - indent);
  });
  std::string message = what + " is indented " + spaces(indent) + ", in line with nothing above it: indent it " + like(options[0]);
  if (options.size() > 1) message += " or " + like(options[1]);
  return YamlProblem{number, indent + 1, message};
}

// A list item where keys stand, or a key where list items stand (`same` is the level it lines up with).
YamlProblem wrong_kind(int number, int indent, const std::string& what, bool is_item, const std::vector<Entry>& chain,
                       std::vector<Entry>::const_iterator same) {
  const auto owner = std::find_if(same + 1, chain.end(), [](const Entry& e) { return !e.item; });
  const std::string of_owner = owner != chain.end() ? "of '" + owner->key + "' (line " + std::to_string(owner->line) + ")" : "";
  if (is_item) {
    // Its list's other items stand elsewhere, or this mapping holds no list.
    const auto sibling = std::find_if(chain.begin(), same, [](const Entry& e) { return e.item; });
    if (sibling != same)
      return YamlProblem{number, indent + 1,
                         "this list item is indented " + spaces(indent) + ", the item before it on line " +
                             std::to_string(sibling->line) + " is indented " + spaces(sibling->column) +
                             ": indent the items of one list alike"};
    return YamlProblem{number, indent + 1,
                       "this list item stands among the 'key: value' lines " +
                           (of_owner.empty() ? std::string("of the file") : of_owner) +
                           ", where no list can start: give it a key of its own, or indent it under the key it belongs to"};
  }
  // The key belongs to the item above (indented as its keys) or ends the list.
  std::string message = what + " stands where the '- ' items " + (of_owner.empty() ? "of a list" : of_owner) + " stand: ";
  const auto item_key = std::find_if(chain.begin(), same, [](const Entry& e) { return !e.item; });
  if (item_key != same) message += "indent it " + like(*item_key) + " to add it to that item, or ";
  message += owner != chain.end() ? "indent it " + like(*owner) + " to end the list" : "start it with '- ' to make it an item";
  return YamlProblem{number, indent + 1, message};
}

// What the line at `number` (1-based) does wrong in its indentation, judged against the lines above
// it that it could belong to; nullopt when it lines up.
std::optional<YamlProblem> misindented(const Scan& s, int number, const std::string& parser_message) {
  const Line& line = s.lines[number - 1];
  if (!line.structural) return std::nullopt;
  const std::vector<Entry> own = entries(line, number);
  if (parser_message == "illegal map value")
    if (auto problem = colon_in_value(line, number, own)) return problem;
  int previous = number - 1;
  while (previous >= 1 && !s.lines[previous - 1].structural) --previous;
  if (previous < 1) return std::nullopt;
  const int indent = line.indent;
  if (entries(s.lines[previous - 1], previous).empty())
    return s.lines[previous - 1].indent <= indent ? keyless(s.lines[previous - 1], previous) : std::nullopt;
  const std::vector<Entry> chain = levels_above(s, previous);
  const bool is_item = !own.empty() && own.front().item;
  const std::string what = own.empty() ? "this line" : is_item ? "this list item" : "'" + own.front().key + "'";
  const Entry& nearest = chain.front();
  if (indent > nearest.column)
    return complete(nearest) ? std::optional(deeper_than_complete(number, indent, what, nearest)) : std::nullopt;
  const auto same = std::find_if(chain.begin(), chain.end(), [&](const Entry& e) { return e.column == indent; });
  if (same == chain.end()) return between_levels(number, indent, what, is_item, !own.empty(), chain);
  if (own.empty() || same->item == is_item) return std::nullopt;  // lined up: the mistake is elsewhere
  return wrong_kind(number, indent, what, is_item, chain, same);
}

// A value that begins with '>' or '|' ("fence_rule: >="): YAML reads either as the start of a
// block of text, and the parser's words say nothing about quoting.
std::optional<YamlProblem> block_indicator_value(const Line& line, int number) {
  const std::string_view t = line.text;
  for (size_t colon = t.find(':'); colon != std::string_view::npos; colon = t.find(':', colon + 1)) {
    size_t v = colon + 1;
    if (v >= t.size() || t[v] != ' ') continue;
    while (v < t.size() && t[v] == ' ') ++v;
    if (v >= t.size() || (t[v] != '>' && t[v] != '|')) continue;
    size_t end = v;
    while (end < t.size() && t[end] != ' ' && t[end] != ',' && t[end] != '}') ++end;
    const std::string value(t.substr(v, end - v));
    size_t key_from = colon;
    while (key_from > 0 && t[key_from - 1] != ' ' && t[key_from - 1] != '{' && t[key_from - 1] != ',') --key_from;
    const std::string key(t.substr(key_from, colon - key_from));
    return YamlProblem{number, static_cast<int>(v) + 1,
                       "'" + key + "': a value beginning with '" + value.substr(0, 1) +
                           "' starts a block of text in YAML; quote it: " + key + ": \"" + value + "\""};
  }
  return std::nullopt;
}

}  // namespace

YamlProblem explain_yaml_error(std::string_view text, int line, int column, const std::string& message) {
  const Scan s = scan(text);
  const std::string gave_up = " (the YAML parser gave up at line " + std::to_string(line) + ": " + message + ")";
  std::optional<YamlProblem> found;
  if (s.bracket && s.bracket->line <= line) found = s.bracket;
  if (!found && s.unclosed && s.unclosed->line <= line)
    found = YamlProblem{s.unclosed->line, s.unclosed->column,
                        "the " + quoted(s.unclosed->ch) + " opened here is never closed"};
  // A tab before the place the parser gave up explains it better than anything after.
  for (size_t n = 0; n < s.lines.size() && static_cast<int>(n) < line; ++n) {
    if (!s.lines[n].structural || s.lines[n].tab_column == 0) continue;
    if (!found || static_cast<int>(n) + 1 < found->line)
      found = YamlProblem{static_cast<int>(n) + 1, s.lines[n].tab_column, "a tab indents this line; YAML indents with spaces"};
    break;
  }
  if (!found && line >= 1 && line <= static_cast<int>(s.lines.size()))
    found = block_indicator_value(s.lines[line - 1], line);
  if (!found && line >= 1 && line <= static_cast<int>(s.lines.size())) found = misindented(s, line, message);
  if (found) {
    found->message += gave_up;
    return *found;
  }
  return {line, column, "not valid YAML: " + message};
}

std::optional<YamlProblem> unclosed_quote(std::string_view text) {
  const Scan s = scan(text);
  if (s.bracket || !s.unclosed || (s.unclosed->ch != '"' && s.unclosed->ch != '\'')) return std::nullopt;
  return YamlProblem{s.unclosed->line, s.unclosed->column,
                     "the " + quoted(s.unclosed->ch) + " opened here is never closed: its value runs to the end of the file"};
}

}  // namespace locksim::scenario
