#include "engine/glob.hpp"

#include <string>
#include <utility>

namespace locksim::engine {
namespace {

// stringmatchlen_impl, step for step. Both texts are NUL-terminated copies because Redis reads one
// byte past a pattern's end in two places (after `*` and after the last match) and relies on the
// sds terminator there. `skip_longer` is Redis's skipLongerMatches: once the rest of a pattern after
// a `*` matched nowhere, no earlier `*` can help, which keeps matching polynomial.
// tolower in the C locale, which is what Redis runs in: ASCII letters only.
int lower(int c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

bool same(char a, char b, bool nocase) { return nocase ? lower(a) == lower(b) : a == b; }

bool match(const char* pattern, int pattern_len, const char* string, int string_len, bool nocase, bool& skip_longer) {
  while (pattern_len && string_len) {
    switch (pattern[0]) {
      case '*':
        while (pattern_len && pattern[1] == '*') {
          ++pattern;
          --pattern_len;
        }
        if (pattern_len == 1) return true;
        while (string_len) {
          if (match(pattern + 1, pattern_len - 1, string, string_len, nocase, skip_longer)) return true;
          if (skip_longer) return false;
          ++string;
          --string_len;
        }
        skip_longer = true;
        return false;
      case '?':
        ++string;
        --string_len;
        break;
      case '[': {
        ++pattern;
        --pattern_len;
        const bool negate = pattern[0] == '^';
        if (negate) {
          ++pattern;
          --pattern_len;
        }
        bool matched = false;
        while (true) {
          if (pattern[0] == '\\' && pattern_len >= 2) {
            ++pattern;
            --pattern_len;
            if (pattern[0] == string[0]) matched = true;
          } else if (pattern[0] == ']') {
            break;
          } else if (pattern_len == 0) {
            --pattern;
            ++pattern_len;
            break;
          } else if (pattern_len >= 3 && pattern[1] == '-') {
            // Plain char arithmetic, as Redis's int start = pattern[0]: signed on x86-64.
            int start = static_cast<signed char>(pattern[0]);
            int end = static_cast<signed char>(pattern[2]);
            const int c = nocase ? lower(static_cast<signed char>(string[0])) : static_cast<signed char>(string[0]);
            if (start > end) std::swap(start, end);
            if (nocase) {
              start = lower(start);
              end = lower(end);
            }
            pattern += 2;
            pattern_len -= 2;
            if (c >= start && c <= end) matched = true;
          } else if (same(pattern[0], string[0], nocase)) {
            matched = true;
          }
          ++pattern;
          --pattern_len;
        }
        if (negate) matched = !matched;
        if (!matched) return false;
        ++string;
        --string_len;
        break;
      }
      case '\\':
        if (pattern_len >= 2) {
          ++pattern;
          --pattern_len;
        }
        [[fallthrough]];
      default:
        if (!same(pattern[0], string[0], nocase)) return false;
        ++string;
        --string_len;
        break;
    }
    ++pattern;
    --pattern_len;
    if (string_len == 0) {
      while (*pattern == '*') {
        ++pattern;
        --pattern_len;
      }
      break;
    }
  }
  return pattern_len == 0 && string_len == 0;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view string, bool nocase) {
  const std::string p(pattern), s(string);
  bool skip_longer = false;
  return match(p.c_str(), static_cast<int>(p.size()), s.c_str(), static_cast<int>(s.size()), nocase, skip_longer);
}

}  // namespace locksim::engine
