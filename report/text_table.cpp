#include "report/text_table.hpp"

#include <algorithm>
#include <cctype>

namespace locksim::report {

std::string paint(std::string_view text, Tone tone, const TextStyle& style) {
  if (!style.colour || tone == Tone::Plain || text.empty()) return std::string(text);
  static const char* const kCodes[] = {"", "\x1b[31m", "\x1b[33m", "\x1b[32m", "\x1b[2m", "\x1b[1m"};
  return kCodes[static_cast<int>(tone)] + std::string(text) + "\x1b[0m";
}

size_t display_width(std::string_view text) {
  size_t n = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1b) {  // CSI ... letter
      while (i + 1 < text.size() && !std::isalpha(static_cast<unsigned char>(text[i + 1]))) ++i;
      ++i;
      continue;
    }
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

namespace {

// The words of `text` as lines: the first of at most `first` columns, the others of at most `rest`
// (a word wider than its line is cut).
std::vector<std::string> lines_of(std::string_view text, size_t first, size_t rest) {
  std::vector<std::string> lines;
  std::string line;
  auto room = [&] { return std::max<size_t>(lines.empty() ? first : rest, 1); };
  size_t at = 0;
  while (at < text.size()) {
    const size_t space = std::min(text.find(' ', at), text.size());
    std::string_view word = text.substr(at, space - at);
    at = space + 1;
    if (word.empty()) continue;
    if (!line.empty() && display_width(line) + 1 + display_width(word) > room()) lines.push_back(std::move(line)), line.clear();
    while (line.empty() && display_width(word) > room()) {  // a path or a long name: cut where the line ends
      size_t cut = 0, cols = 0;
      while (cut < word.size() && cols < room()) {
        ++cut;
        while (cut < word.size() && (static_cast<unsigned char>(word[cut]) & 0xC0) == 0x80) ++cut;
        ++cols;
      }
      lines.emplace_back(word.substr(0, cut));
      word.remove_prefix(cut);
    }
    if (word.empty()) continue;
    line += (line.empty() ? "" : " ") + std::string(word);
  }
  if (!line.empty() || lines.empty()) lines.push_back(std::move(line));
  return lines;
}

}  // namespace

std::string wrap_text(std::string_view lead, std::string_view text, std::string_view hang, size_t width) {
  const size_t first = width > display_width(lead) ? width - display_width(lead) : 1;
  const size_t rest = width > display_width(hang) ? width - display_width(hang) : 1;
  const std::vector<std::string> lines = lines_of(text, first, rest);
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += std::string(i == 0 ? lead : hang) + lines[i] + "\n";
  return out;
}

std::string text_table(const std::vector<std::string>& headings, const std::vector<std::vector<TextCell>>& rows,
                       size_t wrap, const TextStyle& style, std::string_view indent, size_t min_wrap) {
  const size_t n = headings.size();
  std::vector<size_t> widths(n, 0);
  for (size_t c = 0; c < n; ++c) {
    widths[c] = display_width(headings[c]);
    for (const auto& row : rows)
      if (c < row.size()) widths[c] = std::max(widths[c], display_width(row[c].text));
  }
  size_t others = display_width(indent) + 2 * (n - 1);
  for (size_t c = 0; c < n; ++c)
    if (c != wrap) others += widths[c];
  const size_t room = style.width > others ? style.width - others : 0;
  widths[wrap] = std::min(widths[wrap], std::max(room, min_wrap));
  auto line = [&](const std::vector<std::string>& cells, const std::vector<Tone>& tones) {
    std::string out(indent);
    for (size_t c = 0; c < n; ++c) {
      const std::string& text = cells[c];
      const bool last = c + 1 == n;
      out += paint(text, tones[c], style);
      if (!last) out += std::string(widths[c] - std::min(widths[c], display_width(text)) + 2, ' ');
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(headings, std::vector<Tone>(n, Tone::Bold));
  for (const auto& row : rows) {
    std::vector<std::string> cells(n);
    std::vector<Tone> tones(n, Tone::Plain);
    for (size_t c = 0; c < n && c < row.size(); ++c) {
      cells[c] = row[c].text;
      tones[c] = row[c].tone;
    }
    const std::vector<std::string> wrapped = lines_of(cells[wrap], widths[wrap], widths[wrap]);
    cells[wrap] = wrapped.front();
    out += line(cells, tones);
    for (size_t k = 1; k < wrapped.size(); ++k) {
      std::vector<std::string> more(n);
      more[wrap] = wrapped[k];
      out += line(more, tones);
    }
  }
  return out;
}

}  // namespace locksim::report
