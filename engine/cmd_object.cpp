// OBJECT ENCODING | REFCOUNT | FREQ | HELP and MEMORY USAGE | HELP (Redis object.c): what Redis's
// objects would look like, and how much memory Redis would say they take. The fake keeps no access
// times, so OBJECT IDLETIME is not offered; MEMORY's byte counts are estimates (docs/fidelity.md).
#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <limits>
#include <span>
#include <string>
#include <variant>
#include <vector>

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

constexpr std::array<const char*, 12> kObjectHelp = {
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
Reply help_reply(std::string_view command, std::span<const char* const> lines) {
  std::string name(command.substr(0, command.find('\0')));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  Reply reply = Reply::array({Reply::status(name + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:")});
  for (const char* line : lines) reply.elements.push_back(Reply::status(line));
  reply.elements.push_back(Reply::status("HELP"));
  reply.elements.push_back(Reply::status("    Prints this help."));
  return reply;
}

// MEMORY HELP's lines (memoryCommand's help).
constexpr std::array<const char*, 11> kMemoryHelp = {
    "DOCTOR",
    "    Return memory problems reports.",
    "MALLOC-STATS",
    "    Return internal statistics report from the memory allocator.",
    "PURGE",
    "    Attempt to purge dirty pages for reclamation by the allocator.",
    "STATS",
    "    Return information about the memory usage of the server.",
    "USAGE <key> [SAMPLES <count>]",
    "    Return memory in bytes used by <key> and its value. Nested values are",
    "    sampled up to <count> times (default: 5, 0 means sample all).",
};

// MEMORY USAGE follows Redis's objectComputeSize over the fake's view of each object, with the sizes
// of Redis 7.0's structures on x86-64 and jemalloc's size classes (Debian's redis-server links
// jemalloc). Where Redis's number depends on history the fake does not keep (an sds's spare room
// after APPEND, a skiplist node's random level, how a quicklist's nodes were filled, a dict in the
// middle of a rehash or once bigger) the estimate takes the plain or the expected case;
// docs/fidelity.md lists these.
constexpr size_t kRobj = 16;            // sizeof(robj)
constexpr size_t kDictEntry = 24;       // sizeof(dictEntry): key, value, next
constexpr size_t kDict = 56;            // sizeof(dict)
constexpr size_t kDictPointer = 8;      // sizeof(dictEntry*), one per bucket
constexpr size_t kQuicklist = 40;       // sizeof(quicklist)
constexpr size_t kQuicklistNode = 40;   // sizeof(quicklistNode)
constexpr size_t kZset = 16;            // sizeof(zset): dict* and zskiplist*
constexpr size_t kZskiplist = 32;       // sizeof(zskiplist)
constexpr size_t kZskiplistNode = 24;   // sizeof(zskiplistNode) before its levels
constexpr size_t kZskiplistLevel = 16;  // sizeof(struct zskiplistLevel)
constexpr size_t kZskiplistMaxLevel = 32;
constexpr int64_t kDefaultSamples = 5;  // OBJ_COMPUTE_SIZE_DEF_SAMPLES
// list-max-listpack-size -2, Redis's default: a quicklist node's listpack holds up to 8 KB.
constexpr size_t kQuicklistNodeBytes = 8192;

// je_malloc_usable_size of an n-byte request (zmalloc_size): jemalloc's size classes are 8, 16,
// then four per doubling in steps of at least 16 (32, 48, 64, 80, ..., 128, 160, 192, 224, 256, 320).
size_t jemalloc_size(size_t n) {
  if (n <= 8) return 8;
  if (n <= 16) return 16;
  const int k = static_cast<int>(std::bit_width(n - 1)) - 1;  // 2^k < n <= 2^(k+1)
  const size_t step = std::max<size_t>(16, size_t{1} << (k - 2));
  return (n + step - 1) / step * step;
}

// sdsReqType's header size: sdshdr5 below 32 bytes (sdshdr8 when empty, as sdsnewlen picks), then
// sdshdr8, 16, 32, 64.
size_t sds_header(size_t len) {
  if (len == 0) return 3;
  if (len < (size_t{1} << 5)) return 1;
  if (len < (size_t{1} << 8)) return 3;
  if (len < (size_t{1} << 16)) return 5;
  if (len < (size_t{1} << 32)) return 9;
  return 17;
}

// sdsZmallocSize of an sds made to measure (sdsnewlen, sdsdup): header, bytes, the NUL.
size_t sds_size(std::string_view s) { return jemalloc_size(sds_header(s.size()) + s.size() + 1); }

// A listpack's lpBytes as elements are appended: LP_HDR_SIZE (6) and the end byte, then each
// element as lpEncodeGetType stores it (an integer in string2ll's form in 1 to 9 bytes, a string
// behind a 1, 2 or 5 byte header) followed by its lpEncodeBacklen.
struct ListpackSize {
  size_t bytes = 7;
  static size_t entry(std::string_view element) {
    size_t len;
    if (auto v = element.size() <= 20 ? parse_int64(element) : std::nullopt) {
      len = (*v >= 0 && *v <= 127)                   ? 1
            : (*v >= -4096 && *v <= 4095)            ? 2
            : (*v >= -32768 && *v <= 32767)          ? 3
            : (*v >= -8388608 && *v <= 8388607)      ? 4
            : (*v >= -2147483648LL && *v <= 2147483647LL) ? 5
                                                     : 9;
    } else {
      len = element.size() + (element.size() < 64 ? 1 : element.size() < 4096 ? 2 : 5);
    }
    const size_t backlen = len <= 127 ? 1 : len < 16383 ? 2 : len < 2097151 ? 3 : len < 268435455 ? 4 : 5;
    return len + backlen;
  }
  void add(std::string_view element) { bytes += entry(element); }
};

// dictSlots of a dict that grew one insertion at a time: the power of two at or above its size,
// at least DICT_HT_INITIAL_SIZE (4).
size_t dict_slots(size_t size) { return std::max<size_t>(4, std::bit_ceil(size)); }

// objectComputeSize's `asize += (double)elesize/samples*size`: computed in double, truncated.
size_t add_sampled(size_t asize, size_t elesize, size_t samples, size_t size) {
  if (samples == 0) return asize;
  return static_cast<size_t>(static_cast<double>(asize) +
                             static_cast<double>(elesize) / static_cast<double>(samples) * static_cast<double>(size));
}

size_t string_size(const Entry& entry, const std::string& value) {
  const std::string_view encoding = string_encoding(entry, value);
  if (encoding == "int") return kRobj;
  // createEmbeddedStringObject: the robj, an sdshdr8 and the bytes in one allocation.
  if (encoding == "embstr") return jemalloc_size(kRobj + 3 + value.size() + 1);
  return sds_size(value) + kRobj;
}

size_t hash_size(const Hash& hash, uint64_t samples) {
  if (hash.is_listpack()) {
    ListpackSize lp;
    for (const auto& [field, value] : hash.fields()) lp.add(field), lp.add(value);
    return kRobj + jemalloc_size(lp.bytes);
  }
  const size_t asize = kRobj + kDict + kDictPointer * dict_slots(hash.size());
  size_t elesize = 0, sampled = 0;
  for (const auto& [field, value] : hash.fields()) {
    if (sampled >= samples) break;
    elesize += sds_size(field) + sds_size(value) + kDictEntry;
    ++sampled;
  }
  return add_sampled(asize, elesize, sampled, hash.size());
}

size_t list_size(const List& list, uint64_t samples) {
  // The nodes as quicklistPush fills them from one end: a new node once the listpack would pass 8 KB.
  std::vector<size_t> nodes;
  for (const std::string& element : list) {
    const size_t entry = ListpackSize::entry(element);
    if (nodes.empty() || nodes.back() + entry > kQuicklistNodeBytes) nodes.push_back(ListpackSize{}.bytes);
    nodes.back() += entry;
  }
  size_t elesize = 0, sampled = 0;
  for (const size_t bytes : nodes) {
    elesize += kQuicklistNode + jemalloc_size(bytes);
    if (++sampled >= samples) break;  // a do-while: the first node is always sampled
  }
  return add_sampled(kRobj + kQuicklist, elesize, sampled, nodes.size());
}

size_t set_size(const Set& set, uint64_t samples) {
  const std::vector<std::string> members = set.members();
  if (set.encoding() == Set::Encoding::IntSet) {
    // An intset's header (encoding, length) and its integers at the width the widest one needs.
    size_t width = 2;
    for (const std::string& member : members) {
      const int64_t v = *parse_int64(member);
      if (v < -2147483648LL || v > 2147483647LL) width = 8;
      else if ((v < -32768 || v > 32767) && width < 4) width = 4;
    }
    return kRobj + jemalloc_size(8 + width * members.size());
  }
  const size_t asize = kRobj + kDict + kDictPointer * dict_slots(members.size());
  size_t elesize = 0, sampled = 0;
  for (const std::string& member : members) {
    if (sampled >= samples) break;
    elesize += kDictEntry + sds_size(member);
    ++sampled;
  }
  return add_sampled(asize, elesize, sampled, members.size());
}

size_t zset_size(const ZSet& zset, uint64_t samples) {
  if (zset.is_listpack()) {
    ListpackSize lp;
    for (const auto& [score, member] : zset.ordered()) lp.add(member), lp.add(format_d2string(score));
    return kRobj + jemalloc_size(lp.bytes);
  }
  const size_t asize = kRobj + kZset + kZskiplist + kDict + kDictPointer * dict_slots(zset.size()) +
                       jemalloc_size(kZskiplistNode + kZskiplistMaxLevel * kZskiplistLevel);
  // A node's level is random in Redis (zslRandomLevel: level l with probability 3/4 * (1/4)^(l-1));
  // the fake keeps none, so each node counts as the expected size of a node.
  double node = 0, p = 0.75;
  for (size_t level = 1; level <= kZskiplistMaxLevel; ++level, p /= 4)
    node += (level == kZskiplistMaxLevel ? p * 4 / 3 : p) *
            static_cast<double>(jemalloc_size(kZskiplistNode + level * kZskiplistLevel));
  double elesize = 0;
  size_t sampled = 0;
  for (const auto& [score, member] : zset.ordered()) {
    if (sampled >= samples) break;
    elesize += static_cast<double>(sds_size(member) + kDictEntry) + node;
    ++sampled;
  }
  if (sampled == 0) return asize;
  return static_cast<size_t>(static_cast<double>(asize) +
                             elesize / static_cast<double>(sampled) * static_cast<double>(zset.size()));
}

// objectComputeSize for the fake's value.
size_t object_size(const Entry& entry, uint64_t samples) {
  if (const auto* s = std::get_if<std::string>(&entry.value)) return string_size(entry, *s);
  if (const auto* h = std::get_if<Hash>(&entry.value)) return hash_size(*h, samples);
  if (const auto* l = std::get_if<List>(&entry.value)) return list_size(*l, samples);
  if (const auto* set = std::get_if<Set>(&entry.value)) return set_size(*set, samples);
  return zset_size(std::get<ZSet>(entry.value), samples);
}

// Redis reads MEMORY USAGE's option names as C strings: they end at a NUL byte.
std::string_view c_string(std::string_view arg) { return arg.substr(0, arg.find('\0')); }

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
  if (help) return help_reply(ctx.arg(0), kObjectHelp);

  // objectCommandLookup: an expired key is deleted and answers nil.
  const Entry* entry = ctx.db.find(ctx.arg(2));
  if (entry == nullptr) return Reply::nil();
  if (equals_ignore_case(sub, "encoding")) return Reply::bulk(encoding_of(*entry));
  if (equals_ignore_case(sub, "refcount")) return Reply::integer_of(refcount_of(*entry));
  return Reply::error(errors::kLfuNotSelected);  // FREQ: the default maxmemory-policy is not LFU
}


// MEMORY USAGE key [SAMPLES count] | MEMORY HELP (Redis's memoryCommand). MEMORY is a container
// command: DOCTOR, MALLOC-STATS, PURGE and STATS are not in the fake's table, so dispatch refuses
// them as unknown subcommands (docs/fidelity.md).
Reply memory_command(CommandContext& ctx) {
  const std::string_view sub = ctx.arg(1);
  if (equals_ignore_case(sub, "help") && ctx.argc() == 2) return help_reply(ctx.arg(0), kMemoryHelp);
  if (equals_ignore_case(sub, "usage") && ctx.argc() >= 3) {
    uint64_t samples = kDefaultSamples;
    for (size_t j = 3; j < ctx.argc(); ++j) {
      if (!equals_ignore_case(c_string(ctx.arg(j)), "samples") || j + 1 >= ctx.argc())
        return Reply::error(errors::kSyntax);
      const auto parsed = parse_int64(ctx.arg(++j));
      if (!parsed) return Reply::error(errors::kNotInteger);
      if (*parsed < 0) return Reply::error(errors::kSyntax);
      samples = *parsed == 0 ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(*parsed);
    }
    // dictFind on the db's dict: an expired key not yet deleted still has a size, and stays.
    const auto& entries = ctx.db.entries();
    const auto it = entries.find(ctx.arg(2));
    if (it == entries.end()) return Reply::nil();
    // The value, the key's sds and the dictEntry that holds them (no dict metadata outside a cluster).
    const size_t usage = object_size(it->second, samples) + sds_size(it->first) + kDictEntry;
    return Reply::integer_of(static_cast<int64_t>(usage));
  }
  return Reply::error(errors::unknown_subcommand_or_arity(sub, "MEMORY"));  // addReplySubcommandSyntaxError
}

}  // namespace locksim::engine
