#pragma once
// Text for a terminal: paragraphs wrapped at words, and tables whose columns line up within a width,
// one column wrapped onto lines of its own so that nothing runs past the edge. Colour (ANSI) only
// when asked: into a pipe the same text comes out plain.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace locksim::report {

struct TextStyle {
  size_t width = 100;   // columns of the terminal; text never runs past it
  bool colour = false;  // ANSI colours (a terminal that wants them)
};

enum class Tone : uint8_t { Plain, Red, Amber, Green, Dim, Bold };

// `text` in `tone` when the style has colour, else as it is.
std::string paint(std::string_view text, Tone tone, const TextStyle& style);

// The columns a string takes on a terminal (UTF-8 sequences count once; ANSI colour codes not at all).
size_t display_width(std::string_view text);

// `text` wrapped at spaces to `width` columns: the first line starts with `lead`, the others with
// `hang`. A word longer than a line is cut. Every line ends with '\n'.
std::string wrap_text(std::string_view lead, std::string_view text, std::string_view hang, size_t width);

struct TextCell {
  std::string text;
  Tone tone = Tone::Plain;
};

// A table: headings, then a line per row, each column as wide as its widest cell except `wrap`,
// which takes the width the others leave (at least `min_wrap` columns) and wraps its cells at words
// onto further lines. Every line starts with `indent`.
std::string text_table(const std::vector<std::string>& headings, const std::vector<std::vector<TextCell>>& rows,
                       size_t wrap, const TextStyle& style, std::string_view indent = "", size_t min_wrap = 20);

}  // namespace locksim::report
