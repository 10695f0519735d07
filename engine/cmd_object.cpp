// OBJECT ENCODING | REFCOUNT | FREQ | HELP (Redis object.c): what Redis's objects would look like.
// The fake keeps no access times, so OBJECT IDLETIME is not offered (docs/fidelity.md).
#include <array>
#include <cctype>
#include <string>
#include <variant>

#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"

namespace locksim::engine {
namespace {

// OBJ_SHARED_REFCOUNT: what REFCOUNT reports for Redis's shared integers 0..9999 (OBJ_SHARED_INTEGERS),
// which SET, INCR and the like store instead of a new object (the server's maxmemory is 0).
constexpr int64_t kSharedRefcount = 2147483647;
constexpr int64_t kSharedIntegers = 10000;

// tryObjectEncoding's choice for a string: an integer of at most 20 characters is "int", anything
// else of at most 44 bytes (OBJ_ENCODING_EMBSTR_SIZE_LIMIT) "embstr", longer "raw"; a string made
// as it came (Entry::string_form) skips the int, and one grown in place is "raw" whatever it holds.
std::string_view string_encoding(const Entry& entry, const std::string& value) {
  if (entry.string_form == StringForm::Raw) return "raw";
  if (entry.string_form == StringForm::Encoded && value.size() <= 20 && parse_int64(value)) return "int";
  return value.size() <= 44 ? "embstr" : "raw";
}

std::string_view encoding_of(const Entry& entry) {
  if (const auto* s = std::get_if<std::string>(&entry.value)) return string_encoding(entry, *s);
  if (const auto* h = std::get_if<Hash>(&entry.value)) return h->is_listpack() ? "listpack" : "hashtable";
  if (std::holds_alternative<List>(entry.value)) return "quicklist";  // 7.0 lists are always quicklists
  if (const auto* z = std::get_if<ZSet>(&entry.value)) return z->is_listpack() ? "listpack" : "skiplist";
  if (const auto* set = std::get_if<Set>(&entry.value))
    return set->encoding() == Set::Encoding::IntSet ? "intset" : "hashtable";
  return "unknown";
}

int64_t refcount_of(const Entry& entry) {
  const auto* s = std::get_if<std::string>(&entry.value);
  if (s == nullptr || string_encoding(entry, *s) != "int") return 1;
  const int64_t value = *parse_int64(*s);
  return value >= 0 && value < kSharedIntegers ? kSharedRefcount : 1;
}

constexpr std::array kHelp = {
    "ENCODING <key>",
    "    Return the kind of internal representation used in order to store the value",
    "    associated with a <key>.",
    "FREQ <key>",
    "    Return the access frequency index of the <key>. The returned integer is",
    "    proportional to the logarithm of the recent access frequency of the key.",
    "IDLETIME <key>",
    "    Return the idle time of the <key>, that is the approximated number of",
    "    seconds elapsed since the last access to the key.",
    "REFCOUNT <key>",
    "    Return the number of references of the value associated with the specified",
    "    <key>.",
};

// addReplyHelp: a header naming the command as it was typed, upper-cased, the lines, and HELP.
Reply help_reply(std::string_view command) {
  std::string name(command.substr(0, command.find('\0')));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  Reply reply = Reply::array({Reply::status(name + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:")});
  for (const char* line : kHelp) reply.elements.push_back(Reply::status(line));
  reply.elements.push_back(Reply::status("HELP"));
  reply.elements.push_back(Reply::status("    Prints this help."));
  return reply;
}

}  // namespace

// OBJECT subcommand [key]. OBJECT is a container command in Redis 7.0: an unknown subcommand or
// a wrong argument count is refused before it runs, with the texts Redis's dispatch uses (or, from
// a script, the ones scriptCall uses).
Reply object_command(CommandContext& ctx) {
  const std::string_view sub = ctx.arg(1);
  const bool from_script = ctx.session == kScriptCaller;
  const bool help = equals_ignore_case(sub, "help");
  const char* name = help                                  ? "object|help"
                     : equals_ignore_case(sub, "encoding") ? "object|encoding"
                     : equals_ignore_case(sub, "refcount") ? "object|refcount"
                     : equals_ignore_case(sub, "freq")     ? "object|freq"
                                                           : nullptr;
  if (name == nullptr) {
    if (from_script) return Reply::error(errors::kUnknownScriptCommand);
    return Reply::error(errors::unknown_subcommand(sub, "OBJECT"));
  }
  if (ctx.argc() != (help ? 2u : 3u)) {
    if (from_script) return Reply::error(errors::kScriptCommandArity);
    return Reply::error(errors::wrong_arity(name));
  }
  if (help) return help_reply(ctx.arg(0));

  // objectCommandLookup: an expired key is deleted and answers nil.
  const Entry* entry = ctx.db.find(ctx.arg(2));
  if (entry == nullptr) return Reply::nil();
  if (equals_ignore_case(sub, "encoding")) return Reply::bulk(encoding_of(*entry));
  if (equals_ignore_case(sub, "refcount")) return Reply::integer_of(refcount_of(*entry));
  return Reply::error(errors::kLfuNotSelected);  // FREQ: the default maxmemory-policy is not LFU
}

}  // namespace locksim::engine
