// Bitmaps: SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP (Redis bitops.c). A string is a bitmap whose bit 0
// is the most significant bit of its first byte; past its end every bit reads 0.
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"
#include "engine/set_key.hpp"

namespace locksim::engine {
namespace {

// proto-max-bulk-len, Redis's default 512 MB: a bit offset must address a byte below it.
constexpr int64_t kProtoMaxBulkLen = 512LL * 1024 * 1024;

// Redis reads BITOP's operation and the BIT | BYTE option as C strings: they end at a NUL byte.
std::string_view c_string(std::string_view arg) { return arg.substr(0, arg.find('\0')); }

// getBitOffsetFromArgument (without BITFIELD's #<offset> form): string2ll, not negative, and its
// byte below proto-max-bulk-len.
std::optional<uint64_t> bit_offset(std::string_view arg) {
  const auto parsed = parse_int64(arg);
  if (!parsed || *parsed < 0 || (*parsed >> 3) >= kProtoMaxBulkLen) return std::nullopt;
  return static_cast<uint64_t>(*parsed);
}

const unsigned char* bytes_of(const std::string& s) { return reinterpret_cast<const unsigned char*>(s.data()); }

// redisPopcount over `count` bytes.
int64_t popcount(const unsigned char* p, size_t count) {
  int64_t bits = 0;
  for (size_t i = 0; i < count; ++i) bits += std::popcount(static_cast<unsigned>(p[i]));
  return bits;
}

// redisBitpos: the position of the first bit equal to `bit` in `count` bytes. Looking for a 1 that
// is not there answers -1; looking for a 0 that is not there answers the bit just past the bytes
// (the string is taken as padded with zeros on the right).
int64_t bitpos(const unsigned char* p, size_t count, int bit) {
  for (size_t i = 0; i < count; ++i) {
    const unsigned byte = p[i];
    if (byte == (bit ? 0u : 0xffu)) continue;
    for (int j = 0; j < 8; ++j)
      if (((byte >> (7 - j)) & 1u) == static_cast<unsigned>(bit)) return static_cast<int64_t>(i * 8) + j;
  }
  return bit ? -1 : static_cast<int64_t>(count * 8);
}

// BIT | BYTE, as strcasecmp reads it; nullopt for anything else (a syntax error).
std::optional<bool> unit_is_bit(std::string_view arg) {
  const std::string_view unit = c_string(arg);
  if (equals_ignore_case(unit, "bit")) return true;
  if (equals_ignore_case(unit, "byte")) return false;
  return std::nullopt;
}

// A range of bits turned into bytes, as bitcountCommand and bitposCommand do: bytes start..end and
// the masks of the bits of the first and last byte that lie outside the range.
struct ByteRange {
  int64_t start, end;
  unsigned char first_mask = 0, last_mask = 0;
};

// Negative indexes from the end of `total` (bytes, or bits when `is_bit`), clamped; a bit range
// becomes bytes and edge masks.
ByteRange to_bytes(int64_t start, int64_t end, int64_t total, bool is_bit) {
  if (start < 0) start = total + start;
  if (end < 0) end = total + end;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end >= total) end = total - 1;
  ByteRange range{start, end};
  if (is_bit && start <= end) {
    range.first_mask = static_cast<unsigned char>(~((1u << (8 - (start & 7))) - 1) & 0xff);
    range.last_mask = static_cast<unsigned char>((1u << (7 - (end & 7))) - 1);
    range.start >>= 3;
    range.end >>= 3;
  }
  return range;
}

// bitposCommand once its range is known: the first byte and the last may hold bits outside the
// range (the masks), which are made to not match before the search.
int64_t bitpos_in_range(const unsigned char* p, ByteRange r, int bit, bool end_given) {
  int64_t start = r.start, bytes = r.end - r.start + 1;
  int64_t pos = -1;
  bool done = false;
  if (r.first_mask) {
    unsigned char tmp = bit ? (p[start] & ~r.first_mask) : (p[start] | r.first_mask);
    if (r.last_mask && bytes == 1) tmp = bit ? (tmp & ~r.last_mask) : (tmp | r.last_mask);
    pos = bitpos(&tmp, 1, bit);
    if (bytes == 1 || (pos != -1 && pos != 8)) {
      done = true;
    } else {
      ++start;
      --bytes;
    }
  }
  if (!done) {
    const int64_t curbytes = bytes - (r.last_mask ? 1 : 0);
    if (curbytes > 0) {
      pos = bitpos(p + start, static_cast<size_t>(curbytes), bit);
      if (bytes == curbytes || (pos != -1 && pos != curbytes * 8)) {
        done = true;
      } else {
        start += curbytes;
        bytes -= curbytes;
      }
    }
  }
  if (!done) {
    const unsigned char tmp = bit ? (p[r.end] & ~r.last_mask) : (p[r.end] | r.last_mask);
    pos = bitpos(&tmp, 1, bit);
  }
  // A clear bit looked for in a range with an explicit end is not found past that end.
  if (end_given && bit == 0 && pos == bytes * 8) return -1;
  if (pos != -1) pos += start * 8;
  return pos;
}

enum class BitOp { And, Or, Xor, Not };

}  // namespace

// SETBIT key offset value: the bit's old value. The string grows with zero bytes to reach the
// offset, and is left raw (dbUnshareStringValue / createObject of an sds).
Reply setbit_command(CommandContext& ctx) {
  const auto offset = bit_offset(ctx.arg(2));
  if (!offset) return Reply::error(errors::kBitOffset);
  const auto on = parse_int64(ctx.arg(3));
  if (!on || (*on & ~int64_t{1})) return Reply::error(errors::kBitValue);
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  const size_t byte = static_cast<size_t>(*offset >> 3);
  bool dirty = false;  // lookupStringForBitCommand's: created or grown
  if (found.value == nullptr) {
    found.entry = &ctx.db.insert(ctx.arg(1), Value{std::string(byte + 1, '\0')});
    found.value = std::get_if<std::string>(&found.entry->value);
    dirty = true;
  } else if (found.value->size() < byte + 1) {
    found.value->resize(byte + 1, '\0');
    dirty = true;
  }
  found.entry->string_form = StringForm::Raw;
  // A WATCH breaks only if the bytes changed (Redis signals only then), which WatchedWrite sees.
  auto& target = reinterpret_cast<unsigned char&>((*found.value)[byte]);
  const unsigned mask = 1u << (7 - (*offset & 7));
  const bool old = (target & mask) != 0;
  target = static_cast<unsigned char>(*on ? (target | mask) : (target & ~mask));
  if (dirty || old != (*on == 1)) ctx.notify(kNotifyString, "setbit", ctx.arg(1));
  return Reply::integer_of(old ? 1 : 0);
}

// GETBIT key offset
Reply getbit_command(CommandContext& ctx) {
  const auto offset = bit_offset(ctx.arg(2));
  if (!offset) return Reply::error(errors::kBitOffset);
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::integer_of(0);
  const size_t byte = static_cast<size_t>(*offset >> 3);
  if (byte >= found.value->size()) return Reply::integer_of(0);
  return Reply::integer_of((bytes_of(*found.value)[byte] >> (7 - (*offset & 7))) & 1);
}

// BITCOUNT key [start end [BYTE | BIT]]: the key is looked up before the range is read, so a
// missing key answers 0 whatever follows.
Reply bitcount_command(CommandContext& ctx) {
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::integer_of(0);
  const std::string& s = *found.value;
  const auto length = static_cast<int64_t>(s.size());
  ByteRange range{0, length - 1};
  if (ctx.argc() == 4 || ctx.argc() == 5) {
    const auto start = parse_int64(ctx.arg(2));
    if (!start) return Reply::error(errors::kNotInteger);
    const auto end = parse_int64(ctx.arg(3));
    if (!end) return Reply::error(errors::kNotInteger);
    if (*start < 0 && *end < 0 && *start > *end) return Reply::integer_of(0);
    bool is_bit = false;
    if (ctx.argc() == 5) {
      const auto unit = unit_is_bit(ctx.arg(4));
      if (!unit) return Reply::error(errors::kSyntax);
      is_bit = *unit;
    }
    range = to_bytes(*start, *end, is_bit ? length * 8 : length, is_bit);
  } else if (ctx.argc() != 2) {
    return Reply::error(errors::kSyntax);
  }
  if (range.start > range.end) return Reply::integer_of(0);
  const unsigned char* p = bytes_of(s);
  int64_t count = popcount(p + range.start, static_cast<size_t>(range.end - range.start + 1));
  // The bits of the edge bytes outside a BIT range are counted, then taken off.
  if (range.first_mask) count -= std::popcount(static_cast<unsigned>(p[range.start] & range.first_mask));
  if (range.last_mask) count -= std::popcount(static_cast<unsigned>(p[range.end] & range.last_mask));
  return Reply::integer_of(count);
}

// BITPOS key bit [start [end [BYTE | BIT]]]: a missing key is all zeros, so 0 for a clear bit and
// -1 for a set one, before the range is read.
Reply bitpos_command(CommandContext& ctx) {
  const auto bit = parse_int64(ctx.arg(2));
  if (!bit) return Reply::error(errors::kNotInteger);
  if (*bit != 0 && *bit != 1) return Reply::error(errors::kBitArgument);
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::integer_of(*bit ? -1 : 0);
  const std::string& s = *found.value;
  const auto length = static_cast<int64_t>(s.size());
  ByteRange range{0, length - 1};
  bool end_given = false;
  if (ctx.argc() >= 4 && ctx.argc() <= 6) {
    const auto start = parse_int64(ctx.arg(3));
    if (!start) return Reply::error(errors::kNotInteger);
    bool is_bit = false;
    if (ctx.argc() == 6) {
      const auto unit = unit_is_bit(ctx.arg(5));
      if (!unit) return Reply::error(errors::kSyntax);
      is_bit = *unit;
    }
    int64_t end = is_bit ? length * 8 + 7 : length - 1;
    if (ctx.argc() >= 5) {
      const auto parsed = parse_int64(ctx.arg(4));
      if (!parsed) return Reply::error(errors::kNotInteger);
      end = *parsed;
      end_given = true;
    }
    range = to_bytes(*start, end, is_bit ? length * 8 : length, is_bit);
  } else if (ctx.argc() != 3) {
    return Reply::error(errors::kSyntax);
  }
  if (range.start > range.end) return Reply::integer_of(-1);
  return Reply::integer_of(bitpos_in_range(bytes_of(s), range, static_cast<int>(*bit), end_given));
}

// BITOP AND | OR | XOR | NOT destkey key [key ...]: the result is as long as the longest source
// (missing keys are empty, shorter ones padded with zeros); an empty result deletes destkey.
Reply bitop_command(CommandContext& ctx) {
  const std::string_view name = c_string(ctx.arg(1));
  BitOp op;
  if (equals_ignore_case(name, "and")) op = BitOp::And;
  else if (equals_ignore_case(name, "or")) op = BitOp::Or;
  else if (equals_ignore_case(name, "xor")) op = BitOp::Xor;
  else if (equals_ignore_case(name, "not")) op = BitOp::Not;
  else return Reply::error(errors::kSyntax);
  if (op == BitOp::Not && ctx.argc() != 4) return Reply::error(errors::kBitopNotSingleKey);

  // Every source is read (and type-checked, in order) before anything is written.
  std::vector<std::string> sources;
  size_t maxlen = 0;
  for (size_t j = 3; j < ctx.argc(); ++j) {
    Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(j));
    if (found.wrong_type) return Reply::error(errors::kWrongType);
    sources.push_back(found.value ? *found.value : std::string());
    maxlen = std::max(maxlen, sources.back().size());
  }
  if (maxlen == 0) {
    // dbDelete: a WATCH on it breaks, and "del" is sent, only if it was there.
    if (ctx.db.remove(ctx.arg(2))) ctx.notify(kNotifyGeneric, "del", ctx.arg(2));
    return Reply::integer_of(0);
  }
  std::string result(maxlen, '\0');
  for (size_t i = 0; i < maxlen; ++i) {
    auto byte_of = [i](const std::string& s) { return i < s.size() ? static_cast<unsigned char>(s[i]) : 0u; };
    unsigned out = byte_of(sources[0]);
    if (op == BitOp::Not) out = ~out & 0xffu;
    for (size_t k = 1; k < sources.size(); ++k) {
      if (op == BitOp::And) out &= byte_of(sources[k]);
      else if (op == BitOp::Or) out |= byte_of(sources[k]);
      else out ^= byte_of(sources[k]);
    }
    result[i] = static_cast<char>(out);
  }
  // setKey with a raw string object (createObject of the sds): its expiry goes.
  set_key(ctx.db, ctx.arg(2), Value{std::move(result)}).string_form = StringForm::Raw;
  ctx.notify(kNotifyString, "set", ctx.arg(2));
  return Reply::integer_of(static_cast<int64_t>(maxlen));
}

}  // namespace locksim::engine
