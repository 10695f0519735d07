#include "app/terminal_style.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace locksim::app {

report::TextStyle terminal_style() {
  report::TextStyle style;
  winsize size{};
  const bool tty = ::isatty(1) != 0;
  if (tty && ::ioctl(1, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40) {
    style.width = size.ws_col;
  } else if (const char* columns = std::getenv("COLUMNS")) {
    size_t n = 0;
    const std::string_view text(columns);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc() && end == text.data() + text.size() && n >= 40 && n <= 1000) style.width = n;
  }
  const char* term = std::getenv("TERM");
  style.colour = tty && std::getenv("NO_COLOR") == nullptr && !(term && std::string_view(term) == "dumb");
  return style;
}

}  // namespace locksim::app
