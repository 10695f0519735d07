#include "engine/function_payload.hpp"

#include <array>

namespace locksim::engine::function_payload {
namespace {

constexpr uint8_t kOpcodeFunction2 = 245;  // RDB_OPCODE_FUNCTION2
constexpr uint8_t kOpcodeFunction = 246;   // RDB_OPCODE_FUNCTION, 7.0 rc1 and rc2
constexpr uint16_t kRdbVersion = 10;

// RDB's length encodings (rdbSaveLen).
void put_length(std::string& out, uint64_t len) {
  if (len < (1u << 6)) {
    out += static_cast<char>(len);
  } else if (len < (1u << 14)) {
    out += static_cast<char>(0x40 | (len >> 8));
    out += static_cast<char>(len & 0xff);
  } else if (len <= 0xffffffffu) {
    out += static_cast<char>(0x80);
    for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((len >> shift) & 0xff);
  } else {
    out += static_cast<char>(0x81);
    for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>((len >> shift) & 0xff);
  }
}

// Reads what rdbLoadLen and rdbGenericLoadStringObject read, from a position in a payload.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  size_t left() const { return data_.size() - pos_; }

  std::optional<uint8_t> byte() {
    if (pos_ >= data_.size()) return std::nullopt;
    return static_cast<uint8_t>(data_[pos_++]);
  }

  // The length, or (encoded) the special encoding's number.
  std::optional<uint64_t> length(bool& encoded) {
    encoded = false;
    const auto first = byte();
    if (!first) return std::nullopt;
    switch (*first >> 6) {
      case 0: return *first & 0x3f;
      case 1: {
        const auto second = byte();
        if (!second) return std::nullopt;
        return (static_cast<uint64_t>(*first & 0x3f) << 8) | *second;
      }
      case 2: {
        const int bytes = *first == 0x80 ? 4 : *first == 0x81 ? 8 : 0;
        if (bytes == 0) return std::nullopt;
        uint64_t len = 0;
        for (int i = 0; i < bytes; ++i) {
          const auto b = byte();
          if (!b) return std::nullopt;
          len = (len << 8) | *b;
        }
        return len;
      }
      default:
        encoded = true;
        return *first & 0x3f;
    }
  }

  std::optional<std::string> string() {
    bool encoded = false;
    const auto len = length(encoded);
    if (!len) return std::nullopt;
    if (!encoded) return take(*len);
    switch (*len) {
      case 0: return integer(1);
      case 1: return integer(2);
      case 2: return integer(4);
      case 3: return lzf();
      default: return std::nullopt;
    }
  }

 private:
  std::optional<std::string> take(uint64_t n) {
    if (n > left()) return std::nullopt;
    std::string out(data_.substr(pos_, n));
    pos_ += n;
    return out;
  }

  // RDB_ENC_INT8/16/32: a little-endian signed integer, as its decimal text.
  std::optional<std::string> integer(int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) {
      const auto b = byte();
      if (!b) return std::nullopt;
      v |= static_cast<uint64_t>(*b) << (8 * i);
    }
    int64_t value = bytes == 1 ? static_cast<int8_t>(v) : bytes == 2 ? static_cast<int16_t>(v) : static_cast<int32_t>(v);
    return std::to_string(value);
  }

  // RDB_ENC_LZF: the compressed length, the plain length, then liblzf's format.
  std::optional<std::string> lzf() {
    bool encoded = false;
    const auto clen = length(encoded);
    if (!clen || encoded) return std::nullopt;
    const auto len = length(encoded);
    if (!len || encoded) return std::nullopt;
    const auto in = take(*clen);
    if (!in) return std::nullopt;
    std::string out;
    size_t i = 0;
    while (i < in->size()) {
      const unsigned ctrl = static_cast<uint8_t>((*in)[i++]);
      if (ctrl < 32) {  // a literal run of ctrl + 1 bytes
        if (i + ctrl + 1 > in->size()) return std::nullopt;
        out.append(*in, i, ctrl + 1);
        i += ctrl + 1;
        continue;
      }
      size_t n = ctrl >> 5;  // a back reference
      if (n == 7) {
        if (i >= in->size()) return std::nullopt;
        n += static_cast<uint8_t>((*in)[i++]);
      }
      if (i >= in->size()) return std::nullopt;
      const size_t back = ((ctrl & 0x1f) << 8) + static_cast<uint8_t>((*in)[i++]) + 1;
      if (back > out.size()) return std::nullopt;
      for (size_t k = 0; k < n + 2; ++k) out += out[out.size() - back];
    }
    if (out.size() != *len) return std::nullopt;
    return out;
  }

  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace

uint64_t crc64(uint64_t crc, std::string_view data) {
  static const auto kTable = [] {
    constexpr uint64_t kReflectedPoly = 0x95ac9329ac4bc9b5ull;  // 0xad93d23594c935a9, bits reversed
    std::array<uint64_t, 256> table{};
    for (uint64_t i = 0; i < 256; ++i) {
      uint64_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kReflectedPoly : c >> 1;
      table[i] = c;
    }
    return table;
  }();
  for (const char ch : data) crc = kTable[(crc ^ static_cast<uint8_t>(ch)) & 0xff] ^ (crc >> 8);
  return crc;
}

std::string encode(const std::vector<std::string>& codes) {
  std::string out;
  for (const std::string& code : codes) {
    out += static_cast<char>(kOpcodeFunction2);
    put_length(out, code.size());
    out += code;
  }
  out += static_cast<char>(kRdbVersion & 0xff);
  out += static_cast<char>(kRdbVersion >> 8);
  const uint64_t crc = crc64(0, out);
  for (int i = 0; i < 8; ++i) out += static_cast<char>((crc >> (8 * i)) & 0xff);
  return out;
}

Decoded decode(std::string_view payload) {
  Decoded d;
  // verifyDumpPayload: the version no newer than ours, the checksum right.
  if (payload.size() < 10) {
    d.error = "DUMP payload version or checksum are wrong";
    return d;
  }
  const std::string_view footer = payload.substr(payload.size() - 10);
  const unsigned version = static_cast<uint8_t>(footer[0]) | (static_cast<uint8_t>(footer[1]) << 8);
  uint64_t crc = 0;
  for (int i = 0; i < 8; ++i) crc |= static_cast<uint64_t>(static_cast<uint8_t>(footer[2 + i])) << (8 * i);
  if (version > kRdbVersion || crc != crc64(0, payload.substr(0, payload.size() - 8))) {
    d.error = "DUMP payload version or checksum are wrong";
    return d;
  }
  Reader reader(payload);
  while (reader.left() > 10) {
    const auto type = reader.byte();
    if (type != kOpcodeFunction2 && type != kOpcodeFunction) {
      d.error = "given type is not a function";
      return d;
    }
    if (type == kOpcodeFunction2) {
      auto code = reader.string();
      if (!code) {
        d.error = "Failed loading library payload";
        return d;
      }
      d.codes.push_back(std::move(*code));
      continue;
    }
    // rdbFunctionLoad's old format: name, engine, a description (if flagged), the code.
    const auto name = reader.string();
    if (!name) {
      d.error = "Failed loading library name";
      return d;
    }
    const auto engine = reader.string();
    if (!engine) {
      d.error = "Failed loading engine name";
      return d;
    }
    bool encoded = false;  // rdbLoadLen takes an encoded value as the number it encodes
    const auto has_description = reader.length(encoded);
    if (!has_description) {
      d.error = "Failed loading library description indicator";
      return d;
    }
    if (*has_description && !reader.string()) {
      d.error = "Failed loading library description";
      return d;
    }
    const auto blob = reader.string();
    if (!blob) {
      d.error = "Failed loading library blob";
      return d;
    }
    d.codes.push_back("#!" + *engine + " name=" + *name + "\n" + *blob);
  }
  return d;
}

}  // namespace locksim::engine::function_payload
