#include "base/json_reader.hpp"

namespace zk {

void JsonReader::fail(const std::string& what) const {
  throw JsonError("JSON at byte " + std::to_string(pos_) + ": " + what);
}

void JsonReader::ws() {
  while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
}

char JsonReader::next_char() {
  ws();
  if (pos_ >= s_.size()) fail("unexpected end of input");
  return s_[pos_];
}

JsonReader::Type JsonReader::peek() {
  ws();
  if (pos_ >= s_.size()) return Type::kEnd;
  switch (s_[pos_]) {
    case '{': return Type::kObject;
    case '[': return Type::kArray;
    case '"': return Type::kString;
    case 't':
    case 'f': return Type::kBool;
    case 'n': return Type::kNull;
    default: break;
  }
  const char c = s_[pos_];
  if (c == '-' || (c >= '0' && c <= '9')) return Type::kNumber;
  fail(std::string("unexpected character '") + c + "'");
}

void JsonReader::push() {
  if (first_.size() >= max_depth_) fail("nested deeper than " + std::to_string(max_depth_) + " levels");
  first_.push_back(true);
}

void JsonReader::begin_object() {
  if (next_char() != '{') fail("expected an object");
  ++pos_;
  push();
}

bool JsonReader::next_key(std::string& key) {
  char c = next_char();
  if (c == '}') {
    ++pos_;
    first_.pop_back();
    return false;
  }
  if (!first_.back()) {
    if (c != ',') fail("expected ',' or '}' in an object");
    ++pos_;
    c = next_char();
  }
  if (c != '"') fail("expected a key");
  first_.back() = false;
  key = read_string(256);
  if (next_char() != ':') fail("expected ':' after key \"" + key + "\"");
  ++pos_;
  return true;
}

void JsonReader::begin_array() {
  if (next_char() != '[') fail("expected an array");
  ++pos_;
  push();
}

bool JsonReader::next_element() {
  const char c = next_char();
  if (c == ']') {
    ++pos_;
    first_.pop_back();
    return false;
  }
  if (!first_.back()) {
    if (c != ',') fail("expected ',' or ']' in an array");
    ++pos_;
    if (next_char() == ']') fail("a trailing ',' in an array");
  }
  first_.back() = false;
  return true;
}

std::uint64_t JsonReader::read_u64() {
  const char c = next_char();
  if (c == '-') fail("expected a non-negative integer");
  if (c < '0' || c > '9') fail("expected an integer");
  std::uint64_t v = 0;
  const std::size_t start = pos_;
  while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
    const auto d = static_cast<std::uint64_t>(s_[pos_] - '0');
    if (v > (UINT64_MAX - d) / 10) fail("integer does not fit 64 bits");
    v = v * 10 + d;
    ++pos_;
  }
  if (pos_ - start > 1 && s_[start] == '0') fail("integer with a leading zero");
  if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E')) fail("expected an integer");
  return v;
}

namespace {
void put_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}
}  // namespace

std::string JsonReader::read_string(std::size_t max_bytes) {
  if (next_char() != '"') fail("expected a string");
  ++pos_;
  std::string out;
  auto hex4 = [&]() -> std::uint32_t {
    if (s_.size() - pos_ < 4) fail("truncated \\u escape");
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = s_[pos_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= static_cast<std::uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') v |= static_cast<std::uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= static_cast<std::uint32_t>(h - 'A' + 10);
      else fail("bad \\u escape");
    }
    return v;
  };
  while (true) {
    if (pos_ >= s_.size()) fail("unterminated string");
    const char c = s_[pos_++];
    if (c == '"') break;
    if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
    if (c != '\\') {
      out.push_back(c);
    } else {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xd800 && cp < 0xdc00) {
            if (s_.size() - pos_ < 2 || s_[pos_] != '\\' || s_[pos_ + 1] != 'u') fail("unpaired surrogate");
            pos_ += 2;
            const std::uint32_t lo = hex4();
            if (lo < 0xdc00 || lo >= 0xe000) fail("unpaired surrogate");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          } else if (cp >= 0xdc00 && cp < 0xe000) {
            fail("unpaired surrogate");
          }
          put_utf8(out, cp);
          break;
        }
        default: fail("bad escape in a string");
      }
    }
    if (out.size() > max_bytes) fail("string longer than " + std::to_string(max_bytes) + " bytes");
  }
  return out;
}

void JsonReader::expect_literal(std::string_view lit) {
  ws();
  if (s_.substr(pos_, lit.size()) != lit) fail("expected " + std::string(lit));
  pos_ += lit.size();
}

void JsonReader::read_null() { expect_literal("null"); }

bool JsonReader::read_bool() {
  if (next_char() == 't') {
    expect_literal("true");
    return true;
  }
  expect_literal("false");
  return false;
}

void JsonReader::skip_value() {
  switch (peek()) {
    case Type::kObject: {
      begin_object();
      std::string k;
      while (next_key(k)) skip_value();
      return;
    }
    case Type::kArray:
      begin_array();
      while (next_element()) skip_value();
      return;
    case Type::kString: (void)read_string(s_.size()); return;
    case Type::kBool: (void)read_bool(); return;
    case Type::kNull: read_null(); return;
    case Type::kNumber: {
      // RFC 8259 number: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?
      if (s_[pos_] == '-') ++pos_;
      auto digits = [&] {
        const std::size_t st = pos_;
        while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
        if (pos_ == st) fail("malformed number");
        return pos_ - st;
      };
      const std::size_t st = pos_;
      if (digits() > 1 && s_[st] == '0') fail("number with a leading zero");
      if (pos_ < s_.size() && s_[pos_] == '.') ++pos_, digits();
      if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
        ++pos_;
        if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
        digits();
      }
      return;
    }
    case Type::kEnd: fail("unexpected end of input");
  }
}

void JsonReader::expect_end() {
  ws();
  if (pos_ != s_.size()) fail("trailing data after the document");
}

}  // namespace zk
