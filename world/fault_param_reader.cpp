#include "world/fault_param_reader.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "base/assert.hpp"
#include "world/choice_scheduler.hpp"

namespace locksim::world {
namespace {

bool is_ms(const FaultParamInfo& info) { return info.scaling != Scaling::None; }

std::string join(const std::vector<std::string_view>& words) {
  std::string out;
  for (std::string_view w : words) out += (out.empty() ? "" : ", ") + std::string(w);
  return out;
}

// An error reply's line: its code first, and one line, since RESP ends the reply at a line break.
std::string error_text_problem(std::string_view text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())))
    return "text must start with the error's code (e.g. BUSY, LOADING, ERR), not '" + std::string(text) + "'";
  if (text.find_first_of("\r\n") != std::string_view::npos)
    return "text must be one line: a Redis error reply cannot hold a line break";
  return "";
}

// A number in the parameter's range, or why not.
std::string number_problem(const FaultParamInfo& info, std::string_view text, int64_t& out) {
  const std::string key(info.key);
  const std::optional<int64_t> value = parse_grouped_integer(text);
  if (!value) return "expected an integer for " + key + ", got '" + std::string(text) + "'";
  if (*value < info.min) {
    if (info.min == 0) return "expected a non-negative integer for " + key + ", got " + std::to_string(*value);
    return key + " is at least " + std::to_string(info.min) + ", not " + std::to_string(*value);
  }
  if (*value > info.max)
    return key + " is at most " + std::to_string(info.max) + (is_ms(info) ? " ms" : "") +
           (info.max_means.empty() ? "" : " (" + std::string(info.max_means) + ")") +
           (info.max_means.empty() && !is_ms(info) ? "" : ", not " + std::to_string(*value));
  out = *value;
  return "";
}

}  // namespace

std::optional<int64_t> parse_grouped_integer(std::string_view text) {
  std::string digits;
  digits.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '_') {
      digits += text[i];
      continue;
    }
    // "_30", "30_" and "3__0" are typos, not groupings.
    const bool between_digits = i > 0 && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i - 1])) &&
                                std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (!between_digits) return std::nullopt;
  }
  // As Redis reads an integer (string2ll): no '+', and no leading zero.
  const char* begin = digits.data();
  const char* end = digits.data() + digits.size();
  const char* first_digit = begin != end && *begin == '-' ? begin + 1 : begin;
  if (first_digit == end || (*first_digit == '0' && digits != "0")) return std::nullopt;
  int64_t value = 0;
  const auto [stop, ec] = std::from_chars(begin, end, value);
  if (begin == end || ec != std::errc() || stop != end) return std::nullopt;
  return value;
}

std::string read_fault_param(Fault& fault, FaultParam param, std::string_view text) {
  const FaultParamInfo& info = param_info(param);
  const std::string key(info.key);
  if (!info.choices.empty() && std::find(info.choices.begin(), info.choices.end(), text) == info.choices.end())
    return "unknown " + key + " '" + std::string(text) + "' (expected " + join(info.choices) + ")";
  int64_t n = 0;
  switch (param) {
    case FaultParam::ForMs:
    case FaultParam::ExtraMs:
    case FaultParam::LagMs:
    case FaultParam::DownMs:
      if (std::string problem = number_problem(info, text, n); !problem.empty()) return problem;
      *duration_of(fault, param) = n;
      return "";
    case FaultParam::ByMs: {
      const std::optional<int64_t> value = parse_grouped_integer(text);
      if (!value) return "expected an integer for " + key + ", got '" + std::string(text) + "'";
      if (std::string problem = clock_offset_problem(*value); !problem.empty()) return "a clock jump's by_ms: " + problem;
      fault.by_ms = *value;
      return "";
    }
    case FaultParam::PerThousand:
      if (std::string problem = number_problem(info, text, n); !problem.empty()) return problem;
      fault.per_thousand = static_cast<uint64_t>(n);
      return "";
    case FaultParam::Server:
      if (std::string problem = number_problem(info, text, n); !problem.empty()) return problem;
      fault.server = static_cast<int>(n);
      return "";
    case FaultParam::Thread:
      if (std::string problem = number_problem(info, text, n); !problem.empty()) return problem;
      fault.thread = n;
      return "";
    case FaultParam::Via: fault.sentinel = text == "sentinel"; return "";
    case FaultParam::Persistence:
      fault.persistence = text == "aof" ? Persistence::AofEverySec : Persistence::None;
      return "";
    case FaultParam::Text:
      if (std::string problem = error_text_problem(text); !problem.empty()) return problem;
      fault.text = std::string(text);
      return "";
  }
  LS_ASSERT(false);
  return "";
}

bool fault_param_required(const Fault& fault, FaultParam param) {
  if (!fault_info(fault.kind).takes(param)) return false;
  switch (param) {
    case FaultParam::ForMs:
    case FaultParam::ExtraMs:
    case FaultParam::ByMs: return true;
    // A direct failover's replica lags by as much as the step says; Sentinel's follows its master.
    case FaultParam::LagMs: return !fault.sentinel;
    default: return false;
  }
}

std::optional<FaultParamsProblem> fault_params_problem(const Fault& fault, const std::vector<FaultParam>& given) {
  const auto was_given = [&](FaultParam p) { return std::find(given.begin(), given.end(), p) != given.end(); };
  const FaultInfo& info = fault_info(fault.kind);
  for (const FaultParam p : info.params)
    if (fault_param_required(fault, p) && !was_given(p)) {
      const std::string_view name = info.name;
      const bool vowel = std::string_view("aeiou").find(name.front()) != std::string_view::npos;
      return FaultParamsProblem{std::nullopt, "missing '" + std::string(param_info(p).key) + "' in " +
                                                  (vowel ? "an " : "a ") + std::string(name) + " fault"};
    }
  if (!info.takes(FaultParam::Via)) return std::nullopt;
  if (fault.sentinel) {
    if (was_given(FaultParam::LagMs) && fault.lag_ms != 0)
      return FaultParamsProblem{FaultParam::LagMs,
                                "a failover via sentinel promotes a replica that follows its master: lag_ms must be 0"};
    if (fault.down_ms < 100)
      return FaultParamsProblem{was_given(FaultParam::DownMs) ? std::optional(FaultParam::DownMs) : std::nullopt,
                                "down_ms is at least 100 (Sentinel's own clock)"};
  } else if (was_given(FaultParam::DownMs)) {
    return FaultParamsProblem{FaultParam::DownMs, "down_ms applies to a failover via sentinel"};
  }
  return std::nullopt;
}

}  // namespace locksim::world
