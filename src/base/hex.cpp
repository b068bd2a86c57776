#include "base/hex.hpp"

namespace zk {

std::string hex_encode(std::span<const std::uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (const std::uint8_t b : bytes) out += {kHex[b >> 4], kHex[b & 15]};
  return out;
}

Result<std::vector<std::uint8_t>> hex_decode(std::string_view text, std::string_view what, std::size_t max_bytes) {
  if (text.substr(0, 2) == "0x") text.remove_prefix(2);
  if (text.size() % 2 != 0 || text.size() / 2 > max_bytes) {
    return Status::invalid_argument(std::string(what) + ": not hex bytes (an even number of digits, at most " +
                                    std::to_string(max_bytes) + " bytes)");
  }
  const auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<std::uint8_t> out(text.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = nibble(text[2 * i]), lo = nibble(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return Status::invalid_argument(std::string(what) + ": not hex bytes");
    out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return out;
}

}  // namespace zk
