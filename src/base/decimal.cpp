#include "base/decimal.hpp"

#include <string>

namespace zk::base {

Result<std::uint64_t> parse_decimal_u64(std::string_view text, std::uint64_t max) {
  const auto shown = [&] {
    std::string s(text.substr(0, 40));
    for (char& c : s) {
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
    }
    return "'" + s + (text.size() > 40 ? "...'" : "'");
  };
  if (text.empty()) return Status::invalid_argument("expected a decimal number, got nothing");
  std::uint64_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') {
      return Status::invalid_argument(shown() + " is not a decimal number (digits 0-9 only: no sign, space or prefix)");
    }
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (d > max || v > (max - d) / 10) {
      return Status::invalid_argument(shown() + " is larger than " + std::to_string(max));
    }
    v = v * 10 + d;
  }
  return v;
}

}  // namespace zk::base
