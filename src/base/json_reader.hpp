#pragma once

// A pull reader for large, schema-known JSON documents (Filecoin's C1 output is tens of MB of
// nested arrays of small integers): the caller walks the document and stores only what it keeps,
// so memory is the caller's data, not a DOM several times the text. Strict RFC 8259 syntax, a
// nesting limit, integers checked for overflow; every error names the byte offset. Errors are
// thrown as JsonError inside the reader's users and turned into a Status at their edge.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace zk {

class JsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class JsonReader {
 public:
  enum class Type { kObject, kArray, kString, kNumber, kBool, kNull, kEnd };
  explicit JsonReader(std::string_view text, unsigned max_depth = 64) : s_(text), max_depth_(max_depth) {}

  /// The type of the next value (whitespace skipped).
  Type peek();
  /// '{'; then next_key() until it returns false (having consumed '}').
  void begin_object();
  bool next_key(std::string& key);
  /// '['; then next_element() until it returns false (having consumed ']').
  void begin_array();
  bool next_element();
  /// A non-negative integer without fraction or exponent that fits 64 bits.
  std::uint64_t read_u64();
  /// A string of at most max_bytes bytes (UTF-8, escapes decoded).
  std::string read_string(std::size_t max_bytes);
  void read_null();
  bool read_bool();
  /// Skips one value of any type (nesting limited like everything else).
  void skip_value();
  /// Only whitespace may follow.
  void expect_end();
  std::size_t offset() const { return pos_; }
  [[noreturn]] void fail(const std::string& what) const;

 private:
  void ws();
  char next_char();
  void push();
  void expect_literal(std::string_view lit);

  std::string_view s_;
  std::size_t pos_ = 0;
  unsigned max_depth_;
  std::vector<bool> first_;  // per open container: no element/key read yet
};

}  // namespace zk
